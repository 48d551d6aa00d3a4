//! `structure::unknown-variant`: a variant name the format does not have.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports an enum variant (a placement, a terrain effect, a victory level) that muster does not know, with the closest known one.
    ///
    /// ## Why is this bad?
    /// The value cannot be interpreted; a typo would otherwise change the meaning of the rule.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexs(["0903", "1004"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    pub UNKNOWN_VARIANT = ("structure::unknown-variant", Error, "a variant name the format does not have");
}
