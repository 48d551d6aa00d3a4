use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::sight_conflicts;

declare_check! {
    /// ## What it does
    /// Checks the line of sight's elevations and occupied-hex rules: every elevation
    /// once, every terrain at one elevation, at most one elevation taking the terrain
    /// not listed, one occupied-hex rule per firer elevation, no occupied-hex rules
    /// when units never block, and not both `occupied_blocks` and
    /// `lower_units_block_within`.
    ///
    /// ## Why is this bad?
    /// A hex at two elevations, or two rules for one firer, give two answers to
    /// whether a line of sight is clear.
    ///
    /// ## Example
    /// ```ron
    /// elevations: [
    ///     (id: "ground", name: "Ground level"),
    ///     (id: "slope", name: "Slope", terrain: ["slope", "hilltop"]),
    ///     (id: "hilltop", name: "Hilltop", terrain: ["hilltop"]),
    /// ],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// elevations: [
    ///     (id: "ground", name: "Ground level"),
    ///     (id: "slope", name: "Slope", terrain: ["slope"]),
    ///     (id: "hilltop", name: "Hilltop", terrain: ["hilltop"]),
    /// ],
    /// ```
    pub META = ("rules::sight-conflict", Error, "line-of-sight elevations or occupied-hex rules that contradict each other");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, sight_conflicts(system), sink);
    }
}
