use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::terrain_exception_conflicts;

declare_check! {
    /// ## What it does
    /// Checks each terrain exception against the terrain it names: a crossing cost
    /// waived (`NoCrossingCost`, `WholeMove`) needs a terrain with a crossing cost;
    /// `RoadOnly` needs a terrain that otherwise prohibits the troop type; fire limited
    /// as for cover (`TargetsOnlyWithin`) needs a terrain that gives cover; and any
    /// other exception needs a troop type that may be there at all.
    ///
    /// ## Why is this bad?
    /// An exception that can never apply is a rule an engine will never use, and most
    /// often means the terrain's own values (its crossing cost, cover or prohibited
    /// list) were transcribed wrongly.
    ///
    /// ## Example
    /// ```ron
    /// (terrain: ["rough"], troops: ["leader"], effect: NoCrossingCost),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (terrain: ["bridge"], troops: ["leader"], effect: NoCrossingCost),
    /// ```
    pub META = ("rules::terrain-exception-conflict", Error, "a terrain exception that contradicts the terrain it names");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, terrain_exception_conflicts(system), sink);
    }
}
