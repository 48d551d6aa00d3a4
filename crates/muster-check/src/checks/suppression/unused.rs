//! `suppression::unused`: a suppression that silences nothing.

use muster_db::declare_check;

declare_check! {
    /// ## What it does
    /// Warns when a suppression's code is not reported on the line it applies to. While the file has an error that stops it being checked (syntax, an unknown reference), suppressions are not judged. A second `allow` of a code for a line that an earlier one already silences is reported as the duplicate it is, with the `allow` that silences it.
    ///
    /// ## Why is this bad?
    /// Stale suppressions hide nothing today but would hide a new finding tomorrow; they also mislead readers.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])), // muster: allow(geometry::off-map) reason: old map
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    pub UNUSED = ("suppression::unused", Warning, "a suppression that silences nothing");
}
