//! `structure::unterminated-string`: a string whose closing quote is missing.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a string that is not closed on its own line. RON strings may run across lines, so a missing quote makes the string swallow text up to the next quote; muster points at the string where it starts, not at the confusion it causes later.
    ///
    /// ## Why is this bad?
    /// The fields after it are read as text, and the file cannot be checked.
    ///
    /// ## Example
    /// ```ron
    /// name: "Fixture battle,
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// name: "Fixture battle",
    /// ```
    pub UNTERMINATED_STRING = ("structure::unterminated-string", Error, "a string is never closed");
}
