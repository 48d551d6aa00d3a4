//! Victory conditions that compose (`Achieves`, `FirstTo`): every test with its place
//! and side ([`victory_tests`]). How many units of given troop types a side brings is
//! [`ScenarioCx::units_of`](crate::ScenarioCx::units_of), in `setup`.

use muster_db::place::Place;
use muster_model::scenario::{Scenario, VictoryCondition, VictoryTest};

/// A test of a composed victory condition, with its place and the side it is for.
#[derive(Debug, Clone)]
pub struct PlacedTest<'a> {
    pub at: Place,
    /// The side id the test is for, as written.
    pub side: &'a str,
    pub test: &'a VictoryTest,
}

/// Every test of a scenario's `Achieves` and `FirstTo` conditions, composites and
/// their members alike, in file order (a composite before its members).
pub fn victory_tests(scenario: &Scenario) -> Vec<PlacedTest<'_>> {
    fn walk<'a>(at: Place, side: &'a str, test: &'a VictoryTest, out: &mut Vec<PlacedTest<'a>>) {
        out.push(PlacedTest {
            at: at.clone(),
            side,
            test,
        });
        if let VictoryTest::AllOf(list) | VictoryTest::AnyOf(list) = test {
            let variant = if matches!(test, VictoryTest::AllOf(_)) {
                "AllOf"
            } else {
                "AnyOf"
            };
            for (k, inner) in list.iter().enumerate() {
                walk(at.variant(variant).index(k), side, inner, out);
            }
        }
    }
    let mut out = Vec::new();
    for (i, v) in scenario.victory.iter().enumerate() {
        match v {
            VictoryCondition::Achieves { side, test, .. } => {
                walk(
                    Place::victory(i).variant("Achieves").field("test"),
                    side,
                    test,
                    &mut out,
                );
            }
            VictoryCondition::FirstTo { races, .. } => {
                for (k, race) in races.iter().enumerate() {
                    let at = Place::victory(i).variant("FirstTo").field("races").index(k);
                    walk(at.field("test"), &race.side, &race.test, &mut out);
                }
            }
            VictoryCondition::ArmyMorale { .. }
            | VictoryCondition::FewestLosses { .. }
            | VictoryCondition::LargestMargin { .. }
            | VictoryCondition::ExitUnits { .. }
            | VictoryCondition::Otherwise { .. }
            | VictoryCondition::ExtraTurns { .. }
            | VictoryCondition::ShiftOnEliminations { .. }
            | VictoryCondition::Goals { .. }
            | VictoryCondition::IfBoth(_)
            | VictoryCondition::WinsIfAllMet { .. }
            | VictoryCondition::IfNeither(_) => {}
        }
    }
    out
}
