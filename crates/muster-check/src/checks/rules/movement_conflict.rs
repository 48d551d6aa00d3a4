use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::Rules;
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks the minimum move (`movement.minimum_move`): it may not be given for a
    /// status level that removes the unit.
    ///
    /// ## Why is this bad?
    /// A unit removed from play never moves again, so a move it "may always make" at
    /// that level is a slip for another level (most often the one above it).
    ///
    /// ## Example
    /// ```ron
    /// movement: Some((minimum_move: Some((hexes: 1, status: ["eliminated"])))),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// movement: Some((minimum_move: Some((hexes: 1, status: ["normal"], whole_move: true)))),
    /// ```
    pub META = ("rules::movement-conflict", Error, "a minimum move for a level that removes the unit");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(movement_conflicts(&system.rules), sink);
    }
}

/// A minimum move for a level that removes the unit.
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
    out
}
