//! What checks see: the file being checked, the files it references (resolved), and
//! the setup of a scenario laid out unit by unit with the place of every value.

mod sides;

pub use sides::{TableSide, ZonedSide};

use muster_hex::{HexGrid, HexId};
use muster_map::TerrainMap;
use muster_model::FileKind;
use muster_model::counters::{Army, Counter, CounterSheet};
use muster_model::map::{Area, MapSource, Overlay};
use muster_model::rules::StatusLadder;
use muster_model::scenario::{
    ExitThrough, Forces, Placement, Scenario, SourceAt, VictoryCondition, VictoryTest,
};
use muster_model::system::{RulesSystem, UnitKind, UnitRole};

use crate::hooks::{self, CarrierEffect, Effect, ParsedHook, RefKind};
use muster_db::load::{Document, Loaded};
use muster_db::place::{Later, Place};
use muster_db::project::{Db, Resolution};

/// A hex id written somewhere in a file, while the file's hex ids are gathered.
#[derive(Debug, Clone)]
struct HexRef<'a> {
    /// Place of the string naming the hex.
    place: Later,
    text: &'a str,
}

/// A hex id written in a file ([`FileCx::hexes`]), read once.
#[derive(Debug, Clone)]
pub struct WrittenHex {
    /// Place of the string naming the hex, laid out when a check reports on it.
    at: Later,
    /// The hex, or the text and why it is not a hex id.
    pub hex: Result<HexId, (Box<str>, muster_hex::HexIdError)>,
}

impl WrittenHex {
    /// Place of the string naming the hex.
    pub fn place(&self) -> Place {
        self.at.place()
    }
}

/// A straight range written as two hex ids.
#[derive(Debug, Clone)]
pub struct RangeRef<'a> {
    /// The `Range` or `Spaced` value.
    pub place: Place,
    pub from: &'a str,
    pub to: &'a str,
}

/// Any parsed file, with the system it refers to resolved where possible.
pub struct FileCx<'a> {
    pub db: &'a Db,
    pub index: usize,
    pub loaded: &'a Loaded,
    pub doc: &'a Document,
    pub system: Option<&'a RulesSystem>,
    /// The loaded file of `system`, for its ids ([`Loaded::ids`]).
    system_file: Option<&'a Loaded>,
    /// The grid hex ids in this file must lie on: the map's own, or a scenario's map.
    pub grid: Option<HexGrid>,
    /// A scenario's special rules whose hook is known and whose parameters parse,
    /// parsed once here (empty for other files).
    pub hooks: Vec<ParsedHook>,
    /// Every hex id written in the file, gathered on first need ([`FileCx::hexes`]).
    hexes: std::sync::OnceLock<Vec<WrittenHex>>,
}

impl<'a> FileCx<'a> {
    pub fn new(db: &'a Db, index: usize) -> Option<Self> {
        let loaded = &db.files[index];
        let doc = loaded.doc.as_ref()?;
        let resolve = |reference: &str, kind| match db.resolve(index, reference, kind) {
            Resolution::Found(i) => Some(i),
            _ => None,
        };
        let system_ref = match doc {
            Document::System(_) => None,
            Document::Counters(c) => Some(&c.system),
            Document::Map(m) => Some(&m.system),
            Document::Scenario(s) => Some(&s.system),
        };
        let system_file = match doc {
            Document::System(_) => Some(&**loaded),
            _ => system_ref
                .and_then(|r| resolve(r, FileKind::System))
                .and_then(|i| db.files.get(i))
                .map(|f| &**f),
        };
        let system: Option<&'a RulesSystem> = match system_file.and_then(|f| f.doc.as_ref()) {
            Some(Document::System(s)) => Some(s),
            _ => None,
        };
        let system_file = system.and(system_file);
        let grid = match doc {
            Document::Map(m) => muster_map::grid_of(m),
            Document::Scenario(_) => db.scenario_map(index).map(|m| *m.grid()),
            _ => None,
        };
        let hooks = match doc {
            Document::Scenario(s) => hooks::parse_rules(&s.special_rules),
            _ => Vec::new(),
        };
        Some(Self {
            db,
            index,
            loaded,
            doc,
            system,
            system_file,
            grid,
            hooks,
            hexes: std::sync::OnceLock::new(),
        })
    }

    /// The source file of the rules system this file uses, if it loaded.
    pub fn system_source(&self) -> Option<&'a muster_db::source::SourceFile> {
        self.system_file.map(|l| &*l.file)
    }

    pub fn map(&self) -> Option<&'a MapSource> {
        match self.doc {
            Document::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn scenario(&self) -> Option<&'a Scenario> {
        match self.doc {
            Document::Scenario(s) => Some(s),
            _ => None,
        }
    }

    /// Every hex id written in the file, with its place, each read once for all the
    /// checks that ask.
    pub fn hexes(&self) -> &[WrittenHex] {
        self.hexes.get_or_init(|| {
            self.hex_refs()
                .into_iter()
                .map(|r| WrittenHex {
                    hex: HexId::parse(r.text).map_err(|e| (r.text.into(), e)),
                    at: r.place,
                })
                .collect()
        })
    }

    /// Every hex id written in the file, with its place.
    fn hex_refs(&self) -> Vec<HexRef<'_>> {
        let mut out = Vec::new();
        match self.doc {
            Document::Map(map) => {
                for (i, overlay) in map.overlays.iter().enumerate() {
                    let base = Place::overlay(i);
                    match overlay {
                        Overlay::Terrain { area, .. } => {
                            area_refs(&base.variant("Terrain").field("area"), area, &mut out)
                        }
                        Overlay::AddTerrain { area, .. } => {
                            area_refs(&base.variant("AddTerrain").field("area"), area, &mut out)
                        }
                        Overlay::Path { hexes, .. } => {
                            let list = base.variant("Path").field("hexes");
                            for (k, h) in hexes.iter().enumerate() {
                                out.push(hex_ref(list.later().index(k), h));
                            }
                        }
                        Overlay::Hexsides { sides, .. } => {
                            let list = base.variant("Hexsides").field("sides");
                            for (k, (a, b)) in sides.iter().enumerate() {
                                out.push(hex_ref(list.later().index(k).index(0), a));
                                out.push(hex_ref(list.later().index(k).index(1), b));
                            }
                        }
                        Overlay::Access { hex, from } => {
                            let access = base.variant("Access");
                            out.push(hex_ref(access.later().field("hex"), hex));
                            for (k, h) in from.iter().enumerate() {
                                out.push(hex_ref(access.later().field("from").index(k), h));
                            }
                        }
                        Overlay::Label { hex, .. } => {
                            out.push(hex_ref(base.later().variant("Label").field("hex"), hex))
                        }
                        Overlay::Flow { hexes } => {
                            let list = base.variant("Flow").field("hexes");
                            for (k, h) in hexes.iter().enumerate() {
                                out.push(hex_ref(list.later().index(k), h));
                            }
                        }
                        Overlay::Feature { .. } => {}
                    }
                }
            }
            Document::Scenario(s) => {
                // Every kind of force, so that a new kind must say where its hexes are.
                for (i, side) in s.sides.iter().enumerate() {
                    match &side.forces {
                        Forces::Placed { setup, .. } => {
                            for (j, group) in setup.iter().enumerate() {
                                let at = Place::setup_group(i, j).field("at");
                                placement_refs(&at, &group.at, &mut out);
                            }
                        }
                        Forces::Zoned(z) => {
                            let sample = Place::zoned_forces(i).field("sample");
                            for (k, stack) in z.sample.iter().enumerate() {
                                out.push(hex_ref(sample.later().index(k).field("hex"), &stack.hex));
                            }
                        }
                        // Positions on an open table are inches, not hexes.
                        Forces::Table(_) => {}
                    }
                }
                for (i, n) in s.neutrals.iter().enumerate() {
                    placement_refs(&Place::neutral(i).field("at"), &n.at, &mut out);
                }
                for (i, r) in s.reinforcements.iter().enumerate() {
                    let entry = Place::reinforcement(i).field("entry");
                    for (k, h) in r.entry.iter().enumerate() {
                        out.push(hex_ref(entry.later().index(k), h));
                    }
                }
                for (i, v) in s.victory.iter().enumerate() {
                    if let VictoryCondition::ExitUnits { hexes, .. } = v {
                        let at = Place::victory(i).variant("ExitUnits").field("hexes");
                        area_refs(&at, hexes, &mut out);
                    }
                }
                for t in crate::victory::victory_tests(s) {
                    if let VictoryTest::Exited {
                        through: Some(ExitThrough::Hexes(area)),
                        ..
                    } = t.test
                    {
                        let at = t.at.variant("Exited").field("through").variant("Hexes");
                        area_refs(&at, area, &mut out);
                    }
                }
                for (i, source) in s.supply_sources.iter().enumerate() {
                    if let SourceAt::Hex(h) = &source.at {
                        let at = Place::top("supply_sources").index(i).field("at");
                        out.push(hex_ref(at.later().variant("Hex"), h));
                    }
                }
                for hook in &self.hooks {
                    for r in hook.references() {
                        if let RefKind::Hex(h) = r.kind {
                            out.push(hex_ref(hook.place_of(&r).later(), h));
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// Every straight range written in the file.
    pub fn range_refs(&self) -> Vec<RangeRef<'a>> {
        let mut out = Vec::new();
        let mut area = |place: Place, area: &'a Area| {
            if let Area::Range(from, to) = area {
                out.push(RangeRef {
                    place: place.variant("Range"),
                    from,
                    to,
                });
            }
        };
        match self.doc {
            Document::Map(map) => {
                for (i, overlay) in map.overlays.iter().enumerate() {
                    if let Some((variant, a)) = overlay_area(overlay) {
                        area(Place::overlay(i).variant(variant).field("area"), a);
                    }
                }
            }
            Document::Scenario(s) => {
                for (i, v) in s.victory.iter().enumerate() {
                    if let VictoryCondition::ExitUnits { hexes, .. } = v {
                        area(Place::victory(i).variant("ExitUnits").field("hexes"), hexes);
                    }
                }
                let mut placement = |place: Place, at: &'a Placement| match at {
                    Placement::Range(from, to) => out.push(RangeRef {
                        place: place.variant("Range"),
                        from,
                        to,
                    }),
                    Placement::Spaced { from, to, .. } => out.push(RangeRef {
                        place: place.variant("Spaced"),
                        from,
                        to,
                    }),
                    Placement::Hexes(_) | Placement::OnUnit { .. } | Placement::Box(_) => {}
                };
                for (i, side) in s.sides.iter().enumerate() {
                    match &side.forces {
                        Forces::Placed { setup, .. } => {
                            for (j, group) in setup.iter().enumerate() {
                                placement(Place::setup_group(i, j).field("at"), &group.at);
                            }
                        }
                        // Zones, samples and table positions write no straight range.
                        Forces::Zoned(_) | Forces::Table(_) => {}
                    }
                }
                for (i, n) in s.neutrals.iter().enumerate() {
                    placement(Place::neutral(i).field("at"), &n.at);
                }
            }
            _ => {}
        }
        out
    }

    /// Every radius written in the file, with its place: a `Zone` area's (map overlays,
    /// deployment zones, exit hexes), a `Near` deployment zone's, and the second item of
    /// an exit goal's `near` pair.
    pub fn radius_refs(&self) -> Vec<(Place, u16)> {
        use muster_model::scenario::{Goal, Zone};
        fn area(place: Place, area: &Area, out: &mut Vec<(Place, u16)>) {
            match area {
                Area::Zone { radius, .. } => {
                    out.push((place.variant("Zone").field("radius"), *radius))
                }
                Area::All | Area::Column(_) | Area::Row(_) | Area::Range(..) | Area::List(_) => {}
            }
        }
        fn zone(place: Place, z: &Zone, out: &mut Vec<(Place, u16)>) {
            match z {
                Zone::Near { radius, .. } => {
                    out.push((place.variant("Near").field("radius"), *radius))
                }
                Zone::AnyOf(zones) => {
                    for (k, z) in zones.iter().enumerate() {
                        zone(place.variant("AnyOf").index(k), z, out);
                    }
                }
                Zone::Excluding { zone: z, .. } => {
                    zone(place.variant("Excluding").field("zone"), z, out)
                }
                Zone::Hexes(a) => area(place.variant("Hexes"), a, out),
                Zone::AllSea => {}
            }
        }
        let mut out = Vec::new();
        match self.doc {
            Document::Map(map) => {
                for (i, overlay) in map.overlays.iter().enumerate() {
                    if let Some((variant, a)) = overlay_area(overlay) {
                        area(
                            Place::overlay(i).variant(variant).field("area"),
                            a,
                            &mut out,
                        );
                    }
                }
            }
            Document::Scenario(s) => {
                for (i, side) in s.sides.iter().enumerate() {
                    match &side.forces {
                        Forces::Zoned(z) => {
                            for (j, d) in z.deploy.iter().enumerate() {
                                if let Some(z) = &d.zone {
                                    let at = Place::zoned_forces(i).field("deploy").index(j);
                                    zone(at.field("zone"), z, &mut out);
                                }
                            }
                        }
                        // Placed groups and table positions write no radius.
                        Forces::Placed { .. } | Forces::Table(_) => {}
                    }
                }
                for (i, v) in s.victory.iter().enumerate() {
                    match v {
                        VictoryCondition::ExitUnits { hexes, .. } => area(
                            Place::victory(i).variant("ExitUnits").field("hexes"),
                            hexes,
                            &mut out,
                        ),
                        VictoryCondition::Goals { any_of, .. } => {
                            for (a, all) in any_of.iter().enumerate() {
                                for (g, goal) in all.iter().enumerate() {
                                    if let Goal::Exit {
                                        near: Some((_, radius)),
                                        ..
                                    } = goal
                                    {
                                        let at = Place::goal(i, a, g).variant("Exit");
                                        out.push((at.field("near").index(1), *radius));
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            Document::System(_) | Document::Counters(_) => {}
        }
        out
    }
}

fn hex_ref(place: Later, text: &str) -> HexRef<'_> {
    HexRef { place, text }
}

/// The variant name and the area of an overlay that covers an area of hexes (`Terrain`,
/// `AddTerrain`).
fn overlay_area(overlay: &Overlay) -> Option<(&'static str, &Area)> {
    match overlay {
        Overlay::Terrain { area, .. } => Some(("Terrain", area)),
        Overlay::AddTerrain { area, .. } => Some(("AddTerrain", area)),
        _ => None,
    }
}

fn area_refs<'a>(base: &Place, area: &'a Area, out: &mut Vec<HexRef<'a>>) {
    match area {
        Area::Range(a, b) => {
            out.push(hex_ref(base.later().variant("Range").index(0), a));
            out.push(hex_ref(base.later().variant("Range").index(1), b));
        }
        Area::List(items) => {
            for (k, h) in items.iter().enumerate() {
                out.push(hex_ref(base.later().variant("List").index(k), h));
            }
        }
        Area::Zone { center, .. } => out.push(hex_ref(
            base.later().variant("Zone").field("center"),
            center,
        )),
        Area::All | Area::Column(_) | Area::Row(_) => {}
    }
}

fn placement_refs<'a>(base: &Place, at: &'a Placement, out: &mut Vec<HexRef<'a>>) {
    match at {
        Placement::Hexes(list) => {
            for (k, h) in list.iter().enumerate() {
                out.push(hex_ref(base.later().variant("Hexes").index(k), h));
            }
        }
        Placement::Range(a, b) => {
            out.push(hex_ref(base.later().variant("Range").index(0), a));
            out.push(hex_ref(base.later().variant("Range").index(1), b));
        }
        Placement::Spaced { from, to, .. } => {
            out.push(hex_ref(base.later().variant("Spaced").field("from"), from));
            out.push(hex_ref(base.later().variant("Spaced").field("to"), to));
        }
        Placement::OnUnit { .. } | Placement::Box(_) => {}
    }
}

/// One unit of a setup group.
#[derive(Debug, Clone)]
pub struct UnitSlot<'a> {
    pub counter_id: &'a str,
    /// Place of the `counter` value naming it.
    pub place: Place,
    pub counter: Option<&'a Counter>,
    pub kind: Option<&'a UnitKind>,
    /// The status level the unit starts at (`status` of its unit line), `None` for the
    /// ladder's first level.
    pub status: Option<&'a str>,
    /// Index of its unit line in the group (`units[line]`).
    pub line: usize,
}

impl UnitSlot<'_> {
    pub fn role(&self) -> Option<UnitRole> {
        self.kind.map(|k| k.role)
    }

    /// The strength the unit sets up with: its counter's reduced strength when it starts
    /// at a level below the first of `ladder` and the counter has a reduced side, else
    /// its full strength. `None` without a counter.
    pub fn starting_strength(&self, ladder: Option<&StatusLadder>) -> Option<u8> {
        let c = self.counter?;
        let reduced = c.reduced.filter(|_| self.starts_below_first(ladder));
        Some(reduced.unwrap_or(c.strength))
    }

    /// Whether the unit's `status` names a level of `ladder` below the first.
    pub fn starts_below_first(&self, ladder: Option<&StatusLadder>) -> bool {
        self.status
            .and_then(|s| ladder?.index_of(s))
            .is_some_and(|i| i > 0)
    }
}

/// A setup group (or a neutral placement) resolved to units and hexes.
#[derive(Debug, Clone)]
pub struct GroupCx<'a> {
    /// Index of the side, `None` for neutrals.
    pub side: Option<usize>,
    /// Place of the group ([`Place::setup_group`], [`Place::neutral`]).
    pub place: Place,
    /// The army the group's counters come from.
    pub army: Option<&'a Army>,
    pub units: Vec<UnitSlot<'a>>,
    pub at: &'a Placement,
    /// How many of the units the owner picks (`choose`); `None` when all set up.
    pub choose: Option<u8>,
    /// For `Hexes` and `Range`: the hexes with the place of the value naming each.
    /// Malformed ids and reversed ranges are left out (geometry checks report them).
    pub hexes: Vec<(HexId, Place)>,
}

/// The hexes of a zone, shared by the checks that ask ([`ScenarioCx::zone_hexes`]), or
/// the label it names that is not on the map.
pub type ZoneHexes = Result<std::sync::Arc<[HexId]>, String>;

/// A scenario with its system, counter sheet and compiled map resolved.
pub struct ScenarioCx<'a> {
    pub file: FileCx<'a>,
    pub scenario: &'a Scenario,
    pub system: Option<&'a RulesSystem>,
    pub counters: Option<&'a CounterSheet>,
    /// The loaded file of `counters`, for its ids ([`Loaded::ids`]).
    counters_file: Option<&'a Loaded>,
    pub map: Option<&'a TerrainMap>,
    /// The compiled open table, for table maps.
    pub table: Option<&'a muster_model::table::TableTerrain>,
    /// The set-up groups, read through [`ScenarioCx::groups`], which counts the reads.
    groups: Vec<GroupCx<'a>>,
    /// Reads of every group ([`ScenarioCx::group_scans`]).
    group_work: std::sync::atomic::AtomicUsize,
    /// The sides whose forces are zoned, laid out once ([`ScenarioCx::zoned_sides`]).
    zoned: Vec<ZonedSide<'a>>,
    /// Indices into `groups` of each side's groups, by the side's index
    /// ([`ScenarioCx::side_groups`]).
    by_side: Vec<Vec<usize>>,
    /// The first side of each side id ([`ScenarioCx::side_of`]).
    side_ids: muster_db::FastMap<&'a str, usize>,
    /// Indices into the scenario's reinforcements of those naming each side id
    /// ([`ScenarioCx::side_reinforcements`]).
    arrivals: muster_db::FastMap<&'a str, Vec<usize>>,
    /// Zones already resolved to hexes, by the zone's address in the scenario.
    zones: std::sync::Mutex<muster_db::FastMap<usize, ZoneHexes>>,
    /// The same, by the zone's value ([`ScenarioCx::zone_hexes`]).
    zone_values: std::sync::Mutex<muster_db::FastMap<muster_model::scenario::Zone, ZoneHexes>>,
    /// Zones and parts of zones resolved ([`ScenarioCx::zone_resolutions`]).
    zone_work: std::sync::atomic::AtomicUsize,
    /// Where-a-kind-may-stand lookups made ([`ScenarioCx::entry_lookups`]).
    pub(crate) entry_work: std::sync::atomic::AtomicUsize,
    /// Stacking limits raised by rules, by side id and kind ([`ScenarioCx::stacking_limit`]).
    raised_limits: std::sync::OnceLock<muster_db::FastMap<(String, String), u8>>,
    /// Boards laid out ([`ScenarioCx::boards_laid`]).
    pub(crate) board_work: std::sync::atomic::AtomicUsize,
    /// Per unit kind asked about, which of the map's terrain entries it may stand in
    /// (`entry::EntryTable`).
    pub(crate) entries:
        std::sync::Mutex<muster_db::FastMap<String, std::sync::Arc<[Option<bool>]>>>,
    /// The units of the sample deployments, listed once ([`ScenarioCx::sample_units`]).
    samples: Vec<SampleUnit<'a>>,
}

impl<'a> ScenarioCx<'a> {
    pub fn new(file: FileCx<'a>) -> Option<Self> {
        let scenario = file.scenario()?;
        let db = file.db;
        let found = |reference: &str, kind| match db.resolve(file.index, reference, kind) {
            Resolution::Found(i) => Some(i),
            _ => None,
        };
        let counters_file = scenario
            .counters
            .as_deref()
            .and_then(|c| found(c, FileKind::Counters))
            .and_then(|i| db.files.get(i))
            .map(|f| &**f);
        let counters = match counters_file.and_then(|f| f.doc.as_ref()) {
            Some(Document::Counters(c)) => Some(c),
            _ => None,
        };
        let counters_file = counters.and(counters_file);
        let map = db.scenario_map(file.index);
        let table = found(&scenario.map, FileKind::Map).and_then(|i| db.table(i));
        let system = file.system;
        let mut cx = Self {
            file,
            scenario,
            system,
            counters,
            counters_file,
            map,
            table,
            groups: Vec::new(),
            group_work: Default::default(),
            zoned: Vec::new(),
            by_side: vec![Vec::new(); scenario.sides.len()],
            side_ids: Default::default(),
            arrivals: Default::default(),
            zones: Default::default(),
            zone_work: Default::default(),
            zone_values: Default::default(),
            entry_work: Default::default(),
            board_work: Default::default(),
            raised_limits: Default::default(),
            entries: Default::default(),
            samples: Vec::new(),
        };
        cx.groups = cx.build_groups();
        for (k, g) in cx.groups.iter().enumerate() {
            if let Some(list) = g.side.and_then(|i| cx.by_side.get_mut(i)) {
                list.push(k);
            }
        }
        for (i, side) in scenario.sides.iter().enumerate() {
            cx.side_ids.entry(side.id.as_str()).or_insert(i);
        }
        for (k, r) in scenario.reinforcements.iter().enumerate() {
            cx.arrivals.entry(r.side.as_str()).or_default().push(k);
        }
        cx.zoned = cx.lay_out_zoned_sides();
        cx.samples = cx.list_sample_units();
        Some(cx)
    }

    pub fn army(&self, id: &str) -> Option<&'a Army> {
        self.counters?.armies.iter().find(|a| a.id == id)
    }

    pub fn side_army(&self, side: usize) -> Option<&'a Army> {
        self.army(self.scenario.sides.get(side)?.army.as_deref()?)
    }

    pub fn unit_kind(&self, id: &str) -> Option<&'a UnitKind> {
        let at = self.file.system_file?.ids().unit_kind(id)?;
        self.system?.unit_kinds.get(at)
    }

    /// The counter `id` of `army` (an army of this scenario's sheet).
    pub fn counter(&self, army: &'a Army, id: &str) -> Option<&'a Counter> {
        let (Some(sheet), Some(file)) = (self.counters, self.counters_file) else {
            return army.counters.iter().find(|c| c.id == id);
        };
        match sheet.armies.iter().position(|a| std::ptr::eq(a, army)) {
            Some(i) => army.counters.get(file.ids().counter(i, id)?),
            None => army.counters.iter().find(|c| c.id == id),
        }
    }

    /// The system's status ladder, if it has one.
    pub fn status_ladder(&self) -> Option<&'a StatusLadder> {
        self.system?.rules.status.as_ref()
    }

    fn slot(&self, army: Option<&'a Army>, counter_id: &'a str, place: Place) -> UnitSlot<'a> {
        let counter = army.and_then(|a| self.counter(a, counter_id));
        UnitSlot {
            counter_id,
            place,
            counter,
            kind: counter.and_then(|c| self.unit_kind(&c.kind)),
            status: None,
            line: 0,
        }
    }

    fn build_groups(&self) -> Vec<GroupCx<'a>> {
        let mut out = Vec::new();
        let mut push = |side: Option<usize>,
                        place: Place,
                        army: Option<&'a Army>,
                        units: &'a [muster_model::scenario::UnitGroup],
                        at: &'a Placement,
                        choose: Option<u8>| {
            let mut slots = Vec::new();
            for (u, group) in units.iter().enumerate() {
                let counter = place.field("units").index(u).field("counter");
                for _ in 0..group.count {
                    let mut slot = self.slot(army, &group.counter, counter.clone());
                    slot.status = group.status.as_deref();
                    slot.line = u;
                    slots.push(slot);
                }
            }
            let hexes = match at {
                Placement::Hexes(list) => {
                    // The list's place once: each hex adds one step to it.
                    let listed = place.field("at").variant("Hexes");
                    list.iter()
                        .enumerate()
                        .filter_map(|(k, h)| Some((HexId::parse(h).ok()?, listed.index(k))))
                        .collect()
                }
                Placement::Range(a, b) => match (HexId::parse(a), HexId::parse(b)) {
                    (Ok(a), Ok(b)) => {
                        let range = place.field("at").variant("Range");
                        HexGrid::straight_range(a, b)
                            .unwrap_or_default()
                            .into_iter()
                            .map(|h| (h, range.clone()))
                            .collect()
                    }
                    _ => Vec::new(),
                },
                Placement::OnUnit { .. } | Placement::Spaced { .. } | Placement::Box(_) => {
                    Vec::new()
                }
            };
            out.push(GroupCx {
                side,
                place,
                army,
                units: slots,
                at,
                choose,
                hexes,
            });
        };
        for (i, side) in self.scenario.sides.iter().enumerate() {
            // Only counters placed group by group are expanded unit by unit; zoned forces
            // are counts by type and table forces are units of bases.
            let setup = match &side.forces {
                Forces::Placed { setup, .. } => setup,
                Forces::Zoned(_) | Forces::Table(_) => continue,
            };
            for (j, group) in setup.iter().enumerate() {
                push(
                    Some(i),
                    Place::setup_group(i, j),
                    self.group_army(i, group.army.as_deref()),
                    &group.units,
                    &group.at,
                    group.choose,
                );
            }
        }
        for (i, n) in self.scenario.neutrals.iter().enumerate() {
            push(
                None,
                Place::neutral(i),
                self.army(&n.army),
                &n.units,
                &n.at,
                None,
            );
        }
        out
    }

    /// The special rules whose hook is known and whose parameters parse (parsed once,
    /// with the file).
    pub fn hooks(&self) -> &[ParsedHook] {
        &self.file.hooks
    }

    /// What the scenario's hooks change in validation.
    pub fn effects(&self) -> impl Iterator<Item = Effect<'_>> {
        self.hooks().iter().flat_map(|h| h.effects())
    }

    /// Counter ids that a hook (`impassable-area`) lets into impassable terrain.
    pub fn terrain_exceptions(&self) -> Vec<&str> {
        let mut out = Vec::new();
        for effect in self.effects() {
            if let Effect::EnterImpassable(counters) = effect {
                out.extend(counters.iter().map(String::as_str));
            }
        }
        out
    }

    /// Columns a hook (`impassable-area`) closes.
    pub fn impassable_columns(&self) -> Vec<u16> {
        let mut out = Vec::new();
        for effect in self.effects() {
            if let Effect::CloseColumns { columns, .. } = effect {
                out.extend(columns.iter().copied());
            }
        }
        out
    }

    /// Hexes (bridges) that stay open in the columns a hook closes.
    pub fn open_in_closed_columns(&self) -> Vec<HexId> {
        let mut out = Vec::new();
        for effect in self.effects() {
            if let Effect::CloseColumns {
                open: Some(hex), ..
            } = effect
                && let Ok(hex) = HexId::parse(hex)
            {
                out.push(hex);
            }
        }
        out
    }

    /// Baggage counters that carry units (`baggage-carrier`).
    pub fn carriers(&self) -> Vec<CarrierEffect<'_>> {
        let mut out = Vec::new();
        for effect in self.effects() {
            if let Effect::Carrier(c) = effect {
                out.push(c);
            }
        }
        out
    }

    /// The map source file of the scenario, if it resolves.
    pub fn map_source(&self) -> Option<&'a MapSource> {
        let db = self.file.db;
        match db.resolve(self.file.index, &self.scenario.map, FileKind::Map) {
            Resolution::Found(i) => match db.doc(i) {
                Some(Document::Map(m)) => Some(m),
                _ => None,
            },
            _ => None,
        }
    }

    /// The source file of the scenario's map, if it resolves.
    pub fn map_file(&self) -> Option<&'a std::sync::Arc<muster_db::source::SourceFile>> {
        let db = self.file.db;
        match db.resolve(self.file.index, &self.scenario.map, FileKind::Map) {
            Resolution::Found(i) => Some(&db.files[i].file),
            _ => None,
        }
    }

    /// The source file of the scenario's rules system, if it resolves.
    pub fn system_file(&self) -> Option<&'a std::sync::Arc<muster_db::source::SourceFile>> {
        let db = self.file.db;
        match db.resolve(self.file.index, &self.scenario.system, FileKind::System) {
            Resolution::Found(i) => Some(&db.files[i].file),
            _ => None,
        }
    }

    /// The source file of the scenario's counter sheet, if it has one and it resolves.
    pub fn counters_file(&self) -> Option<&'a std::sync::Arc<muster_db::source::SourceFile>> {
        let db = self.file.db;
        let reference = self.scenario.counters.as_deref()?;
        match db.resolve(self.file.index, reference, FileKind::Counters) {
            Resolution::Found(i) => Some(&db.files[i].file),
            _ => None,
        }
    }

    /// Every victory goal with its place ([`Place::goal`]).
    pub fn goals(&self) -> Vec<(Place, &'a muster_model::scenario::Goal)> {
        let mut out = Vec::new();
        for (i, v) in self.scenario.victory.iter().enumerate() {
            let VictoryCondition::Goals { any_of, .. } = v else {
                continue;
            };
            for (a, all) in any_of.iter().enumerate() {
                for (g, goal) in all.iter().enumerate() {
                    out.push((Place::goal(i, a, g), goal));
                }
            }
        }
        out
    }

    /// Name of the side at `index` for messages.
    pub fn side_name(&self, index: Option<usize>) -> String {
        match index.and_then(|i| self.scenario.sides.get(i)) {
            Some(s) => format!("`{}`", s.id),
            None => "neutral".to_string(),
        }
    }
}

impl<'a> ScenarioCx<'a> {
    /// The class printed for a unit kind (PRESTAGS), if any.
    pub fn class_of(&self, kind: &str) -> Option<&'a str> {
        match &self.unit_kind(kind)?.stats {
            Some(muster_model::system::KindStats::Counter { class, .. })
            | Some(muster_model::system::KindStats::Leader { class, .. }) => Some(class),
            _ => None,
        }
    }

    /// Victory points of one unit of a kind, by the system's rule; `None` when the
    /// system has no rule or the kind has no printed values.
    pub fn unit_vp(&self, kind: &str) -> Option<u32> {
        use muster_model::system::{KindStats, VictoryPointRule};
        let rule = self.system?.victory_points?;
        let stats = self.unit_kind(kind)?.stats.as_ref()?;
        match (rule, stats) {
            (
                VictoryPointRule::HalfMeleeRoundedUpPlusFire,
                KindStats::Counter { melee, fire, .. },
            ) => Some(u32::from(melee.points()).div_ceil(2) + u32::from(fire.unwrap_or(0))),
            (VictoryPointRule::HalfMeleeRoundedUpPlusFire, KindStats::Leader { melee, .. }) => {
                Some(u32::from(melee.points()).div_ceil(2))
            }
            (VictoryPointRule::PerFigure, KindStats::Figure { victory_points, .. }) => {
                victory_points.map(u32::from)
            }
            _ => None,
        }
    }

    /// Total victory points of a list of type counts; `None` if a kind has no value.
    pub fn vp_of(&self, units: &[muster_model::scenario::TypeCount]) -> Option<u32> {
        units
            .iter()
            .map(|u| self.unit_vp(&u.kind).map(|v| v * u32::from(u.count)))
            .sum()
    }

    /// Whether a kind counts against the stacking limit (leaders do not).
    pub fn counts_for_stacking(&self, kind: &str) -> bool {
        match self.system.map(|s| &s.stacking) {
            Some(muster_model::system::StackingPolicy::PerSideLimit { not_counted, .. }) => {
                !self
                    .class_of(kind)
                    .is_some_and(|c| not_counted.iter().any(|n| n == c))
                    && !not_counted.iter().any(|n| n == kind)
            }
            _ => true,
        }
    }

    /// The hexes of a zone; `Err` names a label that is not on the map. Computed once
    /// per zone of the scenario: several checks and the summary ask.
    pub fn zone_hexes(&self, zone: &muster_model::scenario::Zone) -> ZoneHexes {
        let key = std::ptr::from_ref(zone) as usize;
        if let Some(found) = self
            .zones
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
        {
            return found.clone();
        }
        // A zone written again elsewhere (many groups deploying `Near(A, 2)`) is
        // resolved once: by value, the first time its address is asked.
        let known = self
            .zone_values
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(zone)
            .cloned();
        let found = match known {
            Some(found) => found,
            None => {
                let found = self.compute_zone_hexes(zone).map(std::sync::Arc::from);
                self.zone_values
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(zone.clone(), found.clone());
                found
            }
        };
        self.zones
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key, found.clone());
        found
    }

    /// How many zones (and parts of zones) have been resolved to hexes so far: a zone
    /// written many times over inside one `AnyOf` is resolved once.
    pub fn zone_resolutions(&self) -> usize {
        self.zone_work.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many times a unit kind's [`ScenarioCx::entry`] has been asked for: a check
    /// asks once per kind, not once per line that lists the kind.
    pub fn entry_lookups(&self) -> usize {
        self.entry_work.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many boards ([`ScenarioCx::board`]) have been laid out so far: a check that
    /// asks about many reinforcements lays out one board per turn, not one each.
    pub fn boards_laid(&self) -> usize {
        self.board_work.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn compute_zone_hexes(
        &self,
        zone: &muster_model::scenario::Zone,
    ) -> Result<Vec<HexId>, String> {
        let Some(map) = self.map else {
            return Ok(Vec::new());
        };
        let grid = map.grid();
        // One flag per hex of the map, in column-major order (the order of `HexId`):
        // the zone's parts are united into it as they are resolved.
        let mut set = vec![false; grid.len()];
        self.add_zone_hexes(map, zone, &mut set)?;
        Ok(grid
            .hexes()
            .zip(set)
            .filter_map(|(h, inside)| inside.then_some(h))
            .collect())
    }

    /// Adds the hexes of `zone` to `set` (one flag per hex of the map). The parts of an
    /// `AnyOf` are resolved by value: parts written more than once are resolved once.
    fn add_zone_hexes(
        &self,
        map: &TerrainMap,
        zone: &muster_model::scenario::Zone,
        set: &mut [bool],
    ) -> Result<(), String> {
        use muster_model::scenario::{Region, Zone};
        self.zone_work
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let grid = map.grid();
        let index = |h: HexId| {
            grid.contains(h)
                .then(|| usize::from(h.col - 1) * usize::from(grid.rows) + usize::from(h.row - 1))
        };
        let n = set.len();
        let mut mark = |h: HexId| {
            if let Some(slot) = index(h).and_then(|i| set.get_mut(i)) {
                *slot = true;
            }
        };
        match zone {
            Zone::Near { label, radius } => {
                let center = map.label(label).ok_or_else(|| label.clone())?;
                grid.within(center, u32::from(*radius))
                    .into_iter()
                    .for_each(mark);
            }
            Zone::AnyOf(zones) => {
                let mut seen: muster_db::FastSet<&Zone> = muster_db::FastSet::default();
                for z in zones {
                    if seen.insert(z) {
                        self.add_zone_hexes(map, z, set)?;
                    }
                }
            }
            Zone::Excluding { zone, region } => {
                let mut inner = vec![false; n];
                self.add_zone_hexes(map, zone, &mut inner)?;
                let Region::Bank { edge, barrier } = region;
                let bank = map.bank(*edge, barrier);
                for (h, inside) in grid.hexes().zip(inner) {
                    if inside && !bank.contains(h) {
                        mark(h);
                    }
                }
            }
            Zone::AllSea => grid
                .hexes()
                .filter(|h| map.terrain_id_at(*h) == Some("sea"))
                .for_each(mark),
            Zone::Hexes(area) => muster_map::resolve_area(grid, area)
                .unwrap_or_default()
                .into_iter()
                .for_each(mark),
        }
        Ok(())
    }

    /// Every label a zone at `place` names, with the place of each.
    pub fn zone_labels(
        zone: &'a muster_model::scenario::Zone,
        place: &Place,
        out: &mut Vec<(Place, &'a str)>,
    ) {
        use muster_model::scenario::Zone;
        match zone {
            Zone::Near { label, .. } => out.push((place.variant("Near").field("label"), label)),
            Zone::AnyOf(zones) => {
                for (k, z) in zones.iter().enumerate() {
                    Self::zone_labels(z, &place.variant("AnyOf").index(k), out);
                }
            }
            Zone::Excluding { zone, .. } => {
                Self::zone_labels(zone, &place.variant("Excluding").field("zone"), out)
            }
            Zone::AllSea | Zone::Hexes(_) => {}
        }
    }

    /// The stacking limit of a side for a kind (a `stacking-override` rule may raise it).
    /// The raised limits are gathered by side and kind once, so a check that asks for
    /// every unit of a sample costs the units plus the rules' lists, not their product.
    pub fn stacking_limit(&self, side: usize, kind: &str, default: u8) -> u8 {
        let raised = self.raised_limits.get_or_init(|| {
            let mut raised: muster_db::FastMap<(String, String), u8> = Default::default();
            for effect in self.effects() {
                if let Effect::StackingLimit { side, kinds, limit } = effect {
                    for k in kinds {
                        let at = raised.entry((side.to_string(), k.clone())).or_insert(limit);
                        *at = (*at).max(limit);
                    }
                }
            }
            raised
        });
        let Some(side_id) = self.scenario.sides.get(side).map(|s| s.id.clone()) else {
            return default;
        };
        raised
            .get(&(side_id, kind.to_string()))
            .copied()
            .unwrap_or(default)
    }
}

/// The report for a label a check names that is not on the map, with the nearest label
/// or the list of labels as help; `None` when the label is there.
pub fn missing_label(
    meta: &'static muster_db::registry::CheckMeta,
    map: &TerrainMap,
    place: Place,
    label: &str,
) -> Option<muster_db::report::Report> {
    if map.label(label).is_some() {
        return None;
    }
    let known: Vec<&str> = map.table().labels.iter().map(|l| l.text.as_str()).collect();
    let help = muster_db::suggest::did_you_mean(label, known.iter().copied())
        .unwrap_or_else(|| format!("labels: {}", known.join(", ")));
    Some(
        muster_db::report::Report::new(
            meta,
            place,
            format!("no hex is labelled `{label}` on map `{}`", map.table().map),
        )
        .help(help),
    )
}

/// A unit of a sample deployment standing in a hex on the map.
pub struct SampleUnit<'a> {
    pub hex: HexId,
    pub kind: &'a str,
    /// Whether the kind is a carrier (fleet).
    pub carrier: bool,
    /// Side, sample stack and position in its `units`, for [`SampleUnit::place`].
    at: (usize, usize, usize),
}

impl SampleUnit<'_> {
    /// Place of the unit's `kind` value (built when a check reports on it).
    pub fn place(&self) -> Place {
        let (side, stack, unit) = self.at;
        Place::zoned_forces(side)
            .field("sample")
            .index(stack)
            .field("units")
            .index(unit)
            .field("kind")
    }
}

impl<'a> ScenarioCx<'a> {
    /// Every unit of every sample deployment whose hex is on the map (units aboard fleets
    /// are not standing in the hex and are left out). Listed once, for every check that
    /// asks.
    pub fn sample_units(&self) -> &[SampleUnit<'a>] {
        &self.samples
    }

    fn list_sample_units(&self) -> Vec<SampleUnit<'a>> {
        let Some(map) = self.map else {
            return Vec::new();
        };
        let carriers: Vec<&str> = self
            .system
            .map(|s| s.carriers.iter().map(|c| c.kind.as_str()).collect())
            .unwrap_or_default();
        let mut out = Vec::new();
        for side in self.zoned_sides() {
            for (k, stack) in side.forces.sample.iter().enumerate() {
                let Ok(hex) = HexId::parse(&stack.hex) else {
                    continue;
                };
                if !map.contains(hex) {
                    continue;
                }
                for (u, unit) in stack.units.iter().enumerate() {
                    out.push(SampleUnit {
                        hex,
                        kind: &unit.kind,
                        carrier: carriers.contains(&unit.kind.as_str()),
                        at: (side.index, k, u),
                    });
                }
            }
        }
        out
    }
}
