use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::Proximity;
use muster_model::system::{RulesSystem, UnitKind};
use muster_model::vocab::{Condition, Effect};
use muster_semantic::FileCx;
use muster_semantic::rules::vocab::{admits_kind, effect_rules};
use muster_semantic::rules::{kinds_named, may_share_hex};

declare_check! {
    /// ## What it does
    /// Checks the rules that eliminate a unit with another (`FallsWith`): each names
    /// the units that take it, never the troops its own condition asks for, and troops
    /// eliminated with the units they are stacked with must be able to stack with at
    /// least one of them under the system's stacking rules.
    ///
    /// ## Why is this bad?
    /// Baggage "eliminated with itself" says nothing, and baggage that may never share
    /// a hex with the units it falls with is a rule that never applies: most often a
    /// troop type or a stacking rider missing.
    ///
    /// ## Example
    /// ```ron
    /// stacking: UnitsPerHex(combat_units: 1, riders: [(role: Commander, max: 1)]),
    /// effects: [(id: "baggage-falls", section: "9.4", when: Some(Troop("baggage")), then: [FallsWith(with: ["infantry"], reach: Stacked)])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// stacking: UnitsPerHex(combat_units: 1, riders: [(role: Commander, max: 1), (role: Baggage, max: 1)]),
    /// effects: [(id: "baggage-falls", section: "9.4", when: Some(Troop("baggage")), then: [FallsWith(with: ["infantry"], reach: Stacked)])],
    /// ```
    pub META = ("rules::elimination-conflict", Error, "troops eliminated with themselves, or with units they never stand with");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(elimination_conflicts(system), sink);
    }
}

/// The troop types a condition asks for in any case: its own `Troop`, or those of the
/// members of its `All`.
fn own_troops(c: Option<&Condition>) -> Vec<&str> {
    match c {
        Some(Condition::Troop(t)) => vec![t.as_str()],
        Some(Condition::All(list)) => list
            .iter()
            .filter_map(|x| match x {
                Condition::Troop(t) => Some(t.as_str()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Units eliminated with nobody or with themselves, and units eliminated with those
/// they are stacked with that the stacking rules never let them stack with.
pub fn elimination_conflicts(system: &RulesSystem) -> Vec<Report> {
    let mut out = Vec::new();
    for r in effect_rules(system) {
        for (j, e) in r.rule.then.iter().enumerate() {
            let Effect::FallsWith { with, reach } = e else {
                continue;
            };
            let base = r.at.field("then").index(j).variant("FallsWith");
            if with.is_empty() {
                out.push(
                    Report::new(
                        &META,
                        base.field("with"),
                        format!("{} eliminates with nobody", r.what),
                    )
                    .help("list the units whose elimination takes these troops"),
                );
            }
            let own = own_troops(r.rule.when.as_ref());
            for (k, w) in with.iter().enumerate() {
                if own.contains(&w.as_str()) {
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
            if *reach != Proximity::Stacked {
                continue;
            }
            let theirs: Vec<&UnitKind> = with.iter().flat_map(|w| kinds_named(system, w)).collect();
            let mine: Vec<&UnitKind> = system
                .unit_kinds
                .iter()
                .filter(|k| {
                    r.rule
                        .when
                        .as_ref()
                        .is_none_or(|c| admits_kind(c, system, k))
                })
                .collect();
            if mine.is_empty() || theirs.is_empty() {
                continue; // rules::never-holds, rules::unknown-name
            }
            if !mine
                .iter()
                .any(|m| theirs.iter().any(|o| may_share_hex(system, m, o)))
            {
                out.push(
                    Report::new(
                        &META,
                        base.field("with"),
                        format!(
                            "{} picks units that never share a hex with {}, so they are never eliminated with them",
                            r.what,
                            with.iter()
                                .map(|w| format!("`{w}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    )
                    .label(Place::top("stacking"), "the stacking rules")
                    .help("let the stacking rules put them together, or name units they do stack with"),
                );
            }
        }
    }
    out
}
