use std::collections::BTreeMap;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks each withdrawal (`withdrawals`) against the units its side has in play by
    /// its turn: every counter withdrawn must be one the side set up or received as a
    /// reinforcement no later than that turn, and no more copies than it has, counting
    /// earlier withdrawals. The turn must be a turn of the game.
    ///
    /// ## Why is this bad?
    /// A withdrawal of a unit the side does not have cannot be carried out at the
    /// table: most often the counter id, the side or the turn was mistyped, or the unit
    /// arrives after it is meant to leave.
    ///
    /// ## Example
    /// ```ron
    ///     withdrawals: [(side: "red", turn: 2, units: [(counter: "provence")])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///     withdrawals: [(side: "red", turn: 5, units: [(counter: "provence")])],
    /// ```
    pub META = ("reinforcements::withdrawal-not-in-play", Error, "a withdrawal of units the side does not have in play");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let s = cx.scenario;
    let last = s.last_turn();
    // (side, counter) -> copies withdrawn so far, in turn order.
    let mut gone: BTreeMap<(usize, &str), usize> = BTreeMap::new();
    let mut order: Vec<usize> = (0..s.withdrawals.len()).collect();
    order.sort_by_key(|&i| s.withdrawals[i].turn);
    for i in order {
        let w = &s.withdrawals[i];
        let at = Place::top("withdrawals").index(i);
        if w.turn == 0 || w.turn > last {
            sink.push(
                Report::new(
                    &META,
                    at.field("turn"),
                    format!(
                        "turn {} is not a turn of this game, which has turns 1 to {last}",
                        w.turn
                    ),
                )
                .help("correct the turn, or the scenario's `turns`"),
            );
            continue;
        }
        // An unknown side is `references::unknown-side`'s finding.
        let Some(side) = s.sides.iter().position(|x| x.id == w.side) else {
            continue;
        };
        for (u, line) in w.units.iter().enumerate() {
            let had = cx.fielded_by(side, &line.counter, w.turn);
            let before = gone.entry((side, line.counter.as_str())).or_default();
            let wanted = *before + usize::from(line.count);
            if wanted > had {
                let left = had.saturating_sub(*before);
                sink.push(
                    Report::new(
                        &META,
                        at.field("units").index(u).field("counter"),
                        format!(
                            "`{}` withdraws {} of `{}` on turn {}, but has {left} of it in play by then",
                            w.side, line.count, line.counter, w.turn
                        ),
                    )
                    .help("withdraw units the side set up or received by that turn"),
                );
            }
            *before = wanted.min(had);
        }
    }
}
