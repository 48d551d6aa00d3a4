//! `structure::schema-violation`: a value outside what the schema allows.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Validates the parsed file against its JSON Schema (in `schema/`) and reports values outside the allowed range, such as a count of zero.
    ///
    /// ## Why is this bad?
    /// Such a value parses but means nothing: zero copies of a counter, a game of zero turns.
    ///
    /// ## Example
    /// ```ron
    /// turns: 0
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// turns: 7
    /// ```
    pub SCHEMA_VIOLATION = ("structure::schema-violation", Error, "a value outside what the schema allows");
}
