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
    /// deploys_frist: "red",
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// deploys_first: "red",
    /// ```
    pub UNKNOWN_FIELD = ("structure::unknown-field", Error, "a field the format does not have");
}
