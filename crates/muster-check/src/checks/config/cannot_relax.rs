//! `config::cannot-relax`: muster.toml turns off an error that cannot be relaxed.

use muster_db::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a `[checks]` entry that turns off, or makes a warning of, a check whose findings make a file unusable (`structure::*`, unknown references).
    ///
    /// ## Why is this bad?
    /// Those files cannot be checked further or loaded by an engine; hiding the error hides a broken file.
    ///
    /// ## Example
    /// ```toml
    /// [checks]
    /// "structure::syntax" = "off"
    /// ```
    ///
    /// Use instead:
    /// ```toml
    /// [checks]
    /// "morale::threshold-unreachable" = "off"
    /// ```
    pub CANNOT_RELAX = ("config::cannot-relax", Error, "muster.toml turns off an error that cannot be relaxed");
}
