//! `structure::unreadable`: the file cannot be read.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a file that exists but cannot be read (permissions, a folder given as a file).
    ///
    /// ## Why is this bad?
    /// Nothing in it can be checked.
    ///
    /// ## Example
    /// ```ron
    /// (a file without read permission)
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (the same file, readable)
    /// ```
    pub UNREADABLE = ("structure::unreadable", Error, "the file cannot be read");
}
