use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::ladder_problems;

declare_check! {
    /// ## What it does
    /// Checks that the status ladder and the results that walk it fit together: at
    /// least two levels, none repeated; no result losing more levels than the ladder
    /// has above a floor with nothing beyond it; every level below the floor reached
    /// by some result (or by the share of bases lost, for a level that removes the
    /// unit); recoveries of a size the ladder allows; and a charge stop that some result
    /// of its table can cause.
    ///
    /// ## Why is this bad?
    /// Levels lost past the end of the ladder vanish, a level nothing reaches is dead
    /// data, and a charge stop at more levels than the table ever inflicts never
    /// happens: each is a transcription slip in the ladder or the table.
    ///
    /// ## Example
    /// ```ron
    /// (from: Some(8), result: LoseLevels(4)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (from: Some(8), result: ToLevel("destroyed")),
    /// ```
    pub META = ("rules::ladder-skipped", Error, "a status ladder that results run past or never reach");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, ladder_problems(&system.rules), sink);
    }
}
