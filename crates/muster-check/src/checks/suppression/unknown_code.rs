//! `suppression::unknown-code`: a suppression naming no known check.

use muster_db::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a code in `allow(...)` that no check has, with the nearest known code.
    ///
    /// ## Why is this bad?
    /// A misspelt code silences nothing, and the finding it was meant for is still reported.
    ///
    /// ## Example
    /// ```ron
    /// // muster: allow(setup::impasable-terrain) reason: drakkars sail on the river
    /// (units: [(counter: "drakkar", count: 2)], at: Spaced(from: "0101", to: "0107", min_gap: 1)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// // muster: allow(setup::impassable-terrain) reason: drakkars sail on the river
    /// (units: [(counter: "drakkar", count: 2)], at: Spaced(from: "0101", to: "0107", min_gap: 1)),
    /// ```
    pub UNKNOWN_CODE = ("suppression::unknown-code", Error, "a suppression naming no known check");
}
