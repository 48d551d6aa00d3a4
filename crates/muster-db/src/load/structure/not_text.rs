//! `structure::not-text`: the file is not UTF-8 text.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports bytes that are not valid UTF-8, pointing at the first bad byte.
    ///
    /// ## Why is this bad?
    /// Binary files and files saved in another encoding cannot be read as RON or JSON.
    ///
    /// ## Example
    /// ```ron
    /// (a file saved as Latin-1 with an accented name)
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (the same file saved as UTF-8)
    /// ```
    pub NOT_TEXT = ("structure::not-text", Error, "the file is not UTF-8 text");
}
