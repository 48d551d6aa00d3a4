//! `structure::unexpected-token`: a token where the format allows none of its kind.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a token that cannot stand where it is: a missing comma between two fields, a doubled comma, a stray bracket. The span is the token itself.
    ///
    /// ## Why is this bad?
    /// The file cannot be read past it, so nothing else in it is checked.
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
    pub UNEXPECTED_TOKEN = ("structure::unexpected-token", Error, "a token that does not fit here");
}
