//! `suppression::not-allowed`: a suppression of a finding that cannot be silenced.

use muster_db::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a suppression naming a code that makes the file unusable: structure errors, unknown references, references outside the project root.
    ///
    /// ## Why is this bad?
    /// Such a file cannot be checked or loaded by an engine; the finding must be fixed, not hidden.
    ///
    /// ## Example
    /// ```ron
    /// map: "test-map", // muster: allow(references::unknown-file) reason: the map is being redrawn
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// map: "test-map",
    /// ```
    pub NOT_ALLOWED = ("suppression::not-allowed", Error, "a suppression of a finding that cannot be silenced");
}
