//! Every name a system's rules refer to, with its place in the system file and what it
//! names, in one walk ([`name_refs`]), and what each kind of name may be
//! ([`defined`], [`resolves`]). `rules::unknown-name` is one loop over these, the way
//! hooks report their references through `Refs`.
//!
//! The walk yields the names kind by kind, troop types first, in the order the rules
//! block lists them.

use muster_db::place::Place;
use muster_model::rules::{BandResult, MoraleEvent, ResultTable, Rules};
use muster_model::system::RulesSystem;

use super::{classes, made_of_codes, terrain_ids, troop_known};

/// What a name in the rules names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameKind {
    /// A unit kind id, a class or `"*"`.
    Troop,
    /// A level of the status ladder.
    Level,
    /// One of the rules' result tables.
    Table,
    /// A hex terrain type or a table feature kind.
    Terrain,
    /// A result made of the combat results table's codes (`D1R`).
    Code,
    /// An elevation of the line of sight.
    Elevation,
    /// A phase of the sequence of play.
    Phase,
    /// A hexside feature type.
    Feature,
    /// A hex terrain type or a hexside feature type (a movement mode's costs).
    Ground,
    /// A weather kind of the rules.
    Weather,
    /// A faction of the rules.
    Faction,
    /// A movement mode of the rules.
    Mode,
    /// One of muster's built-in special-rule hooks.
    Hook,
    /// An optional rule of the system.
    Optional,
    /// A unit kind id (no class, no `"*"`).
    Kind,
    /// A class of hexside of the system's `facing`.
    SideClass,
    /// A kept state of the system's `states`.
    State,
    /// A task of an optional rule's plotted `orders`.
    Task,
    /// An id of the system's `effects`.
    Rule,
    /// A counter of a counter sheet, by id: a scenario's sheet resolves it; a system has
    /// no counters of its own.
    Counter,
}

/// A name the rules refer to, at its place in the system file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameRef<'a> {
    pub at: Place,
    pub kind: NameKind,
    pub name: &'a str,
}

/// The references of one kind, as the walk collects them.
struct Names<'a> {
    kind: NameKind,
    items: Vec<NameRef<'a>>,
}

impl<'a> Names<'a> {
    fn one(&mut self, at: Place, name: &'a str) {
        self.items.push(NameRef {
            at,
            kind: self.kind,
            name,
        });
    }
    fn each(&mut self, list: Place, names: &'a [String]) {
        for (k, name) in names.iter().enumerate() {
            self.one(list.index(k), name);
        }
    }
    fn kind(&mut self, kind: NameKind) -> &mut Self {
        self.kind = kind;
        self
    }
}

/// The place of entry `i` of a list of the rules block (`rules/permissions/3`).
fn entry(list: &'static str, i: usize) -> Place {
    Place::rules().field(list).index(i)
}

/// Every name the system's rules refer to: troop types, status levels, result tables,
/// terrain, result codes, elevations and phases, in that order, then the names of the
/// vocabulary's rules and mechanics ([`super::vocab::system_names`]).
pub fn name_refs(system: &RulesSystem) -> Vec<NameRef<'_>> {
    let rules = &system.rules;
    let mut names = Names {
        kind: NameKind::Troop,
        items: Vec::new(),
    };
    troops(rules, names.kind(NameKind::Troop));
    levels(system, names.kind(NameKind::Level));
    tables(rules, names.kind(NameKind::Table));
    terrain(rules, names.kind(NameKind::Terrain));
    codes(rules, names.kind(NameKind::Code));
    elevations(rules, names.kind(NameKind::Elevation));
    if let Some(r) = rules.panic.as_ref().and_then(|p| p.rally.as_ref()) {
        let at = Place::rules().field("panic").field("rally");
        names
            .kind(NameKind::Phase)
            .one(at.field("after_phase"), &r.after_phase);
    }
    // Who the terrain chart keeps out of (or lets into) a terrain.
    for (i, t) in system.terrain.iter().enumerate() {
        let at = Place::top("terrain").index(i);
        let n = names.kind(NameKind::Troop);
        n.each(at.field("prohibited"), &t.prohibited);
        n.each(at.field("allowed"), &t.allowed);
    }
    let mut items = names.items;
    items.extend(super::vocab::system_names(system));
    items
}

/// Troop names: permissions, morale, defensive fire and leaders'
/// control, then the entries that name troops beside other things.
fn troops<'a>(rules: &'a Rules, n: &mut Names<'a>) {
    for (i, p) in rules.permissions.iter().enumerate() {
        n.each(entry("permissions", i).field("troops"), &p.troops);
        n.each(entry("permissions", i).field("except"), &p.except);
    }
    let morale = Place::rules().field("morale");
    if let Some(m) = &rules.morale {
        for (i, t) in m.triggers.iter().enumerate() {
            let at = morale.field("triggers").index(i);
            n.each(at.field("troops"), &t.troops);
            n.each(at.field("exempt"), &t.exempt);
        }
        n.each(morale.field("never_test"), &m.never_test);
    }
    if let Some(d) = &rules.defensive_fire {
        n.each(
            Place::rules().field("defensive_fire").field("troops"),
            &d.troops,
        );
    }
    if let Some(m) = &rules.morale {
        for (i, md) in m.modifiers.iter().enumerate() {
            let at = morale.field("modifiers").index(i);
            n.each(at.field("from"), &md.from);
            n.each(at.field("to"), &md.to);
        }
    }
    more_troops(rules, n);
}

/// Troop names
/// and panic.
fn more_troops<'a>(rules: &'a Rules, n: &mut Names<'a>) {
    if let Some(p) = &rules.panic {
        let at = Place::rules().field("panic");
        for (i, near) in p.spared_near.iter().enumerate() {
            n.each(
                at.field("spared_near").index(i).field("leaders"),
                &near.leaders,
            );
        }
        if let Some(r) = &p.rally {
            for (i, by) in r.by.iter().enumerate() {
                n.each(
                    at.field("rally").field("by").index(i).field("leaders"),
                    &by.leaders,
                );
            }
        }
    }
}

/// The results of a table's bands that are `variant`, with their places.
fn band_results<'a>(
    t: usize,
    table: &'a ResultTable,
    variant: &'static str,
    pick: impl Fn(&'a BandResult) -> Option<&'a String>,
    n: &mut Names<'a>,
) {
    for (b, band) in table.bands.iter().enumerate() {
        if let Some(name) = pick(&band.result) {
            let at = entry("result_tables", t).field("bands").index(b);
            n.one(at.field("result").variant(variant), name);
        }
    }
}

/// Status levels: the ladder's own, permissions, minimum moves, status effects, results
/// sending units to a level, and the break point's status points.
fn levels<'a>(system: &'a RulesSystem, n: &mut Names<'a>) {
    let rules = &system.rules;
    if let Some(ladder) = &rules.status {
        let at = Place::rules().field("status");
        if let Some(f) = &ladder.floor {
            n.one(at.field("floor"), f);
        }
        for (i, r) in ladder.recovery.iter().enumerate() {
            n.each(at.field("recovery").index(i).field("from"), &r.from);
        }
    }
    for (i, p) in rules.permissions.iter().enumerate() {
        if let Some(s) = &p.status {
            n.one(entry("permissions", i).field("status"), s);
        }
    }
    if let Some(m) = rules
        .movement
        .as_ref()
        .and_then(|m| m.minimum_move.as_ref())
    {
        let at = Place::rules().field("movement").field("minimum_move");
        n.each(at.field("status"), &m.status);
    }
    for (t, table) in rules.result_tables.iter().enumerate() {
        let to_level = |r: &'a BandResult| match r {
            BandResult::ToLevel(level) => Some(level),
            _ => None,
        };
        band_results(t, table, "ToLevel", to_level, n);
    }
    if let Some(bp) = &system.break_point {
        for (i, s) in bp.status_points.iter().enumerate() {
            let at = Place::top("break_point").field("status_points").index(i);
            n.one(at.field("level"), &s.level);
        }
    }
}

/// Result tables: those a leader loss follows.
fn tables<'a>(rules: &'a Rules, n: &mut Names<'a>) {
    if let Some(l) = &rules.leader_loss {
        n.each(Place::rules().field("leader_loss").field("after"), &l.after);
    }
}

/// Terrain: the line of sight.
fn terrain<'a>(rules: &'a Rules, n: &mut Names<'a>) {
    if let Some(los) = &rules.line_of_sight {
        let at = Place::rules().field("line_of_sight");
        n.each(at.field("concealing"), &los.concealing);
        for (i, b) in los.blocking.iter().enumerate() {
            n.each(at.field("blocking").index(i).field("terrain"), &b.terrain);
        }
        for (i, e) in los.elevations.iter().enumerate() {
            n.each(at.field("elevations").index(i).field("terrain"), &e.terrain);
        }
    }
}

/// Result codes: band results and morale triggers.
fn codes<'a>(rules: &'a Rules, n: &mut Names<'a>) {
    for (t, table) in rules.result_tables.iter().enumerate() {
        let code = |r: &'a BandResult| match r {
            BandResult::Code(code) => Some(code),
            _ => None,
        };
        band_results(t, table, "Code", code, n);
    }
    if let Some(m) = &rules.morale {
        for (i, t) in m.triggers.iter().enumerate() {
            if let MoraleEvent::CombatResult(code) = &t.event {
                let at = Place::rules().field("morale").field("triggers").index(i);
                n.one(at.field("event").variant("CombatResult"), code);
            }
        }
    }
}

/// Elevations of the line of sight: where firers stand and what blocks them.
fn elevations<'a>(rules: &'a Rules, n: &mut Names<'a>) {
    let Some(los) = &rules.line_of_sight else {
        return;
    };
    let at = Place::rules().field("line_of_sight");
    for (i, b) in los.blocking.iter().enumerate() {
        let base = at.field("blocking").index(i);
        n.each(base.field("firer_at"), &b.firer_at);
        n.each(base.field("unless_next_to"), &b.unless_next_to);
    }
    for (i, o) in los.occupied_blocks.iter().enumerate() {
        let base = at.field("occupied_blocks").index(i);
        n.one(base.field("firer_at"), &o.firer_at);
        n.each(base.field("blocked_by"), &o.blocked_by);
        if let Some(a) = &o.unless_through_adjacent {
            n.one(base.field("unless_through_adjacent"), a);
        }
    }
}

/// The names the system defines for a kind of name: unit kind ids, classes and tags, the
/// ladder's levels, the result tables, terrain, the combat results table's codes, the
/// elevations, the phases of the sequence of play.
pub fn defined(system: &RulesSystem, kind: NameKind) -> Vec<&str> {
    let rules = &system.rules;
    match kind {
        NameKind::Troop => {
            let mut out: Vec<&str> = system.unit_kinds.iter().map(|k| k.id.as_str()).collect();
            out.extend(classes(system));
            out.extend(super::tags(system));
            out
        }
        NameKind::Level => rules
            .status
            .iter()
            .flat_map(|l| l.levels.iter().map(|x| x.id.as_str()))
            .collect(),
        NameKind::Table => rules.result_tables.iter().map(|t| t.id.as_str()).collect(),
        NameKind::Terrain => terrain_ids(system),
        NameKind::Code => system
            .combat_results
            .iter()
            .flat_map(|c| c.results.iter().map(|r| r.code.as_str()))
            .collect(),
        NameKind::Elevation => rules
            .line_of_sight
            .iter()
            .flat_map(|los| los.elevations.iter().map(|e| e.id.as_str()))
            .collect(),
        NameKind::Phase => rules
            .sequence
            .iter()
            .chain(
                rules
                    .optional_rules
                    .iter()
                    .filter_map(|o| o.sequence.as_ref()),
            )
            .flat_map(|s| s.phases().into_iter().map(|(_, _, p)| p.id.as_str()))
            .collect(),
        NameKind::Feature => system
            .hexside_features
            .iter()
            .map(|f| f.id.as_str())
            .collect(),
        NameKind::Ground => {
            let mut out = terrain_ids(system);
            out.extend(defined(system, NameKind::Feature));
            out
        }
        NameKind::Weather => rules.weather.iter().map(|w| w.id.as_str()).collect(),
        NameKind::Faction => rules.factions.iter().map(|f| f.id.as_str()).collect(),
        NameKind::Mode => rules.movement_modes.iter().map(|m| m.id.as_str()).collect(),
        NameKind::Hook => crate::hooks::HOOKS.iter().map(|h| h.id).collect(),
        NameKind::Optional => rules.optional_rules.iter().map(|o| o.id.as_str()).collect(),
        NameKind::Kind => system.unit_kinds.iter().map(|k| k.id.as_str()).collect(),
        NameKind::SideClass => rules
            .facing
            .iter()
            .flat_map(|f| f.classes.iter().map(|c| c.id.as_str()))
            .collect(),
        NameKind::State => rules.states.iter().map(|s| s.id.as_str()).collect(),
        NameKind::Task => rules
            .optional_rules
            .iter()
            .filter_map(|o| o.orders.as_ref())
            .flat_map(|o| o.tasks.iter().map(|t| t.id.as_str()))
            .collect(),
        NameKind::Rule => rules.effects.iter().map(|r| r.id.as_str()).collect(),
        // Counters are a counter sheet's, which a scenario picks.
        NameKind::Counter => Vec::new(),
    }
}

/// Whether a name resolves to something the system defines.
pub fn resolves(system: &RulesSystem, name: &NameRef) -> bool {
    match name.kind {
        NameKind::Troop => troop_known(system, name.name),
        NameKind::Level => system
            .rules
            .status
            .as_ref()
            .is_some_and(|l| l.index_of(name.name).is_some()),
        NameKind::Code => {
            let codes = defined(system, NameKind::Code);
            !codes.is_empty() && made_of_codes(name.name, &codes)
        }
        kind => defined(system, kind).contains(&name.name),
    }
}
