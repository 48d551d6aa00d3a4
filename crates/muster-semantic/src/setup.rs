//! Set-up state the checks ask about: every unit line of a scenario, wherever it
//! stands (set-up groups, neutrals, reinforcements), with its place and army, and the
//! armies a side draws on (a side may field several).

use muster_db::place::Place;
use muster_model::counters::Army;
use muster_model::scenario::{Forces, Reinforcement, UnitGroup};

use crate::ScenarioCx;

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
        let side = self.scenario.sides.iter().position(|s| s.id == r.side)?;
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
