//! `config::unknown-check`: muster.toml names a check that does not exist.

use muster_db::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a key of `[checks]` that is not a registered check code, with the nearest code.
    ///
    /// ## Why is this bad?
    /// The setting would silently do nothing.
    ///
    /// ## Example
    /// ```toml
    /// [checks]
    /// "stacking::overstacked" = "warning"
    /// ```
    ///
    /// Use instead:
    /// ```toml
    /// [checks]
    /// "stacking::over-stacked" = "warning"
    /// ```
    pub UNKNOWN_CHECK = ("config::unknown-check", Error, "muster.toml names a check that does not exist");
}
