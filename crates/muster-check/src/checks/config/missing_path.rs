//! `config::missing-path`: muster.toml lists a path that does not exist.

use muster_db::declare_check;

declare_check! {
    /// ## What it does
    /// Reports an entry of `[paths] check` that names no file or folder under the project root.
    ///
    /// ## Why is this bad?
    /// The files meant to be checked would not be, and CI would pass without looking at them.
    ///
    /// ## Example
    /// ```toml
    /// [paths]
    /// check = ["mpas"]
    /// ```
    ///
    /// Use instead:
    /// ```toml
    /// [paths]
    /// check = ["maps"]
    /// ```
    pub MISSING_PATH = ("config::missing-path", Error, "muster.toml lists a path that does not exist");
}
