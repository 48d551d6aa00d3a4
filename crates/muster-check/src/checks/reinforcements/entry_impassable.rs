use muster_hex::HexId;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that reinforcements can enter through each of their entry hexes: the
    /// hex's terrain is passable and no special rule closes it.
    ///
    /// ## Why is this bad?
    /// An entry hex in a river would keep the reinforcement off the map for the whole
    /// game.
    ///
    /// ## Example
    /// ```ron
    /// // column 01 is a river
    /// reinforcements: [(side: "red", turn: 3, units: [(counter: "provence")], entry: ["0515", "0105"])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// reinforcements: [(side: "red", turn: 3, units: [(counter: "provence")], entry: ["0515", "1208"])],
    /// ```
    pub META = ("reinforcements::entry-impassable", Error, "a reinforcement entry hex units cannot enter");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(map) = cx.map else { return };
    let closed = cx.impassable_columns();
    for (i, r) in cx.scenario.reinforcements.iter().enumerate() {
        for (k, text) in r.entry.iter().enumerate() {
            let Ok(hex) = HexId::parse(text) else {
                continue;
            };
            if !map.contains(hex) {
                continue;
            }
            let why = if let Some(terrain) = map.impassable_terrain_at(hex) {
                format!("entry hex `{hex}` is `{terrain}`, which units cannot enter")
            } else if closed.contains(&hex.col) {
                format!(
                    "entry hex `{hex}` is in column {:02}, which a special rule closes",
                    hex.col
                )
            } else {
                continue;
            };
            sink.push(
                Report::new(&META, Place::reinforcement(i).field("entry").index(k), why)
                    .help("choose an enterable edge hex"),
            );
        }
    }
}
