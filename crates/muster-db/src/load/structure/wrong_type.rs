//! `structure::wrong-type`: a value of the wrong type.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a value whose type does not fit the field: text where a number is expected, a list where a single value is expected.
    ///
    /// ## Why is this bad?
    /// The item cannot be read as intended.
    ///
    /// ## Example
    /// ```ron
    /// turns: "7",
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// turns: 7,
    /// ```
    pub WRONG_TYPE = ("structure::wrong-type", Error, "a value of the wrong type");
}
