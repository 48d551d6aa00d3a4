use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_engine::{hemmed_arrivals, hemmed_in};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that every unit of a reinforcement, once it has come on at one of its
    /// entry hexes in its turn (paying the system's entry cost and the hex's, or by the
    /// minimum move), has a way on into the board: some hex beyond the entry hexes it
    /// can reach in its turn or any later one, over terrain, hexsides and the movement rules
    /// in force. Other units are ignored: enemies at the entry are what
    /// `arrivals.blocked` settles. A unit that cannot come on at all is
    /// `reinforcements::cannot-enter`'s or `reinforcements::entry-impassable`'s finding.
    ///
    /// A group of a zoned force that enters on a map edge (`arrives`) is judged the same
    /// way, kind by kind, from every hex of its edge: each kind must have some hex off
    /// the edge it can reach.
    ///
    /// The way on may take more than the turn of entry: a unit whose entry cost or entry
    /// hex spends its movement points comes on and moves on the next turn, which is play
    /// and not a defect of the scenario. Only a unit that no number of turns gets past
    /// its entry hexes is reported.
    ///
    /// ## Why is this bad?
    /// A reinforcement penned in at its entry never joins the battle: it is in the
    /// scenario but not in the game. Most often the entry hexes are mistyped, or lie in
    /// a corner the map walls off.
    ///
    /// ## Example
    /// ```ron
    ///     reinforcements: [(side: "north", turn: 3, units: [(counter: "MI")], entry: ["2020"])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///     reinforcements: [(side: "north", turn: 3, units: [(counter: "MI")], entry: ["2018"])],
    /// ```
    pub META = ("reinforcements::cannot-arrive", Warning, "a reinforcement that comes on but can never get past its entry hexes");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for (r, hemmed) in hemmed_in(cx).into_iter().enumerate() {
        for h in hemmed {
            let entries: Vec<String> = h.entries.iter().map(|e| e.to_string()).collect();
            sink.push(
                Report::new(
                    &META,
                    Place::reinforcement(r).field("units").index(h.group).field("counter"),
                    format!(
                        "`{}` can come on at {} but can never get further into the board: every way on from there is impassable or closed to it",
                        h.counter,
                        entries.join(", ")
                    ),
                )
                .help("give entry hexes with a way into the board, or check the map's terrain round them"),
            );
        }
    }
    for h in hemmed_arrivals(cx) {
        let group = cx
            .zoned_sides()
            .iter()
            .find(|z| z.index == h.side)
            .and_then(|z| z.forces.deploy.get(h.group));
        let named = group.and_then(|g| g.id.as_deref()).map_or_else(
            || format!("group {}", h.group + 1),
            |id| format!("group `{id}`"),
        );
        sink.push(
            Report::new(
                &META,
                Place::zoned_forces(h.side)
                    .field("deploy")
                    .index(h.group)
                    .field("arrives"),
                format!(
                    "`{}` of {named} can come on along the {} edge but can never get off it: every way inland from that edge is impassable or closed to it",
                    h.kind,
                    h.edge
                ),
            )
            .help("bring the group on at another edge, or check the map's terrain along this one"),
        );
    }
}
