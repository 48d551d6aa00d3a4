//! Hover texts: a counter, a hex, a terrain or feature, a hook, a side, a file (an
//! enum variant or a field name is explained from the schema: `cursor::doc_at`).

use muster_db::Db;
use muster_db::load::Document;
use muster_db::project::Resolution;
use muster_hex::HexId;
use muster_model::FileKind;
use muster_model::counters::{Army, Counter};
use muster_model::system::{CombatEffect, HexsideFeatureType, MoveCost, RulesSystem, TerrainType};
use muster_semantic::{FileCx, ScenarioCx};

use crate::cursor::Class;

/// Everything a hover may draw on: the project, the file's index in it, and the
/// scenario context when the file is a scenario that reads.
pub struct Cx<'a> {
    pub db: &'a Db,
    pub index: Option<usize>,
    /// Built on first need ([`Cx::scenario`]): it lays out every set-up group, which a
    /// large file pays for, and most requests never read it.
    scenario: std::cell::OnceCell<Option<ScenarioCx<'a>>>,
    /// Whether [`Cx::scenario`] may build the context at all.
    with_scenario: bool,
}

/// How many scenario contexts this thread built for hovers (see
/// [`Cx::scenario`]): requests that do not need one must not build it.
pub fn scenarios_built() -> usize {
    SCENARIOS_BUILT.with(|c| c.get())
}

thread_local! {
    static SCENARIOS_BUILT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl<'a> Cx<'a> {
    pub fn new(db: &'a Db, index: Option<usize>) -> Self {
        Self {
            db,
            index,
            scenario: std::cell::OnceCell::new(),
            with_scenario: true,
        }
    }

    /// Without the scenario context (for walking many files).
    pub fn plain(db: &'a Db, index: Option<usize>) -> Self {
        Self {
            db,
            index,
            scenario: std::cell::OnceCell::new(),
            with_scenario: false,
        }
    }

    /// The scenario context of the file, built the first time it is asked for.
    pub fn scenario(&self) -> Option<&ScenarioCx<'a>> {
        self.scenario
            .get_or_init(|| {
                if !self.with_scenario {
                    return None;
                }
                SCENARIOS_BUILT.with(|c| c.set(c.get() + 1));
                self.index
                    .and_then(|i| FileCx::new(self.db, i))
                    .and_then(ScenarioCx::new)
            })
            .as_ref()
    }

    pub fn doc(&self) -> Option<&'a Document> {
        self.db.doc(self.index?)
    }

    /// A file this one references, by id or path.
    pub fn resolve(&self, reference: &str, kind: FileKind) -> Option<usize> {
        match self.db.resolve(self.index?, reference, kind) {
            Resolution::Found(i) => Some(i),
            _ => None,
        }
    }

    /// The reference this file makes to a file of `kind` (`system`, `counters`, `map`).
    pub fn reference(&self, kind: FileKind) -> Option<usize> {
        let reference = match (self.doc()?, kind) {
            (Document::Scenario(s), FileKind::System) => s.system.clone(),
            (Document::Scenario(s), FileKind::Counters) => s.counters.clone()?,
            (Document::Scenario(s), FileKind::Map) => s.map.clone(),
            (Document::Map(m), FileKind::System) => m.system.clone(),
            (Document::Counters(c), FileKind::System) => c.system.clone(),
            (Document::System(_), FileKind::System)
            | (Document::Counters(_), FileKind::Counters) => {
                return self.index;
            }
            (Document::Map(_), FileKind::Map) => return self.index,
            _ => return None,
        };
        self.resolve(&reference, kind)
    }

    pub fn system(&self) -> Option<&'a RulesSystem> {
        match self.db.doc(self.reference(FileKind::System)?)? {
            Document::System(s) => Some(s),
            _ => None,
        }
    }

    /// The counter with this id: in the file's counter sheet, else in any sheet.
    pub fn counter(&self, id: &str) -> Option<(usize, usize, usize, &'a Army, &'a Counter)> {
        let own = self.reference(FileKind::Counters);
        let sheets = own.into_iter().chain(0..self.db.files.len());
        for i in sheets {
            if let Some(Document::Counters(sheet)) = self.db.doc(i) {
                for (a, army) in sheet.armies.iter().enumerate() {
                    if let Some(c) = army.counters.iter().position(|c| c.id == id) {
                        return Some((i, a, c, army, &army.counters[c]));
                    }
                }
            }
        }
        None
    }

    /// The compiled map of the file: the scenario's (with its terrain modifications),
    /// or the map file's own.
    pub fn terrain_map(&self) -> Option<&'a muster_map::TerrainMap> {
        match self.doc()? {
            Document::Scenario(_) => self.db.scenario_map(self.index?),
            Document::Map(_) => self.db.terrain_map(self.index?),
            _ => None,
        }
    }
}

fn cost(m: &MoveCost) -> String {
    match m {
        MoveCost::Points(p) => format!("{p} MP"),
        MoveCost::Extra(p) => format!("+{p} MP to cross"),
        MoveCost::Impassable => "impassable".to_string(),
    }
}

fn effects(effects: &[CombatEffect]) -> String {
    if effects.is_empty() {
        return "none".to_string();
    }
    effects
        .iter()
        .map(|e| match e {
            CombatEffect::DieModifier(n) => format!("die {n:+}"),
            CombatEffect::ColumnShift(n) => format!("column shift {n:+}"),
            CombatEffect::NoRetreat => "no retreat".to_string(),
            CombatEffect::NoCharge => "no charge".to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn terrain_text(t: &TerrainType) -> String {
    let mut out = format!(
        "**{}** (terrain `{}`)\n\nmovement: {}",
        t.name,
        t.id,
        cost(&t.movement)
    );
    if let Some(road) = t.along_road {
        out.push_str(&format!(" ({road} MP along a road)"));
    }
    out.push_str(&format!("; combat: {}", effects(&t.combat)));
    if let Some(f) = t.fire_protection {
        out.push_str(&format!("; fire protection {f}"));
    }
    if !t.prohibited.is_empty() {
        out.push_str(&format!("; prohibited to {}", t.prohibited.join(", ")));
    }
    if !t.allowed.is_empty() {
        out.push_str(&format!("; only {}", t.allowed.join(", ")));
    }
    if t.base_only {
        out.push_str("; never an added feature");
    }
    out
}

pub fn feature_text(f: &HexsideFeatureType) -> String {
    let mut out = format!(
        "**{}** (hexside feature `{}`)\n\nmovement: {}",
        f.name,
        f.id,
        f.movement.as_ref().map_or("no change".to_string(), cost)
    );
    if f.blocks_movement {
        out.push_str("; blocks movement");
    }
    if f.blocks_zoc {
        out.push_str("; blocks zones of control");
    }
    out
}

fn counter_text(cx: &Cx, id: &str) -> Option<String> {
    let (_, _, _, army, c) = cx.counter(id)?;
    let kind = cx
        .system()
        .and_then(|s| s.unit_kinds.iter().find(|k| k.id == c.kind))
        .map_or(c.kind.clone(), |k| format!("{} (`{}`)", k.name, k.id));
    let mut out = format!(
        "**{}** (counter `{}`)\n\narmy: {} (`{}`)  \nkind: {kind}  \nstrength: {}",
        c.name, c.id, army.name, army.id, c.strength
    );
    if let Some(r) = c.reduced {
        out.push_str(&format!(", reduced {r}"));
    }
    if let Some(m) = c.movement {
        out.push_str(&format!("  \nmovement: {m}"));
    }
    if let Some(r) = c.range {
        out.push_str(&format!("  \nrange: {r}"));
    }
    if let Some(s) = cx.scenario() {
        let placed = s
            .groups()
            .iter()
            .flat_map(|g| &g.units)
            .filter(|u| u.counter_id == id)
            .count();
        let arriving: usize = s
            .scenario
            .reinforcements
            .iter()
            .flat_map(|r| &r.units)
            .filter(|u| u.counter == id)
            .map(|u| usize::from(u.count))
            .sum();
        out.push_str(&format!(
            "  \ncopies: {} in this scenario ({placed} set up, {arriving} as reinforcements) / {} on the sheet",
            placed + arriving,
            c.count
        ));
    } else {
        out.push_str(&format!("  \ncopies on the sheet: {}", c.count));
    }
    Some(out)
}

fn hex_text(cx: &Cx, text: &str) -> Option<String> {
    let hex = HexId::parse(text).ok()?;
    let map = cx.terrain_map()?;
    if !map.contains(hex) {
        return Some(format!("hex `{text}`: off the map"));
    }
    let terrain_id = map.terrain_id_at(hex).unwrap_or("?");
    let terrain = cx
        .system()
        .and_then(|s| s.terrain.iter().find(|t| t.id == terrain_id))
        .map_or(format!("`{terrain_id}`"), |t| {
            format!("{} (`{}`, {})", t.name, t.id, cost(&t.movement))
        });
    let mut out = format!("**hex {text}**\n\nterrain: {terrain}");
    let features = map.feature_ids_at(hex);
    if !features.is_empty() {
        let named: Vec<String> = features
            .iter()
            .map(|id| {
                cx.system()
                    .and_then(|s| s.terrain.iter().find(|t| &t.id == id))
                    .map_or(format!("`{id}`"), |t| {
                        format!("{} (`{}`, {})", t.name, t.id, cost(&t.movement))
                    })
            })
            .collect();
        out.push_str(&format!("  \nalso: {}", named.join(", ")));
        if let (Some(e), Some(_)) = (map.effects_at(hex), map.table().terrain_combine) {
            let moves = e
                .move_cost
                .map_or("impassable".to_string(), |c| format!("{c} MP"));
            out.push_str(&format!(
                "  \nall together: {moves}, die modifier {:+}, column shift {:+}",
                e.die_modifier, e.column_shift
            ));
        }
    }
    let mut sides = Vec::new();
    for n in map.neighbours(hex) {
        if let Some(side) = map.hexside(hex, n) {
            let mut what = side.features.clone();
            if side.blocks_movement && what.is_empty() {
                what.push("blocks movement".to_string());
            }
            if !what.is_empty() {
                sides.push(format!("towards {n}: {}", what.join(", ")));
            }
        }
    }
    if !sides.is_empty() {
        out.push_str(&format!("  \nhexsides: {}", sides.join("; ")));
    }
    if let Some(label) = map.table().labels.iter().find(|l| l.hex == text) {
        out.push_str(&format!("  \nlabel: {}", label.text));
    }
    if let Some(s) = cx.scenario() {
        let board = s.board(1);
        let here: Vec<String> = board
            .pieces
            .iter()
            .filter(|p| p.hex == hex)
            .map(|p| {
                let side = p
                    .side
                    .and_then(|i| board.sides.get(i))
                    .map_or("neutral".to_string(), |s| s.name.clone());
                format!("{} (`{}`, {side})", p.name, p.counter)
            })
            .collect();
        out.push_str(&format!(
            "  \nat the set-up: {}",
            if here.is_empty() {
                "nothing".to_string()
            } else {
                here.join(", ")
            }
        ));
    }
    Some(out)
}

fn side_text(cx: &Cx, id: &str) -> Option<String> {
    let s = cx.scenario()?;
    let summary = muster_ide::summary::summarize(s);
    let side = summary.sides.iter().find(|x| x.id == id)?;
    let mut out = format!(
        "**{}** (side `{}`)\n\narmy: `{}`  \ncombat units: {}, strength {}",
        side.name, side.id, side.army, side.combat_units, side.combat_strength
    );
    if !side.by_kind.is_empty() {
        let kinds: Vec<String> = side
            .by_kind
            .iter()
            .map(|k| format!("{} {}", k.count, k.name))
            .collect();
        out.push_str(&format!("  \nby kind: {}", kinds.join(", ")));
    }
    if !side.commanders.is_empty() {
        out.push_str(&format!("  \ncommanders: {}", side.commanders.join(", ")));
    }
    if side.baggage > 0 {
        out.push_str(&format!("  \nbaggage: {}", side.baggage));
    }
    if !side.reinforcements.is_empty() {
        out.push_str(&format!(
            "  \nreinforcements: {} arrivals",
            side.reinforcements.len()
        ));
    }
    if let Some(m) = &side.morale_threshold {
        out.push_str(&format!("  \nmorale threshold: {m}"));
    }
    Some(out)
}

/// The hover text for string `value` of class `class`.
pub fn text(cx: &Cx, class: Class, value: &str) -> Option<String> {
    match class {
        Class::Counter | Class::CounterDef => counter_text(cx, value),
        Class::Hex => hex_text(cx, value),
        Class::Terrain | Class::TerrainDef => cx
            .system()?
            .terrain
            .iter()
            .find(|t| t.id == value)
            .map(terrain_text),
        Class::Feature | Class::FeatureDef => cx
            .system()?
            .hexside_features
            .iter()
            .find(|f| f.id == value)
            .map(feature_text),
        Class::Hook => muster_semantic::hooks::find(value).map(muster_check::docs::hook_page),
        Class::Side | Class::SideDef => side_text(cx, value),
        Class::UnitKind | Class::UnitKindDef => {
            let k = cx.system()?.unit_kinds.iter().find(|k| k.id == value)?;
            Some(format!(
                "**{}** (unit kind `{}`)\n\nrole: {:?}{}{}",
                k.name,
                k.id,
                k.role,
                if k.mounted { ", mounted" } else { "" },
                if k.missile { ", missile" } else { "" }
            ))
        }
        Class::Army | Class::ArmyDef => {
            let sheet = cx.reference(FileKind::Counters)?;
            let Some(Document::Counters(sheet)) = cx.db.doc(sheet) else {
                return None;
            };
            let army = sheet.armies.iter().find(|a| a.id == value)?;
            let copies: usize = army.counters.iter().map(|c| usize::from(c.count)).sum();
            Some(format!(
                "**{}** (army `{}`)\n\n{} counter designs, {copies} counters, colour {}",
                army.name,
                army.id,
                army.counters.len(),
                army.colour
            ))
        }
        Class::FileRef(kind) => {
            let i = cx.resolve(value, kind)?;
            let file = &cx.db.files[i].file;
            Some(format!("{} `{value}`: {}", kind.name(), file.name))
        }
    }
}
