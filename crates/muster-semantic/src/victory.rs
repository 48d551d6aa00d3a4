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
    /// The turn the condition must hold by (`Achieves(by_turn)`), if it says one.
    pub by_turn: Option<u8>,
}

/// Every test of a scenario's `Achieves` and `FirstTo` conditions, composites and
/// their members alike, in file order (a composite before its members).
pub fn victory_tests(scenario: &Scenario) -> Vec<PlacedTest<'_>> {
    fn walk<'a>(
        at: Place,
        side: &'a str,
        test: &'a VictoryTest,
        by_turn: Option<u8>,
        out: &mut Vec<PlacedTest<'a>>,
    ) {
        out.push(PlacedTest {
            at: at.clone(),
            side,
            test,
            by_turn,
        });
        if let VictoryTest::AllOf(list) | VictoryTest::AnyOf(list) = test {
            let variant = if matches!(test, VictoryTest::AllOf(_)) {
                "AllOf"
            } else {
                "AnyOf"
            };
            for (k, inner) in list.iter().enumerate() {
                walk(at.variant(variant).index(k), side, inner, by_turn, out);
            }
        }
    }
    let mut out = Vec::new();
    for (i, v) in scenario.victory.iter().enumerate() {
        match v {
            VictoryCondition::Achieves {
                side,
                test,
                by_turn,
                ..
            } => {
                walk(
                    Place::victory(i).variant("Achieves").field("test"),
                    side,
                    test,
                    *by_turn,
                    &mut out,
                );
            }
            VictoryCondition::FirstTo { races, .. } => {
                for (k, race) in races.iter().enumerate() {
                    let at = Place::victory(i).variant("FirstTo").field("races").index(k);
                    walk(at.field("test"), &race.side, &race.test, None, &mut out);
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

/// A place a side must get a unit to: hexes to control, or hexes to exit through.
#[derive(Debug, Clone)]
pub struct Objective {
    /// Index of the side in the scenario.
    pub side: usize,
    pub at: Place,
    /// In words, for messages: "label `E` (0710)", "the east edge".
    pub what: String,
    /// Any one of them will do.
    pub hexes: Vec<muster_hex::HexId>,
    /// The last turn a unit may get there in.
    pub by_turn: u8,
    /// The troop types that count (kind ids, classes, `"*"`).
    pub troops: Vec<String>,
    /// Unit kinds that do not count.
    pub excluding: Vec<String>,
}

/// A list's labels with their positions, each label at its first position only: a label
/// written again in one list is the same objective, searched for and reported once.
pub fn first_of_each(labels: &[String]) -> impl Iterator<Item = (usize, &String)> {
    let mut seen = std::collections::HashSet::new();
    labels
        .iter()
        .enumerate()
        .filter(move |(_, l)| seen.insert(l.as_str()))
}

impl crate::ScenarioCx<'_> {
    /// Every place a victory condition asks a side to reach: labelled or named hexes to
    /// control (by the last turn, less the turns the control must last), and hexes or an
    /// edge to exit through (by the condition's turn, else the last). Places the map does
    /// not resolve (an unknown label) are left out: other checks report them.
    pub fn objectives(&self) -> Vec<Objective> {
        use muster_model::scenario::Goal;
        let Some(map) = self.map else {
            return Vec::new();
        };
        let grid = map.grid();
        let turns = self.scenario.turns.max(1);
        let side_of = |id: &str| self.side_of(id);
        let edge = |e: muster_hex::Edge| grid.edge_hexes(e);
        let all = || vec!["*".to_string()];
        let mut out = Vec::new();
        let mut push =
            |side, at, what: String, hexes: Vec<muster_hex::HexId>, by_turn, troops, excluding| {
                if !hexes.is_empty() {
                    out.push(Objective {
                        side,
                        at,
                        what,
                        hexes,
                        by_turn,
                        troops,
                        excluding,
                    });
                }
            };
        for (i, v) in self.scenario.victory.iter().enumerate() {
            match v {
                VictoryCondition::Goals { side, any_of } => {
                    let Some(side) = side_of(side) else { continue };
                    for (a, list) in any_of.iter().enumerate() {
                        for (g, goal) in list.iter().enumerate() {
                            let base = Place::goal(i, a, g);
                            match goal {
                                Goal::Control {
                                    labels,
                                    consecutive_turns,
                                } => {
                                    let by = turns
                                        .saturating_sub(consecutive_turns.saturating_sub(1))
                                        .max(1);
                                    for (k, label) in first_of_each(labels) {
                                        let Some(h) = map.label(label) else { continue };
                                        let at = base.variant("Control").field("labels").index(k);
                                        push(
                                            side,
                                            at,
                                            format!("label `{label}` ({h})"),
                                            vec![h],
                                            by,
                                            all(),
                                            Vec::new(),
                                        );
                                    }
                                }
                                Goal::ControlHex { hex } => {
                                    let Ok(h) = muster_hex::HexId::parse(hex) else {
                                        continue;
                                    };
                                    if grid.contains(h) {
                                        let at = base.variant("ControlHex").field("hex");
                                        push(
                                            side,
                                            at,
                                            format!("hex {h}"),
                                            vec![h],
                                            turns,
                                            all(),
                                            Vec::new(),
                                        );
                                    }
                                }
                                Goal::Exit {
                                    edge: e,
                                    near,
                                    by_turn,
                                    excluding,
                                    ..
                                } => {
                                    let mut hexes = edge(*e);
                                    if let Some((label, radius)) = near {
                                        let Some(c) = map.label(label) else { continue };
                                        hexes
                                            .retain(|h| grid.distance(*h, c) <= u32::from(*radius));
                                    }
                                    let at = base.variant("Exit").field("edge");
                                    let what = format!("the {} edge", e.to_string().to_lowercase());
                                    push(
                                        side,
                                        at,
                                        what,
                                        hexes,
                                        by_turn.unwrap_or(turns),
                                        all(),
                                        excluding.clone(),
                                    );
                                }
                                Goal::Level(_)
                                | Goal::InSea { .. }
                                | Goal::Eliminate { .. }
                                | Goal::Escort { .. }
                                | Goal::Prevent => {}
                            }
                        }
                    }
                }
                VictoryCondition::ExitUnits {
                    side,
                    counter,
                    hexes,
                    after_turn,
                    ..
                } => {
                    let Some(side) = side_of(side) else { continue };
                    let Ok(list) = muster_map::resolve_area(grid, hexes) else {
                        continue;
                    };
                    let kind = self
                        .side_army(side)
                        .and_then(|a| self.counter(a, counter))
                        .map_or_else(|| counter.clone(), |c| c.kind.clone());
                    let at = Place::victory(i).variant("ExitUnits").field("hexes");
                    let list: Vec<_> = list.into_iter().filter(|h| grid.contains(*h)).collect();
                    push(
                        side,
                        at,
                        "its exit hexes".to_string(),
                        list,
                        (*after_turn).clamp(1, turns),
                        vec![kind],
                        Vec::new(),
                    );
                }
                _ => {}
            }
        }
        self.test_objectives(map, &mut out);
        out
    }

    /// The places the composed tests (`Achieves`, `FirstTo`) ask for: labels to
    /// control, an edge or hexes to exit through.
    fn test_objectives(&self, map: &muster_map::TerrainMap, out: &mut Vec<Objective>) {
        use muster_model::scenario::ExitThrough;
        let grid = map.grid();
        let turns = self.scenario.turns.max(1);
        let side_of = |id: &str| self.side_of(id);
        let edge = |e: muster_hex::Edge| grid.edge_hexes(e);
        let all = || vec!["*".to_string()];
        let mut push =
            |side, at, what: String, hexes: Vec<muster_hex::HexId>, by_turn, troops, excluding| {
                if !hexes.is_empty() {
                    out.push(Objective {
                        side,
                        at,
                        what,
                        hexes,
                        by_turn,
                        troops,
                        excluding,
                    });
                }
            };
        for t in victory_tests(self.scenario) {
            let Some(side) = side_of(t.side) else {
                continue;
            };
            let by = t.by_turn.unwrap_or(turns).clamp(1, turns);
            match t.test {
                VictoryTest::Controls(labels) => {
                    for (k, label) in first_of_each(labels) {
                        let Some(h) = map.label(label) else { continue };
                        let at = t.at.variant("Controls").index(k);
                        push(
                            side,
                            at,
                            format!("label `{label}` ({h})"),
                            vec![h],
                            by,
                            all(),
                            Vec::new(),
                        );
                    }
                }
                VictoryTest::Exited {
                    units,
                    through: Some(through),
                    ..
                } => {
                    let (hexes, what) = match through {
                        ExitThrough::Edge(e) => (
                            edge(*e),
                            format!("the {} edge", e.to_string().to_lowercase()),
                        ),
                        ExitThrough::Hexes(area) => match muster_map::resolve_area(grid, area) {
                            Ok(list) => (
                                list.into_iter().filter(|h| grid.contains(*h)).collect(),
                                "its exit hexes".to_string(),
                            ),
                            Err(_) => continue,
                        },
                    };
                    let at = t.at.variant("Exited").field("through");
                    push(side, at, what, hexes, by, units.clone(), Vec::new());
                }
                _ => {}
            }
        }
    }
}
