//! `structure::syntax`: the file is not valid RON or JSON.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports text that the RON (or JSON) parser cannot read: unbalanced brackets, a missing comma, an unterminated string.
    ///
    /// ## Why is this bad?
    /// Nothing else in the file can be checked until it parses.
    ///
    /// ## Example
    /// ```ron
    /// turns: 7
    /// deploys_first: "red",
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// turns: 7,
    /// deploys_first: "red",
    /// ```
    pub SYNTAX = ("structure::syntax", Error, "the file is not valid RON or JSON");
}
