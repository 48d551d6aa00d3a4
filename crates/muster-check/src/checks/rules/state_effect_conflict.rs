use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::state_effect_conflicts;

declare_check! {
    /// ## What it does
    /// Checks the effects of status levels (`status_effects`) and of panic
    /// (`panic.effects`): shares above 0 and at most 1, no effect given twice, no
    /// effects for a level that removes the unit, and no `Never` effect on an action a
    /// permission binds the same troops to at that level.
    ///
    /// ## Why is this bad?
    /// A share of 0 or above 1 is not a reduction, two shares give two answers, and a
    /// unit that must and may never act at once cannot be played.
    ///
    /// ## Example
    /// ```ron
    /// status_effects: [
    ///     (troops: ["fleet"], status: "disrupted", effects: [MovementShare(2.0), MovementShare(0.5)]),
    /// ],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// status_effects: [(troops: ["fleet"], status: "disrupted", effects: [MovementShare(0.5), Never(Attack)])],
    /// ```
    pub META = ("rules::state-effect-conflict", Error, "effects of a status level or of panic that contradict themselves or a permission");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, state_effect_conflicts(system), sink);
    }
}
