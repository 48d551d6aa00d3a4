use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::scenario::Forces;
use muster_semantic::ScenarioCx;
use muster_semantic::board::PieceState;

declare_check! {
    /// ## What it does
    /// Checks that a side whose set-up is hidden (`Placed(hidden: true, ...)`) has
    /// something to hide: at least one unit whose hex the owner chooses (more hexes than
    /// units, a spaced run, a unit stacked on one of several hosts) or whose place among
    /// its group's hexes is the owner's choice (different counters on named hexes, a
    /// `choose` group). Units in a holding box and reinforcements are not counted.
    ///
    /// ## Why is this bad?
    /// Where the scenario names the hex of every unit of the side, the other player
    /// knows the whole set-up from the scenario: setting it up out of sight changes
    /// nothing, and `muster render` leaves off a board that both players can read. Most
    /// often `hidden` was copied from another scenario, or the set-up zones were typed as
    /// one hex per unit.
    ///
    /// ## Example
    /// ```ron
    ///             forces: Placed(hidden: true, setup: [
    ///                 (units: [(counter: "aslak")], at: Hexes(["0610"])),
    ///                 (units: [(counter: "viking", count: 2)], at: Hexes(["0610", "0612"])),
    ///                 (units: [(counter: "drakkar", count: 2)], at: Hexes(["0101", "0103"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///             forces: Placed(hidden: true, setup: [
    ///                 (units: [(counter: "aslak")], at: Hexes(["0610"])),
    ///                 (units: [(counter: "viking", count: 2)], at: Hexes(["0610", "0612"])),
    ///                 (units: [(counter: "drakkar", count: 2)], at: Spaced(from: "0101", to: "0107", min_gap: 1)),
    /// ```
    pub META = ("setup::hidden-in-plain-sight", Warning, "a hidden set-up in which the scenario names the hex of every unit");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let hidden: Vec<usize> = (cx.scenario.sides.iter().enumerate())
        .filter(|(_, side)| match &side.forces {
            Forces::Placed { hidden, .. } => *hidden,
            Forces::Zoned(_) | Forces::Table(_) => false,
        })
        .map(|(s, _)| s)
        .collect();
    if hidden.is_empty() {
        return;
    }
    let board = cx.board(1);
    for s in hidden {
        let pieces: Vec<(PieceState, u16)> = (board.pieces.iter())
            .filter(|p| p.side == Some(s))
            .filter(|p| !matches!(p.state, PieceState::Arrived { .. }))
            .map(|p| (p.state, p.count))
            .collect();
        if pieces.is_empty() || pieces.iter().any(|(state, _)| *state != PieceState::Placed) {
            continue;
        }
        let units: u32 = pieces.iter().map(|(_, n)| u32::from(*n)).sum();
        let side = &cx.scenario.sides[s];
        sink.push(
            Report::new(
                &META,
                Place::side(s).field("forces").variant("Placed").field("hidden"),
                format!(
                    "side `{}` sets up hidden, but the scenario names the hex of each of its {} units on the map: there is nothing to hide",
                    side.id, units
                ),
            )
            .help("give the units a choice of hexes (more hexes than units, a `Spaced` run), or drop `hidden`"),
        );
    }
}
