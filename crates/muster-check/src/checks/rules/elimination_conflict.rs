use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::Proximity;
use muster_model::system::{RulesSystem, UnitKind};
use muster_semantic::FileCx;
use muster_semantic::rules::{kinds_named, may_share_hex};

declare_check! {
    /// ## What it does
    /// Checks the troops eliminated together with a unit they stand with
    /// (`eliminated_with`): each entry names the units that take them, never the troops
    /// themselves, and troops eliminated with the units they are stacked with must be
    /// able to stack with at least one of them under the system's stacking rules.
    ///
    /// ## Why is this bad?
    /// Baggage "eliminated with itself" says nothing, and baggage that may never share
    /// a hex with the units it falls with is a rule that never applies: most often a
    /// troop type or a stacking rider missing.
    ///
    /// ## Example
    /// ```ron
    /// stacking: UnitsPerHex(combat_units: 1, riders: [(role: Commander, max: 1)]),
    /// eliminated_with: [(troops: ["baggage"], with: ["infantry"], reach: Stacked)],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// stacking: UnitsPerHex(combat_units: 1, riders: [(role: Commander, max: 1), (role: Baggage, max: 1)]),
    /// eliminated_with: [(troops: ["baggage"], with: ["infantry"], reach: Stacked)],
    /// ```
    pub META = ("rules::elimination-conflict", Error, "troops eliminated with themselves, or with units they never stand with");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(elimination_conflicts(system), sink);
    }
}

/// Troops eliminated with nobody or with themselves, and troops eliminated with the
/// units they are stacked with that the stacking rules never let them stack with.
pub fn elimination_conflicts(system: &RulesSystem) -> Vec<Report> {
    let mut out = Vec::new();
    for (i, e) in system.rules.eliminated_with.iter().enumerate() {
        let base = Place::rules().field("eliminated_with").index(i);
        if e.with.is_empty() {
            out.push(
                Report::new(&META, base.field("with"), "eliminated with nobody")
                    .help("list the units whose elimination takes these troops"),
            );
        }
        for (k, w) in e.with.iter().enumerate() {
            if e.troops.contains(w) {
                out.push(
                    Report::new(
                        &META,
                        base.field("with").index(k),
                        format!("`{w}` is eliminated with itself"),
                    )
                    .help(format!(
                        "name in `with` the units `{w}` stands with, not `{w}` itself"
                    )),
                );
            }
        }
        if e.reach != Proximity::Stacked {
            continue;
        }
        let theirs: Vec<&UnitKind> = e.with.iter().flat_map(|w| kinds_named(system, w)).collect();
        for (k, t) in e.troops.iter().enumerate() {
            let mine = kinds_named(system, t);
            if mine.is_empty() || theirs.is_empty() {
                continue; // rules::unknown-name
            }
            if !mine
                .iter()
                .any(|m| theirs.iter().any(|o| may_share_hex(system, m, o)))
            {
                out.push(
                    Report::new(&META,
                        base.field("troops").index(k),
                        format!(
                            "`{t}` never shares a hex with {}, so it is never eliminated with them",
                            e.with
                                .iter()
                                .map(|w| format!("`{w}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    )
                    .label(Place::top("stacking"), "the stacking rules")
                    .help("let the stacking rules put them together, or name units it does stack with"),
                );
            }
        }
    }
    out
}
