//! What a project holds, for `muster list`: its rules systems, armies, counters (with
//! the copies on the sheet), maps, special-rule hooks, terrain rows and the edge and
//! entry hexes of a map. Every entry is read from the loaded [`Db`] (compiled maps
//! included), so the listing and the validator agree on what exists.
//!
//! The entries serialise as the `--format json` output of `muster list`: one object
//! with one array named after what was listed (`{"counters": [...]}`), or, for
//! `edges`, one [`MapEdges`] object.

use muster_hex::{Edge, HexId};
use muster_model::FileKind;
use muster_model::counters::CounterSheet;
use muster_model::map::{MapGrid, MapSource};
use muster_model::scenario::Forces;
use muster_model::system::{CombatEffect, GridKind, MoveCost, RulesSystem};
use serde::Serialize;

use muster_db::load::Document;
use muster_db::project::{Db, Resolution};
use muster_semantic::hooks;

/// A rules system.
#[derive(Debug, Clone, Serialize)]
pub struct SystemEntry {
    pub id: String,
    pub name: String,
    /// `hex` or `table`.
    pub grid: &'static str,
    pub unit_kinds: usize,
    pub terrain: usize,
    pub counter_sheets: Vec<String>,
    pub maps: Vec<String>,
    pub scenarios: usize,
    pub file: String,
}

/// An army of a counter sheet.
#[derive(Debug, Clone, Serialize)]
pub struct ArmyEntry {
    pub id: String,
    pub name: String,
    pub colour: String,
    pub system: String,
    pub sheet: String,
    /// Counter designs.
    pub counters: usize,
    /// Counters on the sheet, copies included.
    pub copies: usize,
}

/// A counter design and the copies the sheet holds.
#[derive(Debug, Clone, Serialize)]
pub struct CounterEntry {
    pub army: String,
    pub id: String,
    pub name: String,
    pub kind: String,
    pub strength: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduced: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub movement: Option<f64>,
    pub copies: u8,
}

/// A map.
#[derive(Debug, Clone, Serialize)]
pub struct MapEntry {
    pub id: String,
    pub name: String,
    pub system: String,
    /// `15 x 12 hexes` or `48 x 36 inches`.
    pub size: String,
    pub labels: usize,
    pub file: String,
}

/// A special-rule hook.
#[derive(Debug, Clone, Serialize)]
pub struct HookEntry {
    pub id: String,
    pub systems: Vec<String>,
    pub summary: String,
}

/// A row of a system's terrain effects chart (hex terrain, hexside features, table
/// features).
#[derive(Debug, Clone, Serialize)]
pub struct TerrainEntry {
    pub system: String,
    /// `hex`, `hexside` or `table`.
    pub of: &'static str,
    pub id: String,
    pub name: String,
    /// `1`, `+1` (on top of the hex entered), `x1.5` (table), `impassable`, `-`.
    pub movement: String,
    /// Combat and other effects in words (`die -1, no retreat`).
    pub effects: Vec<String>,
}

/// A rule of a system's vocabulary, in words.
#[derive(Debug, Clone, Serialize)]
pub struct RuleEntry {
    pub system: String,
    /// `effect`, `special rule`, `optional rule`, `combat` (its id the rule's field:
    /// `compulsory`), `zones of control`, `movement mode`, `supply`, `replacements`,
    /// `reinforcements`, `terrain combine`, `weather`, `faction` or `hook`.
    pub topic: &'static str,
    /// The rule's id (empty for a block without one).
    pub id: String,
    pub text: String,
}

/// The edges of a map, its labels and where scenarios bring units onto it.
#[derive(Debug, Clone, Serialize)]
pub struct MapEdges {
    pub map: String,
    pub system: String,
    /// Hex maps: the hexes of each edge.
    pub edges: Vec<EdgeHexes>,
    /// Open tables: the named edges.
    pub named_edges: Vec<NamedEdgeEntry>,
    pub labels: Vec<LabelEntry>,
    /// Entries that scenarios on this map use.
    pub entries: Vec<EntryUse>,
}

#[derive(Debug, Clone, Serialize)]
pub struct EdgeHexes {
    pub edge: Edge,
    /// Edge hexes a unit may enter.
    pub hexes: Vec<String>,
    /// Edge hexes whose terrain is impassable (no entry there).
    pub impassable: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct NamedEdgeEntry {
    pub name: String,
    pub side: Edge,
}

#[derive(Debug, Clone, Serialize)]
pub struct LabelEntry {
    pub hex: String,
    pub text: String,
    /// The edges the labelled hex lies on.
    pub edges: Vec<Edge>,
}

/// A scenario's way onto the map: reinforcement entry hexes or an arrival edge.
#[derive(Debug, Clone, Serialize)]
pub struct EntryUse {
    pub scenario: String,
    pub side: String,
    pub turn: u8,
    /// Entry hexes, or the edge's name (`west edge`).
    pub at: Vec<String>,
}

/// The project's files as `muster list` reads them.
pub struct Catalog<'a> {
    db: &'a Db,
}

impl<'a> Catalog<'a> {
    pub fn new(db: &'a Db) -> Self {
        Self { db }
    }

    fn docs(&self) -> impl Iterator<Item = (usize, &'a Document)> + '_ {
        (0..self.db.files.len()).filter_map(|i| self.db.doc(i).map(|d| (i, d)))
    }

    fn systems_list(&self) -> Vec<(usize, &'a RulesSystem)> {
        let mut out: Vec<(usize, &RulesSystem)> = self
            .docs()
            .filter_map(|(i, d)| match d {
                Document::System(s) => Some((i, s)),
                _ => None,
            })
            .collect();
        out.sort_by(|a, b| a.1.id.cmp(&b.1.id));
        out
    }

    /// The id of the system a file names, resolved (`None` when it does not resolve).
    fn system_of(&self, index: usize, reference: &str) -> Option<&'a str> {
        match self.db.resolve(index, reference, FileKind::System) {
            Resolution::Found(i) => self.db.doc(i).map(Document::id),
            _ => None,
        }
    }

    /// The ids of every system, sorted.
    pub fn system_ids(&self) -> Vec<String> {
        self.systems_list()
            .into_iter()
            .map(|(_, s)| s.id.clone())
            .collect()
    }

    /// `Err` with the known ids when `system` names no system of the project.
    pub fn check_system(&self, system: Option<&str>) -> Result<(), String> {
        match system {
            Some(s) if !self.system_ids().iter().any(|id| id == s) => {
                Err(unknown("system", s, &self.system_ids()))
            }
            _ => Ok(()),
        }
    }

    pub fn system(&self, id: &str) -> Option<&'a RulesSystem> {
        self.systems_list()
            .into_iter()
            .find(|(_, s)| s.id == id)
            .map(|(_, s)| s)
    }

    pub fn systems(&self) -> Vec<SystemEntry> {
        let sheets = self.sheets();
        let maps = self.map_sources();
        self.systems_list()
            .into_iter()
            .map(|(i, s)| SystemEntry {
                id: s.id.clone(),
                name: s.name.clone(),
                grid: match s.grid {
                    GridKind::Hex { .. } => "hex",
                    GridKind::Table { .. } => "table",
                },
                unit_kinds: s.unit_kinds.len(),
                terrain: match &s.grid {
                    GridKind::Hex { .. } => s.terrain.len(),
                    GridKind::Table { features, .. } => features.len(),
                },
                counter_sheets: sheets
                    .iter()
                    .filter(|(_, sys, _)| sys.as_deref() == Some(&s.id))
                    .map(|(_, _, c)| c.id.clone())
                    .collect(),
                maps: maps
                    .iter()
                    .filter(|(_, sys, _)| sys.as_deref() == Some(&s.id))
                    .map(|(_, _, m)| m.id.clone())
                    .collect(),
                scenarios: self
                    .docs()
                    .filter(|(j, d)| match d {
                        Document::Scenario(sc) => self.system_of(*j, &sc.system) == Some(&s.id),
                        _ => false,
                    })
                    .count(),
                file: self.db.files[i].file.name.clone(),
            })
            .collect()
    }

    /// Counter sheets with the id of their system.
    fn sheets(&self) -> Vec<(usize, Option<String>, &'a CounterSheet)> {
        let mut out: Vec<_> = self
            .docs()
            .filter_map(|(i, d)| match d {
                Document::Counters(c) => {
                    Some((i, self.system_of(i, &c.system).map(str::to_string), c))
                }
                _ => None,
            })
            .collect();
        out.sort_by(|a, b| a.2.id.cmp(&b.2.id));
        out
    }

    /// Map sources with the id of their system.
    fn map_sources(&self) -> Vec<(usize, Option<String>, &'a MapSource)> {
        let mut out: Vec<_> = self
            .docs()
            .filter_map(|(i, d)| match d {
                Document::Map(m) => Some((i, self.system_of(i, &m.system).map(str::to_string), m)),
                _ => None,
            })
            .collect();
        out.sort_by(|a, b| a.2.id.cmp(&b.2.id));
        out
    }

    /// The counter sheets of a system (id, sheet).
    pub fn sheets_of(&self, system: &str) -> Vec<&'a CounterSheet> {
        self.sheets()
            .into_iter()
            .filter(|(_, s, _)| s.as_deref() == Some(system))
            .map(|(_, _, c)| c)
            .collect()
    }

    pub fn armies(&self, system: Option<&str>) -> Vec<ArmyEntry> {
        let mut out = Vec::new();
        for (_, sys, sheet) in self.sheets() {
            if system.is_some() && sys.as_deref() != system {
                continue;
            }
            for army in &sheet.armies {
                out.push(ArmyEntry {
                    id: army.id.clone(),
                    name: army.name.clone(),
                    colour: army.colour.clone(),
                    system: sys.clone().unwrap_or_else(|| sheet.system.clone()),
                    sheet: sheet.id.clone(),
                    counters: army.counters.len(),
                    copies: army.counters.iter().map(|c| usize::from(c.count)).sum(),
                });
            }
        }
        out
    }

    /// The ids of every army (of a system).
    pub fn army_ids(&self, system: Option<&str>) -> Vec<String> {
        self.armies(system).into_iter().map(|a| a.id).collect()
    }

    /// Counters of one army, or of every army (of a system); `Err` names the known armies
    /// when `army` is not one of them.
    pub fn counters(
        &self,
        army: Option<&str>,
        system: Option<&str>,
    ) -> Result<Vec<CounterEntry>, String> {
        if let Some(a) = army {
            let known = self.army_ids(system);
            if !known.iter().any(|k| k == a) {
                return Err(unknown("army", a, &known));
            }
        }
        let mut out = Vec::new();
        for (_, sys, sheet) in self.sheets() {
            if system.is_some() && sys.as_deref() != system {
                continue;
            }
            for a in &sheet.armies {
                if army.is_some_and(|want| want != a.id) {
                    continue;
                }
                for c in &a.counters {
                    out.push(CounterEntry {
                        army: a.id.clone(),
                        id: c.id.clone(),
                        name: c.name.clone(),
                        kind: c.kind.clone(),
                        strength: c.strength,
                        reduced: c.reduced,
                        movement: c.movement,
                        copies: c.count,
                    });
                }
            }
        }
        Ok(out)
    }

    pub fn maps(&self, system: Option<&str>) -> Vec<MapEntry> {
        self.map_sources()
            .into_iter()
            .filter(|(_, s, _)| system.is_none() || s.as_deref() == system)
            .map(|(i, sys, m)| MapEntry {
                id: m.id.clone(),
                name: m.name.clone(),
                system: sys.unwrap_or_else(|| m.system.clone()),
                size: match &m.grid {
                    MapGrid::Hex { columns, rows, .. } => format!("{columns} x {rows} hexes"),
                    MapGrid::Table { width, depth, .. } => format!("{width} x {depth} inches"),
                },
                labels: self.db.terrain_map(i).map_or(0, |t| t.table().labels.len()),
                file: self.db.files[i].file.name.clone(),
            })
            .collect()
    }

    /// The ids of every map (of a system).
    pub fn map_ids(&self, system: Option<&str>) -> Vec<String> {
        self.maps(system).into_iter().map(|m| m.id).collect()
    }

    /// The rules of the vocabulary and the combat rules of every system (of one), in
    /// words.
    pub fn rules(&self, system: Option<&str>) -> Vec<RuleEntry> {
        use crate::rule_words as w;
        let mut out = Vec::new();
        for (_, s) in self.systems_list() {
            if system.is_some_and(|id| id != s.id) {
                continue;
            }
            let r = &s.rules;
            let mut push = |topic: &'static str, id: &str, text: String| {
                out.push(RuleEntry {
                    system: s.id.clone(),
                    topic,
                    id: id.to_string(),
                    text,
                })
            };
            for f in &r.factions {
                push("faction", &f.id, f.name.clone());
            }
            for k in &r.weather {
                push("weather", &k.id, k.name.clone());
            }
            for e in &r.effects {
                push(
                    "effect",
                    &e.id,
                    w::rule_words(e.when.as_ref(), &e.then, Some(&e.section)),
                );
            }
            for e in &r.special_rules {
                push(
                    "special rule",
                    &e.id,
                    w::rule_words(e.when.as_ref(), &e.then, Some(&e.section)),
                );
            }
            for o in &r.optional_rules {
                for e in &o.effects {
                    push("optional rule", &o.id, w::effect_rule_words(e));
                }
            }
            if let Some(c) = &r.combat {
                for (id, text) in w::combat_words(c, &s.grid) {
                    push("combat", id, text);
                }
            }
            if let Some(c) = &r.terrain_combine {
                push("terrain combine", "", w::terrain_combine_words(c));
            }
            if let Some(z) = &r.zones_of_control {
                push("zones of control", "", w::zoc_words(z));
            }
            if let Some(c) = &r.control {
                push("control", "", w::control_words(c));
            }
            for m in &r.movement_modes {
                push("movement mode", &m.id, w::mode_words(m));
            }
            for c in &s.carriers {
                push("carrier", &c.kind, w::carrier_words(c));
            }
            if let Some(sup) = &r.supply {
                push("supply", "", w::supply_words(sup));
            }
            if let Some(rep) = &r.replacements {
                push("replacements", "", w::replacement_words(rep));
            }
            if let Some(a) = &r.arrivals {
                push("reinforcements", "", w::arrival_words(a));
            }
            for h in &r.hooks {
                let summary = hooks::find(h).map_or("", |x| x.summary);
                push("hook", h, summary.to_string());
            }
        }
        out
    }

    /// The hooks a scenario of `system` may use (every hook without a system).
    pub fn hooks(&self, system: Option<&str>) -> Vec<HookEntry> {
        let list: Vec<&hooks::RegisteredHook> = match system {
            Some(s) => hooks::hooks_of(self.system(s)),
            None => hooks::HOOKS.iter().collect(),
        };
        list.into_iter()
            .map(|h| HookEntry {
                id: h.id.to_string(),
                systems: h.systems.iter().map(|s| s.to_string()).collect(),
                summary: h.summary.to_string(),
            })
            .collect()
    }

    pub fn terrain(&self, system: Option<&str>) -> Vec<TerrainEntry> {
        let mut out = Vec::new();
        for (_, s) in self.systems_list() {
            if system.is_some_and(|want| want != s.id) {
                continue;
            }
            for t in &s.terrain {
                let mut effects: Vec<String> = t.combat.iter().map(combat_words).collect();
                if let Some(road) = t.along_road {
                    effects.push(format!("{} along a road", number(road)));
                }
                if let Some(f) = t.fire_protection {
                    effects.push(format!("fire protection {f}"));
                }
                if !t.prohibited.is_empty() {
                    effects.push(format!("prohibited: {}", t.prohibited.join(", ")));
                }
                if !t.allowed.is_empty() {
                    effects.push(format!("allowed: {}", t.allowed.join(", ")));
                }
                if t.base_only {
                    effects.push("never an added feature".to_string());
                }
                out.push(TerrainEntry {
                    system: s.id.clone(),
                    of: "hex",
                    id: t.id.clone(),
                    name: t.name.clone(),
                    movement: cost_words(Some(t.movement)),
                    effects,
                });
            }
            for f in &s.hexside_features {
                let mut effects: Vec<String> = f.combat.iter().map(combat_words).collect();
                if f.blocks_movement {
                    effects.push("blocks movement".to_string());
                }
                if f.blocks_zoc {
                    effects.push("blocks zones of control".to_string());
                }
                if f.crossing {
                    effects.push("crossing".to_string());
                }
                out.push(TerrainEntry {
                    system: s.id.clone(),
                    of: "hexside",
                    id: f.id.clone(),
                    name: f.name.clone(),
                    movement: cost_words(f.movement),
                    effects,
                });
            }
            if let GridKind::Table { features, .. } = &s.grid {
                for f in features {
                    let mut effects = vec![format!("{:?}", f.class).to_lowercase()];
                    if f.cover {
                        effects.push("cover".to_string());
                    }
                    if let Some(c) = f.crossing_cost {
                        effects.push(format!("{} inches to cross", number(c)));
                    }
                    if !f.forbidden.is_empty() {
                        effects.push(format!("forbidden: {}", f.forbidden.join(", ")));
                    }
                    for t in &f.troop_factors {
                        effects.push(format!("{} x{}", t.troop, number(t.factor)));
                    }
                    out.push(TerrainEntry {
                        system: s.id.clone(),
                        of: "table",
                        id: f.id.clone(),
                        name: f.name.clone(),
                        movement: f
                            .movement_factor
                            .map_or("impassable".to_string(), |m| format!("x{}", number(m))),
                        effects,
                    });
                }
            }
        }
        out
    }

    /// The edges, labels and entries of map `id`; `Err` names the known maps.
    pub fn edges(&self, id: &str) -> Result<MapEdges, String> {
        let Some((index, sys, map)) = self.map_sources().into_iter().find(|(_, _, m)| m.id == id)
        else {
            return Err(unknown("map", id, &self.map_ids(None)));
        };
        let mut out = MapEdges {
            map: map.id.clone(),
            system: sys.unwrap_or_else(|| map.system.clone()),
            edges: Vec::new(),
            named_edges: Vec::new(),
            labels: Vec::new(),
            entries: Vec::new(),
        };
        match &map.grid {
            MapGrid::Table { edges, .. } => {
                out.named_edges = edges
                    .iter()
                    .map(|e| NamedEdgeEntry {
                        name: e.name.clone(),
                        side: e.side,
                    })
                    .collect();
            }
            MapGrid::Hex { .. } => {
                let Some(terrain) = self.db.terrain_map(index) else {
                    return Err(format!(
                        "map `{id}` could not be compiled (its system does not resolve); run `muster validate`"
                    ));
                };
                let grid = terrain.grid();
                for edge in [Edge::North, Edge::East, Edge::South, Edge::West] {
                    let (open, closed): (Vec<HexId>, Vec<HexId>) = grid
                        .hexes()
                        .filter(|h| grid.edges_of(*h).contains(&edge))
                        .partition(|h| terrain.is_enterable(*h));
                    out.edges.push(EdgeHexes {
                        edge,
                        hexes: open.iter().map(HexId::to_string).collect(),
                        impassable: closed.iter().map(HexId::to_string).collect(),
                    });
                }
                out.labels = terrain
                    .table()
                    .labels
                    .iter()
                    .map(|l| LabelEntry {
                        hex: l.hex.clone(),
                        text: l.text.clone(),
                        edges: HexId::parse(&l.hex)
                            .map(|h| grid.edges_of(h))
                            .unwrap_or_default(),
                    })
                    .collect();
            }
        }
        for (i, d) in self.docs() {
            let Document::Scenario(s) = d else { continue };
            if self.db.resolve(i, &s.map, FileKind::Map) != Resolution::Found(index) {
                continue;
            }
            for r in &s.reinforcements {
                out.entries.push(EntryUse {
                    scenario: s.id.clone(),
                    side: r.side.clone(),
                    turn: r.turn,
                    at: r.entry.clone(),
                });
            }
            for side in &s.sides {
                if let Forces::Zoned(z) = &side.forces {
                    for dep in &z.deploy {
                        if let Some(a) = &dep.arrives {
                            out.entries.push(EntryUse {
                                scenario: s.id.clone(),
                                side: side.id.clone(),
                                turn: a.turn,
                                at: vec![format!("{} edge", a.edge)],
                            });
                        }
                    }
                }
            }
        }
        out.entries
            .sort_by(|a, b| (&a.scenario, a.turn).cmp(&(&b.scenario, b.turn)));
        Ok(out)
    }
}

/// `no army `x`; known: a, b` with a did-you-mean when one is near.
pub fn unknown(what: &str, id: &str, known: &[String]) -> String {
    let hint = muster_db::suggest::did_you_mean(id, known.iter().map(String::as_str))
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
    format!(
        "no {what} `{id}` in the project{hint} (known: {})",
        if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        }
    )
}

fn number(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{n:.0}")
    } else {
        n.to_string()
    }
}

fn cost_words(cost: Option<MoveCost>) -> String {
    match cost {
        Some(MoveCost::Points(p)) => number(p),
        Some(MoveCost::Extra(p)) => format!("+{}", number(p)),
        Some(MoveCost::Impassable) => "impassable".to_string(),
        None => "-".to_string(),
    }
}

fn combat_words(effect: &CombatEffect) -> String {
    match effect {
        CombatEffect::DieModifier(n) => format!("die {n:+}"),
        CombatEffect::ColumnShift(n) => format!("column shift {n:+}"),
        CombatEffect::NoRetreat => "no retreat".to_string(),
        CombatEffect::NoCharge => "no charge".to_string(),
    }
}
