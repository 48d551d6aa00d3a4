use muster_model::scenario::VictoryCondition;

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
    for (i, v) in cx.scenario.victory.iter().enumerate() {
        let VictoryCondition::ExitUnits { hexes, .. } = v else {
            continue;
        };
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
                    Place::victory(i).variant("ExitUnits").field("hexes"),
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
