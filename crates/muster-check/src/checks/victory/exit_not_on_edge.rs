use muster_model::scenario::{ExitThrough, VictoryCondition, VictoryTest};

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that the hexes through which units exit the map for victory are edge hexes
    /// (Brissarthe: 0315 to 0915 on the south edge).
    ///
    /// ## Why is this bad?
    /// Units leave the map across its edge; an inner hex cannot be an exit.
    ///
    /// ## Example
    /// ```ron
    /// ExitUnits(side: "blue", counter: "drakkar", hexes: Range("0314", "0914"), after_turn: 7, tiers: [(at_least: 1, level: Minor)]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// ExitUnits(side: "blue", counter: "drakkar", hexes: Range("0315", "0915"), after_turn: 7, tiers: [(at_least: 1, level: Minor)]),
    /// ```
    pub META = ("victory::exit-not-on-edge", Error, "an exit hex that is not on a map edge");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(map) = cx.map else { return };
    let grid = map.grid();
    let exits = cx
        .scenario
        .victory
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v {
            VictoryCondition::ExitUnits { hexes, .. } => {
                Some((Place::victory(i).variant("ExitUnits").field("hexes"), hexes))
            }
            _ => None,
        })
        .chain(
            muster_semantic::victory::victory_tests(cx.scenario)
                .into_iter()
                .filter_map(|t| match t.test {
                    VictoryTest::Exited {
                        through: Some(ExitThrough::Hexes(area)),
                        ..
                    } => Some((
                        t.at.variant("Exited").field("through").variant("Hexes"),
                        area,
                    )),
                    _ => None,
                }),
        );
    for (at, hexes) in exits {
        let Ok(list) = muster_map::resolve_area(grid, hexes) else {
            continue;
        };
        let inner: Vec<String> = list
            .iter()
            .filter(|h| grid.contains(**h) && !grid.is_edge(**h))
            .map(|h| format!("`{h}`"))
            .collect();
        if !inner.is_empty() {
            sink.push(
                Report::new(
                    &META,
                    at,
                    format!("exit hexes {} are not on a map edge", inner.join(", ")),
                )
                .help(format!(
                    "the map's edges are columns 01 and {:02}, rows 01 and {:02}",
                    grid.columns, grid.rows
                )),
            );
        }
    }
}
