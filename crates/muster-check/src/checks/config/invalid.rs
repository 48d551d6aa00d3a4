//! `config::invalid`: muster.toml is not a valid project file.

use muster_db::declare_check;

declare_check! {
    /// ## What it does
    /// Reports TOML syntax errors, unknown sections or keys, and values of the wrong kind in `muster.toml`. Its sections are `[paths]` (`check`), `[checks]` (code = "off" | "warning" | "error") and `[compile]` (`out`).
    ///
    /// ## Why is this bad?
    /// A setting muster cannot read is ignored, so the project would not be checked the way its authors intend.
    ///
    /// ## Example
    /// ```toml
    /// [chekcs]
    /// "morale::threshold-unreachable" = "warning"
    /// ```
    ///
    /// Use instead:
    /// ```toml
    /// [checks]
    /// "morale::threshold-unreachable" = "warning"
    /// ```
    pub INVALID = ("config::invalid", Error, "muster.toml is not a valid project file");
}
