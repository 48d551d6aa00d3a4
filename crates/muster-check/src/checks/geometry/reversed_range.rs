use muster_hex::RangeError;

use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that a range such as `0307 à 0309` runs forwards: the first hex has the
    /// lower row (in a column) or the lower column (in a row).
    ///
    /// ## Why is this bad?
    /// A reversed range is usually a typo in one end; read literally it holds no hex.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "red-cavalry", count: 3)], at: Range("0309", "0307")),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "red-cavalry", count: 3)], at: Range("0307", "0309")),
    /// ```
    pub META = ("geometry::reversed-range", Error, "a range whose end comes before its start");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    super::ranges_that_are(cx, sink, &META, RangeError::Reversed, |a, b| {
        (
            format!("range `{a}` to `{b}` runs backwards"),
            format!("write it as `{b}` to `{a}`"),
        )
    });
}
