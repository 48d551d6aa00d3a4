//! `structure::unknown-field`: a field the format does not have.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a field name that the file kind does not define, with the closest known name.
    ///
    /// ## Why is this bad?
    /// A misspelt field is otherwise silently ignored, and the value the author meant to set is never used.
    ///
    /// ## Example
    /// ```ron
    /// (counter: "saxe", cuont: 2)
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (counter: "saxe", count: 2)
    /// ```
    pub UNKNOWN_FIELD = ("structure::unknown-field", Error, "a field the format does not have");
}
