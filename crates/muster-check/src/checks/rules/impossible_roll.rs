use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::impossible_rolls;

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
        super::report(&META, impossible_rolls(&system.rules), sink);
    }
}
