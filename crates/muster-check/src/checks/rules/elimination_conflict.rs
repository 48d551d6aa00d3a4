use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::elimination_conflicts;

declare_check! {
    /// ## What it does
    /// Checks the troops eliminated together with a unit they stand with
    /// (`eliminated_with`): each entry names the units that take them, never the troops
    /// themselves, and troops eliminated with the units they are stacked with must be
    /// able to stack with at least one of them under the system's stacking rules.
    ///
    /// ## Why is this bad?
    /// Baggage "eliminated with itself" says nothing, and baggage that may never share
    /// a hex with the units it falls with is a rule that never applies: most often a
    /// troop type or a stacking rider missing.
    ///
    /// ## Example
    /// ```ron
    /// stacking: UnitsPerHex(combat_units: 1, riders: [(role: Commander, max: 1)]),
    /// eliminated_with: [(troops: ["baggage"], with: ["infantry"], reach: Stacked)],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// stacking: UnitsPerHex(combat_units: 1, riders: [(role: Commander, max: 1), (role: Baggage, max: 1)]),
    /// eliminated_with: [(troops: ["baggage"], with: ["infantry"], reach: Stacked)],
    /// ```
    pub META = ("rules::elimination-conflict", Error, "troops eliminated with themselves, or with units they never stand with");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, elimination_conflicts(system), sink);
    }
}
