//! Set-up state the checks ask about: every unit line of a scenario, wherever it
//! stands (set-up groups, neutrals, reinforcements), with its place and army, and the
//! armies a side draws on (a side may field several).

use muster_db::place::Place;
use muster_model::counters::Army;
use muster_model::scenario::{Forces, HoldingBox, Placement, Reinforcement, UnitGroup};

use crate::ScenarioCx;
use crate::rules::specificity;

/// A unit line: its place (`.../units/N`), the line, and the army of its counter.
pub type UnitLineRef<'a> = (Place, &'a UnitGroup, Option<&'a Army>);

impl<'a> ScenarioCx<'a> {
    /// The army a set-up group or reinforcement of side `side` draws its counters from:
    /// its own `army` when it names one (a side of several armies), else the side's.
    pub fn group_army(&self, side: usize, own: Option<&str>) -> Option<&'a Army> {
        match own {
            Some(id) => self.army(id),
            None => self.side_army(side),
        }
    }

    /// Every army of the counter sheet the scenario draws on, each once: its sides',
    /// its set-up groups' and reinforcements' own, and its neutrals'.
    pub fn armies_in_play(&self) -> Vec<&'a Army> {
        let s = self.scenario;
        let groups = s.sides.iter().flat_map(|side| match &side.forces {
            Forces::Placed { setup, .. } => {
                setup.iter().filter_map(|g| g.army.as_deref()).collect()
            }
            Forces::Zoned(_) | Forces::Table(_) => Vec::new(),
        });
        let ids = s
            .sides
            .iter()
            .filter_map(|x| x.army.as_deref())
            .chain(groups)
            .chain(s.reinforcements.iter().filter_map(|r| r.army.as_deref()))
            .chain(s.neutrals.iter().map(|n| n.army.as_str()));
        let mut out: Vec<&'a Army> = Vec::new();
        for army in ids.filter_map(|a| self.army(a)) {
            if !out.iter().any(|x| std::ptr::eq(*x, army)) {
                out.push(army);
            }
        }
        out
    }

    /// The army of a reinforcement ([`Self::group_army`] of its side).
    pub fn reinforcement_army(&self, r: &Reinforcement) -> Option<&'a Army> {
        let side = self.side_of(&r.side)?;
        self.group_army(side, r.army.as_deref())
    }

    /// Every unit line of the scenario's placed setup, neutrals and reinforcements, with
    /// its place (`.../units/N`) and the army its counter comes from.
    pub fn unit_lines(&self) -> Vec<UnitLineRef<'a>> {
        let s = self.scenario;
        let mut out = Vec::new();
        for (i, side) in s.sides.iter().enumerate() {
            let setup = match &side.forces {
                Forces::Placed { setup, .. } => setup,
                Forces::Zoned(_) | Forces::Table(_) => continue,
            };
            for (j, g) in setup.iter().enumerate() {
                let units = Place::setup_group(i, j).field("units");
                for (u, line) in g.units.iter().enumerate() {
                    out.push((units.index(u), line, self.group_army(i, g.army.as_deref())));
                }
            }
        }
        for (i, n) in s.neutrals.iter().enumerate() {
            let units = Place::neutral(i).field("units");
            for (u, line) in n.units.iter().enumerate() {
                out.push((units.index(u), line, self.army(&n.army)));
            }
        }
        for (i, r) in s.reinforcements.iter().enumerate() {
            let army = self.reinforcement_army(r);
            let units = Place::reinforcement(i).field("units");
            for (u, line) in r.units.iter().enumerate() {
                out.push((units.index(u), line, army));
            }
        }
        out
    }
}

impl ScenarioCx<'_> {
    /// How many units of the troop types `units` (kind ids, classes or `"*"`) side
    /// `side` brings to the game, set-up and reinforcements together; `None` when that
    /// cannot be counted (an open-table force, no system, a name that is no troop type
    /// of the system, or a counter that does not resolve).
    pub fn units_of(&self, side: usize, units: &[String]) -> Option<usize> {
        let system = self.system?;
        let matches = |kind: &str| units.iter().any(|u| specificity(system, u, kind).is_some());
        // A name that is no troop type of the system is the name check's finding.
        let known = |u: &String| {
            system
                .unit_kinds
                .iter()
                .any(|k| specificity(system, u, &k.id).is_some())
        };
        if !units.iter().all(known) {
            return None;
        }
        let forces = &self.scenario.sides.get(side)?.forces;
        match forces {
            Forces::Placed { .. } => {
                let mut n = 0;
                for g in self.side_groups(side) {
                    for slot in &g.units {
                        n += usize::from(matches(&slot.counter?.kind));
                    }
                }
                for r in self.side_reinforcements(side) {
                    let army = self.reinforcement_army(r)?;
                    for g in &r.units {
                        let c = self.counter(army, &g.counter)?;
                        if matches(&c.kind) {
                            n += usize::from(g.count);
                        }
                    }
                }
                Some(n)
            }
            Forces::Zoned(z) => Some(
                z.units
                    .iter()
                    .filter(|t| matches(&t.kind))
                    .map(|t| usize::from(t.count))
                    .sum(),
            ),
            Forces::Table(_) => None,
        }
    }

    /// The side at the other end of the table from side `side` (two-sided games).
    pub fn enemy_of(&self, side: usize) -> Option<usize> {
        (self.scenario.sides.len() == 2).then_some(1 - side.min(1))
    }
}

/// The cheapest way onto the map for a unit of a reinforcement: the entry hex and the
/// movement points it costs (the system's `arrivals.entry_cost` plus the hex's own).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EntryCost {
    pub hex: muster_hex::HexId,
    pub cost: f64,
    /// The entry hex's own cost within `cost`.
    pub hex_cost: f64,
}

impl ScenarioCx<'_> {
    /// The cheapest entry hex of reinforcement `r` for a unit of `kind`, and its cost,
    /// where the system states how reinforcements arrive (`rules.arrivals`); `None`
    /// without that rule, a map, or an entry hex the unit may enter.
    pub fn entry_cost(&self, r: &Reinforcement, kind: &str) -> Option<EntryCost> {
        let system = self.system?;
        let arrivals = system.rules.arrivals.as_ref()?;
        let map = self.map?;
        let class = crate::rules::class_of(system, kind);
        r.entry
            .iter()
            .filter_map(|h| muster_hex::HexId::parse(h).ok())
            .filter(|h| map.contains(*h) && map.admits(*h, kind, class))
            .filter_map(|hex| {
                let hex_cost = map.terrain_at(hex)?.move_cost?;
                Some(EntryCost {
                    hex,
                    cost: hex_cost + arrivals.entry_cost.unwrap_or(0.0),
                    hex_cost,
                })
            })
            .min_by(|a, b| a.cost.total_cmp(&b.cost))
    }
}

impl ScenarioCx<'_> {
    /// Copies of counter `counter` side `side` has brought into play by turn `turn`:
    /// its set-up (reserves and replacement pool included, the eliminated box not) and
    /// its reinforcements arriving no later.
    pub fn fielded_by(&self, side: usize, counter: &str, turn: u8) -> usize {
        let set_up = self
            .side_groups(side)
            // Units that start in the eliminated box are not in play.
            .filter(|g| !matches!(g.at, Placement::Box(HoldingBox::Eliminated)))
            .flat_map(|g| g.units.iter())
            .filter(|u| u.counter_id == counter)
            .count();
        let arrived: usize = self
            .side_reinforcements(side)
            .filter(|r| r.turn <= turn)
            .flat_map(|r| r.units.iter())
            .filter(|g| g.counter == counter)
            .map(|g| usize::from(g.count))
            .sum();
        set_up + arrived
    }
}
