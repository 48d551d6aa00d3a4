use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::Rules;
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks the rolls of the rules: the roll on which a leader escapes must be a face
    /// of the die, and the escape roll and the number of levels lost from which it
    /// applies are given together.
    ///
    /// ## Why is this bad?
    /// A roll that never comes up turns "escapes only on a 1" into "never escapes", and
    /// half of the rule stated is a rule an engine cannot apply.
    ///
    /// ## Example
    /// ```ron
    /// leader_loss: Some((after: ["melee"], die: 6, escape_only_from: Some(6), escape_roll: Some(7))),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// leader_loss: Some((after: ["melee"], die: 6, escape_only_from: Some(6), escape_roll: Some(1))),
    /// ```
    pub META = ("rules::impossible-roll", Error, "a roll of the rules that can never come up");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(impossible_rolls(&system.rules), sink);
    }
}

/// Rolls that cannot come up.
pub fn impossible_rolls(rules: &Rules) -> Vec<Report> {
    let Some(l) = &rules.leader_loss else {
        return Vec::new();
    };
    let base = Place::rules().field("leader_loss");
    let mut out = Vec::new();
    match (l.escape_only_from, l.escape_roll) {
        (Some(_), None) => out.push(
            Report::new(
                &META,
                base.field("escape_only_from"),
                "an escape threshold without the roll that escapes",
            )
            .help("give `escape_roll`"),
        ),
        (None, Some(_)) => out.push(
            Report::new(
                &META,
                base.field("escape_roll"),
                "an escape roll without the number of levels from which it applies",
            )
            .help("give `escape_only_from`"),
        ),
        _ => {}
    }
    if let Some(r) = l.escape_roll
        && (r == 0 || r > l.die)
    {
        out.push(
            Report::new(
                &META,
                base.field("escape_roll"),
                format!("a roll of {r} never comes up on a {}-sided die", l.die),
            )
            .label(base.field("die"), "the die")
            .help(format!("give a roll from 1 to {}", l.die)),
        );
    }
    out
}
