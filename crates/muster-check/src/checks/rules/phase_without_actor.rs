use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::phase_problems;

declare_check! {
    /// ## What it does
    /// Checks the sequence of play: every phase names who acts in it, the phasing and
    /// non-phasing players appear only inside a player-turn (before and after the
    /// player-turns there is no phasing player), phase ids are unique, and the sequence
    /// has at least one phase.
    ///
    /// ## Why is this bad?
    /// A phase in which nobody acts cannot be played, and "the phasing player" in the
    /// turn record names nobody: an engine following the sequence would stall or give
    /// the phase to the wrong player.
    ///
    /// ## Example
    /// ```ron
    /// end_of_turn: [(id: "turn-record", name: "Turn record", acts: [Phasing])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// end_of_turn: [(id: "turn-record", name: "Turn record", acts: [Both])],
    /// ```
    pub META = ("rules::phase-without-actor", Error, "a phase of the sequence of play that names nobody or a player who is not there");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, phase_problems(&system.rules), sink);
    }
}
