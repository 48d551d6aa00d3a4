//! `structure::unknown-kind`: muster cannot tell what kind of file this is.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a file that neither starts with a known struct name (`System`, `CounterSheet`, `Map`, `Scenario`) nor has a known name suffix.
    ///
    /// ## Why is this bad?
    /// muster would not know which format to check it against.
    ///
    /// ## Example
    /// ```ron
    /// // in `invalid.ron`: neither the name nor the text says what the file is
    /// (id: "x")
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// // in `invalid.scenario.ron`, or:
    /// Scenario(id: "x", ...)
    /// ```
    pub UNKNOWN_KIND = ("structure::unknown-kind", Error, "muster cannot tell what kind of file this is");
}
