use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Where the system states how reinforcements arrive (`rules.arrivals`), checks that
    /// every arriving unit has the movement points to come on: its allowance must cover
    /// the cost of entering (`entry_cost`) plus the cost of its cheapest entry hex. A
    /// system with a minimum move (`rules.movement.minimum_move`) lets every unit make
    /// that move, so it is not checked there.
    ///
    /// ## Why is this bad?
    /// A unit that cannot pay for its first hex never arrives: the reinforcement is in
    /// the scenario but not in the game. Most often the entry hexes are in rough ground,
    /// or the unit is the wrong counter.
    ///
    /// ## Example
    /// ```ron
    ///     reinforcements: [(side: "red", turn: 3, units: [(counter: "provence")], entry: ["0405"], arrive: Anywhere)],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///     reinforcements: [(side: "red", turn: 3, units: [(counter: "provence")], entry: ["0404"], arrive: Anywhere)],
    /// ```
    pub META = ("reinforcements::cannot-enter", Error, "an arriving unit without the movement points to enter");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(system) = cx.system else { return };
    let Some(arrivals) = &system.rules.arrivals else {
        return;
    };
    if system
        .rules
        .movement
        .as_ref()
        .is_some_and(|m| m.minimum_move.is_some())
    {
        return;
    }
    for (i, r) in cx.scenario.reinforcements.iter().enumerate() {
        let Some(army) = cx.reinforcement_army(r) else {
            continue;
        };
        for (u, line) in r.units.iter().enumerate() {
            let Some(counter) = cx.counter(army, &line.counter) else {
                continue;
            };
            let Some(allowance) = counter.movement else {
                continue;
            };
            // No enterable entry hex is `reinforcements::entry-impassable`'s finding.
            let Some(entry) = cx.entry_cost(r, &counter.kind) else {
                continue;
            };
            if allowance < entry.cost {
                let extra = arrivals.entry_cost.unwrap_or(0.0);
                sink.push(
                    Report::new(
                        &META,
                        Place::reinforcement(i).field("units").index(u).field("counter"),
                        format!(
                            "`{}` moves {allowance} MP but cannot come on: its cheapest entry, `{}`, costs {} MP ({extra} to come on, by the system's `arrivals`, and {} for the hex)",
                            counter.id, entry.hex, entry.cost, entry.hex_cost
                        ),
                    )
                    .help("give entry hexes the unit can pay for, or check the counter"),
                );
            }
        }
    }
}
