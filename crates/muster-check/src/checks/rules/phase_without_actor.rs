use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::{Actor, Rules, TurnPart};
use muster_semantic::FileCx;
use std::collections::BTreeMap;

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
        super::report(phase_problems(&system.rules), sink);
    }
}

/// Phases that name nobody, name the phasing player outside a player-turn, or share an
/// id; a sequence with no phase.
pub fn phase_problems(rules: &Rules) -> Vec<Report> {
    let Some(seq) = &rules.sequence else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let base = Place::rules().field("sequence");
    let mut seen: BTreeMap<&str, Place> = BTreeMap::new();
    let mut any = false;
    for (part, i, phase) in seq.phases() {
        any = true;
        let at = base.field(part.field()).index(i);
        if phase.acts.is_empty() {
            out.push(
                Report::new(
                    &META,
                    at.field("acts"),
                    format!("phase `{}` names nobody to act in it", phase.id),
                )
                .help("name `Phasing`, `NonPhasing` or `Both`"),
            );
        }
        if part != TurnPart::PlayerTurn {
            for (k, a) in phase.acts.iter().enumerate() {
                if matches!(a, Actor::Phasing | Actor::NonPhasing) {
                    out.push(
                        Report::new(&META,
                            at.field("acts").index(k),
                            format!(
                                "phase `{}` comes {} the player-turns, where there is no phasing player",
                                phase.id,
                                if part == TurnPart::StartOfTurn { "before" } else { "after" }
                            ),
                        )
                        .help("write `Both`, or move the phase into `player_turn`"),
                    );
                }
            }
        }
        match seen.get(phase.id.as_str()) {
            Some(first) => out.push(
                Report::new(
                    &META,
                    at.field("id"),
                    format!("phase id `{}` is given twice", phase.id),
                )
                .label(first.field("id"), "first given here")
                .help("give each phase an id of its own"),
            ),
            None => {
                seen.insert(&phase.id, at);
            }
        }
    }
    if !any {
        out.push(
            Report::new(&META, base, "the sequence of play has no phase")
                .help("list the phases in `player_turn` (and `start_of_turn` or `end_of_turn`)"),
        );
    }
    out
}
