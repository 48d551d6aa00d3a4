use muster_hex::HexId;
use muster_model::scenario::Arrive;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that every entry hex of a reinforcement lies on a map edge, unless the
    /// reinforcement says it may arrive anywhere (`arrive: Anywhere`).
    ///
    /// ## Why is this bad?
    /// Reinforcements march on from off the map; an entry hex in the middle of the map
    /// is a typo (Fontenoy's Provence enters at 0515, 1115, 1208 or 0901). Where the
    /// scenario does bring units on inside the map (a garrison sallying from a town),
    /// `arrive: Anywhere` says so, and the entry hexes may lie anywhere on the map.
    ///
    /// ## Example
    /// ```ron
    /// reinforcements: [(side: "red", turn: 3, units: [(counter: "provence")], entry: ["0515", "0608"])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// reinforcements: [(side: "red", turn: 3, units: [(counter: "provence")], entry: ["0515", "1208"])],
    /// ```
    pub META = ("reinforcements::entry-not-on-edge", Error, "a reinforcement entry hex that is not on a map edge");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(map) = cx.map else { return };
    let grid = map.grid();
    for (i, r) in cx.scenario.reinforcements.iter().enumerate() {
        // The scenario says these units appear inside the map.
        if r.arrive == Arrive::Anywhere {
            continue;
        }
        for (k, text) in r.entry.iter().enumerate() {
            let Ok(hex) = HexId::parse(text) else {
                continue;
            };
            if grid.contains(hex) && !grid.is_edge(hex) {
                sink.push(
                    Report::new(
                        &META,
                        Place::reinforcement(i).field("entry").index(k),
                        format!("entry hex `{hex}` is not on a map edge"),
                    )
                    .help(format!(
                        "edge hexes are in column 01 or {:02}, or row 01 or {:02}; if the scenario brings these units on inside the map, write `arrive: Anywhere` in this reinforcement",
                        grid.columns, grid.rows
                    )),
                );
            }
        }
    }
}
