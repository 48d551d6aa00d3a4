//! `structure::unclosed`: a bracket that is opened and never closed.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports an opening `(`, `[` or `{` that has no closing partner, at the opening bracket itself.
    ///
    /// ## Why is this bad?
    /// Everything after the bracket is read as part of it, so the rest of the file cannot be checked. A parser that only notices the problem at the end of the file, or on the next line, points far from the mistake.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    pub UNCLOSED = ("structure::unclosed", Error, "a bracket is never closed");
}
