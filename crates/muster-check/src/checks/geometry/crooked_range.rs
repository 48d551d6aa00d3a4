use muster_hex::RangeError;

use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that the two ends of a range share a column (`0307` to `0309`) or a row
    /// (`0315` to `0915`).
    ///
    /// ## Why is this bad?
    /// Rulebook ranges run along one column or one row; two ends in neither do not say
    /// which hexes are meant.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "red-cavalry", count: 3)], at: Range("0307", "0409")),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "red-cavalry", count: 3)], at: Range("0307", "0309")),
    /// ```
    pub META = ("geometry::crooked-range", Error, "a range whose ends share neither column nor row");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    super::ranges_that_are(cx, sink, &META, RangeError::NotInLine, |a, b| {
        (
            format!("range `{a}` to `{b}` is not a straight column or row"),
            "list the hexes with `Hexes([...])` or fix the end that is wrong".to_string(),
        )
    });
}
