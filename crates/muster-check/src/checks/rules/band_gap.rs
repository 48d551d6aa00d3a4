use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::band_problems;

declare_check! {
    /// ## What it does
    /// Checks that the bands of each result table cover every value the table is read
    /// by, each value once: a difference table from any low value up, a margin table
    /// from 0 (a tie) up, with no gap between bands, no overlap and no band running
    /// backwards. The named force ratios must likewise cover every ratio from 1 to 1 up,
    /// each once, and ranges of men per base must not run backwards.
    ///
    /// ## Why is this bad?
    /// A roll that falls in a gap has no result, and one that falls in two bands has
    /// two: either way the table as written cannot be played, and it is most often a
    /// mistyped bound.
    ///
    /// ## Example
    /// ```ron
    /// (from: Some(1), to: Some(3), result: LoseLevels(1)),
    /// (from: Some(5), to: Some(5), result: LoseLevels(2)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (from: Some(1), to: Some(3), result: LoseLevels(1)),
    /// (from: Some(4), to: Some(5), result: LoseLevels(2)),
    /// ```
    pub META = ("rules::band-gap", Error, "result bands or force ratios that leave a gap, overlap or run backwards");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, band_problems(system), sink);
    }
}
