//! `suppression::missing-reason`: a suppression comment without a reason.

use muster_db::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a `// muster: allow(...)` comment that does not say why the finding is silenced. The suppression does not apply until it does.
    ///
    /// ## Why is this bad?
    /// A silenced finding without a reason is indistinguishable from a hidden mistake; the next author cannot tell whether it still holds.
    ///
    /// ## Example
    /// ```ron
    /// // muster: allow(setup::impassable-terrain)
    /// (units: [(counter: "drakkar", count: 2)], at: Spaced(from: "0101", to: "0107", min_gap: 1)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// // muster: allow(setup::impassable-terrain) reason: drakkars sail on the river
    /// (units: [(counter: "drakkar", count: 2)], at: Spaced(from: "0101", to: "0107", min_gap: 1)),
    /// ```
    pub MISSING_REASON = ("suppression::missing-reason", Error, "a suppression comment without a reason");
}
