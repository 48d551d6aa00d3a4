use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::trigger_conflicts;

declare_check! {
    /// ## What it does
    /// Checks the morale triggers and modifiers: a troop name may not both test and be
    /// exempt on the same trigger, a trigger may not make test a troop type that never
    /// tests, a distance that triggers a test must be above zero, and a morale modifier
    /// must change the value and may not be given to a troop type that never tests.
    ///
    /// ## Why is this bad?
    /// Contradictory triggers leave an engine to guess whether a unit tests; a trigger
    /// at zero inches never fires; a modifier of 0, or for troops that never test, is
    /// never applied.
    ///
    /// ## Example
    /// ```ron
    /// (event: Charging, troops: ["*", "leader"], exempt: ["leader"]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (event: Charging, troops: ["*"], exempt: ["leader"]),
    /// ```
    pub META = ("rules::trigger-conflict", Error, "a morale trigger or modifier that contradicts itself or who never tests");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, trigger_conflicts(system), sink);
    }
}
