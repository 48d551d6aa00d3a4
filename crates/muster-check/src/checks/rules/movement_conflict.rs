use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::movement_conflicts;

declare_check! {
    /// ## What it does
    /// Checks the minimum move (`movement.minimum_move`): not for a status level that
    /// removes the unit, and the same number of hexes as `leader_control.always_hexes`
    /// when both are given.
    ///
    /// ## Why is this bad?
    /// Two different numbers of hexes a unit "may always move" leave an engine to
    /// guess which one holds.
    ///
    /// ## Example
    /// ```ron
    /// leader_control: Some((beyond_radius_factor: 0.5, always_hexes: Some(2))),
    /// movement: Some((minimum_move: Some((hexes: 1, status: ["normal"])))),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// leader_control: Some((beyond_radius_factor: 0.5, always_hexes: Some(1))),
    /// movement: Some((minimum_move: Some((hexes: 1, status: ["normal"], whole_move: true)))),
    /// ```
    pub META = ("rules::movement-conflict", Error, "a minimum move for a level that removes the unit, or that disagrees with leader control");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, movement_conflicts(&system.rules), sink);
    }
}
