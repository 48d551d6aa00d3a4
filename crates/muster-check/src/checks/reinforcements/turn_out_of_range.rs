use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that reinforcements arrive on a turn the game has: from turn 1 up to the
    /// last turn (optional extra turns included).
    ///
    /// ## Why is this bad?
    /// A turn 9 reinforcement in a 7-turn game never arrives; the number is a typo or the
    /// game length is.
    ///
    /// ## Example
    /// ```ron
    /// turns: 7,
    /// // ...
    /// reinforcements: [(side: "red", turn: 9, units: [(counter: "provence")], entry: ["0515", "1208"])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// turns: 7,
    /// // ...
    /// reinforcements: [(side: "red", turn: 3, units: [(counter: "provence")], entry: ["0515", "1208"])],
    /// ```
    pub META = ("reinforcements::turn-out-of-range", Error, "a reinforcement turn outside the game");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let last = cx.scenario.last_turn();
    // `turns: 0` is a schema violation; every turn would be reported again.
    if cx.scenario.turns == 0 {
        return;
    }
    for (i, r) in cx.scenario.reinforcements.iter().enumerate() {
        if r.turn == 0 || r.turn > last {
            sink.push(
                Report::new(
                    &META,
                    Place::reinforcement(i).field("turn"),
                    format!(
                        "reinforcements arrive on turn {} but the game has {last} turns",
                        r.turn
                    ),
                )
                .label(Place::top("turns"), "game length")
                .help(format!("use a turn from 1 to {last}")),
            );
        }
    }
}
