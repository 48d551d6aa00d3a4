//! `structure::syntax`: the file is not valid RON or JSON.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports text that muster cannot read as RON (or JSON) and that has no more precise code: a malformed escape or number, text after the file's value, a file that ends early, nesting deeper than muster reads. (Unclosed brackets, unterminated strings and misplaced tokens have codes of their own.)
    ///
    /// ## Why is this bad?
    /// Nothing else in the file can be checked until it parses.
    ///
    /// ## Example
    /// ```ron
    /// name: "Fixture \q battle",
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// name: "Fixture battle",
    /// ```
    pub SYNTAX = ("structure::syntax", Error, "the file is not valid RON or JSON");
}
