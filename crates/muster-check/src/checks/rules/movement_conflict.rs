use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::Rules;
use muster_semantic::FileCx;

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
        super::report(movement_conflicts(&system.rules), sink);
    }
}

/// A minimum move for a level that removes the unit, or that disagrees with the hexes
/// leaders' control says a unit may always move.
pub fn movement_conflicts(rules: &Rules) -> Vec<Report> {
    let Some(m) = rules
        .movement
        .as_ref()
        .and_then(|m| m.minimum_move.as_ref())
    else {
        return Vec::new();
    };
    let base = Place::rules().field("movement").field("minimum_move");
    let mut out = Vec::new();
    if let Some(ladder) = &rules.status {
        for (k, id) in m.status.iter().enumerate() {
            if ladder.levels.iter().any(|l| &l.id == id && l.removes) {
                out.push(
                    Report::new(
                        &META,
                        base.field("status").index(k),
                        format!("status level `{id}` removes the unit, which never moves again"),
                    )
                    .help("name the levels at which a unit still moves"),
                );
            }
        }
    }
    if let Some(always) = rules.leader_control.as_ref().and_then(|c| c.always_hexes)
        && always != m.hexes
    {
        out.push(
            Report::new(&META,
                base.field("hexes"),
                format!(
                    "a unit may always move {} hex{}, yet under leaders' control it may always move {always}",
                    m.hexes,
                    if m.hexes == 1 { "" } else { "es" }
                ),
            )
            .label(Place::rules().field("leader_control").field("always_hexes"), "under leaders' control")
            .help("give both the same number of hexes"),
        );
    }
    out
}
