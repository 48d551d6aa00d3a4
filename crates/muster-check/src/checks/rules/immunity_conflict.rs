use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::immunity_conflicts;

declare_check! {
    /// ## What it does
    /// Checks the immunities to combat results: each must name at least one result
    /// code, and an immunity without a condition may not cover a troop type that a
    /// morale trigger on the same result code names by the same name.
    ///
    /// ## Why is this bad?
    /// A unit that both ignores a `T` result and must test its morale on it leaves an
    /// engine to guess which rule wins.
    ///
    /// ## Example
    /// ```ron
    /// immunities: [(troops: ["baggage"], results: ["T"])],
    /// morale: Some((triggers: [(event: CombatResult("T"), troops: ["infantry", "baggage"])])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// immunities: [
    ///     (troops: ["baggage"], results: ["R", "T"]),
    /// ],
    /// morale: Some((triggers: [(event: CombatResult("T"), troops: ["*"])])),
    /// ```
    pub META = ("rules::immunity-conflict", Error, "an immunity to nothing, or to a result a trigger tests the same troops on");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, immunity_conflicts(system), sink);
    }
}
