use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::defence_conflicts;

declare_check! {
    /// ## What it does
    /// Checks the defences that terrain never changes (`fixed_defences`): two entries
    /// without a condition may not give one troop name two values against the same
    /// attacks, and a defence against fire (or melee) may not cover troops that a
    /// permission says are never fired on (or never attacked in melee).
    ///
    /// ## Why is this bad?
    /// A fleet whose fire protection is both 4 and 3 leaves an engine to guess which to
    /// use, and a defence against an attack that never comes is a mistyped attack kind
    /// or a permission that says too much.
    ///
    /// ## Example
    /// ```ron
    /// fixed_defences: [
    ///     (troops: ["fleet"], against: Fire, value: 4),
    ///     (troops: ["fleet"], against: Any, value: 3),
    /// ],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// fixed_defences: [
    ///     (troops: ["fleet"], against: Fire, value: 4),
    ///     (troops: ["baggage"], against: Any, value: 1),
    /// ],
    /// ```
    pub META = ("rules::defence-conflict", Error, "a troop type given two fixed defences, or one against an attack it never suffers");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, defence_conflicts(system), sink);
    }
}
