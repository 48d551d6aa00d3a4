//! `structure::missing-field`: a required field is missing.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a struct that lacks a field the format requires.
    ///
    /// ## Why is this bad?
    /// Without it muster cannot check the item, and an engine could not load it.
    ///
    /// ## Example
    /// ```ron
    /// Scenario(
    ///     // ...
    ///     counters: "test-counters",
    ///     turns: 7,
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Scenario(
    ///     // ...
    ///     counters: "test-counters",
    ///     map: "test-map",
    ///     turns: 7,
    /// ```
    pub MISSING_FIELD = ("structure::missing-field", Error, "a required field is missing");
}
