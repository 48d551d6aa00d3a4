//! `structure::too-large`: the file is above muster's size limit.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Refuses files larger than 4 MiB instead of parsing them.
    ///
    /// ## Why is this bad?
    /// Battle files are a few kilobytes; a huge file is almost certainly not one, and parsing it would stall the editor loop.
    ///
    /// ## Example
    /// ```ron
    /// (a 50 MB file)
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (split the data into several files)
    /// ```
    pub TOO_LARGE = ("structure::too-large", Error, "the file is above muster's size limit");
}
