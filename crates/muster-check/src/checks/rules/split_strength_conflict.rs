use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;
use muster_semantic::rules::combat::split_contradicts_once;

declare_check! {
    /// ## What it does
    /// Checks that the combat rules do not let a unit split its strength among attacks
    /// (`split_strength: (allowed: true)`) while allowing it one attack a combat phase
    /// (`once_per_phase: (each_attacker_once: true)`).
    ///
    /// ## Why is this bad?
    /// Strength split among attacks is used in two attacks or more, which the other
    /// rule forbids: one of the two is mistyped, most often `allowed` (the rulebooks
    /// that print both say strength may never be split).
    ///
    /// ## Example
    /// ```ron
    /// split_strength: Some((section: "7.4", allowed: true)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// split_strength: Some((section: "7.4", allowed: false)),
    /// ```
    pub META = ("rules::split-strength-conflict", Error, "a unit's strength may be split among attacks, yet it attacks once a phase");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(split_strength_conflicts(system), sink);
    }
}

/// The report when split strength contradicts one attack a phase.
pub fn split_strength_conflicts(system: &RulesSystem) -> Vec<Report> {
    let Some((split, once)) = system
        .rules
        .combat
        .as_ref()
        .and_then(split_contradicts_once)
    else {
        return Vec::new();
    };
    let combat = Place::rules().field("combat");
    vec![
        Report::new(
            &META,
            combat.field("split_strength").field("allowed"),
            format!(
                "strength may be split among attacks ({}), but a unit takes part in one attack a combat phase ({})",
                split.section, once.section
            ),
        )
        .label(
            Loc::Value(combat.field("once_per_phase").field("each_attacker_once")),
            "one attack a phase",
        )
        .help("set `allowed: false`, or `each_attacker_once: false` if a unit may attack more than once"),
    ]
}
