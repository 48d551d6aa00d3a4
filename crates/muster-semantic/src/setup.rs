//! Set-up state the checks ask about: every unit line of a scenario, wherever it
//! stands (set-up groups, neutrals, reinforcements), with its place and army.

use muster_db::place::Place;
use muster_model::counters::Army;
use muster_model::scenario::{Forces, UnitGroup};

use crate::ScenarioCx;

/// A unit line: its place (`.../units/N`), the line, and the army of its counter.
pub type UnitLineRef<'a> = (Place, &'a UnitGroup, Option<&'a Army>);

impl<'a> ScenarioCx<'a> {
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
                    out.push((units.index(u), line, self.side_army(i)));
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
            let army = s
                .sides
                .iter()
                .position(|x| x.id == r.side)
                .and_then(|k| self.side_army(k));
            let units = Place::reinforcement(i).field("units");
            for (u, line) in r.units.iter().enumerate() {
                out.push((units.index(u), line, army));
            }
        }
        out
    }
}
