use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::PanicTieBreak;
use muster_model::system::{RulesSystem, UnitRole};
use muster_semantic::FileCx;
use muster_semantic::rules::specificity;

declare_check! {
    /// ## What it does
    /// Checks the panic rules: the troops that spare units from panic or rally them
    /// must all be leaders (role `Commander`), and a tie on reaching the panic level
    /// exactly cannot be broken by `FurtherPast`.
    ///
    /// ## Why is this bad?
    /// Panic rules name leaders by type; a name that also covers combat units spares
    /// far more of the army than the rulebook does. Two sides exactly at their level
    /// are equally far past it.
    ///
    /// ## Example
    /// ```ron
    /// panic: Some((
    ///     trigger: LossesReachPanicLevel,
    ///     both_reach: Some(FurtherPast),
    ///     spared_near: [(leaders: ["*"], reach: StackedOrAdjacent)],
    /// )),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// panic: Some((
    ///     trigger: LossesReachPanicLevel,
    ///     both_reach: Some(Defender),
    ///     spared_near: [(leaders: ["leader"], reach: StackedOrAdjacent)],
    /// )),
    /// ```
    pub META = ("rules::panic-conflict", Error, "panic spared or rallied by non-leaders, or a tie no side can break");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(panic_conflicts(system), sink);
    }
}

/// Panic spared or rallied by troops that are not leaders, and a tie on reaching the
/// level exactly broken by "further past".
pub fn panic_conflicts(system: &RulesSystem) -> Vec<Report> {
    let Some(p) = &system.rules.panic else {
        return Vec::new();
    };
    let base = Place::rules().field("panic");
    let mut out = Vec::new();
    let mut near: Vec<(Place, &String)> = Vec::new();
    for (i, n) in p.spared_near.iter().enumerate() {
        for (k, l) in n.leaders.iter().enumerate() {
            near.push((
                base.field("spared_near").index(i).field("leaders").index(k),
                l,
            ));
        }
    }
    if let Some(r) = &p.rally {
        for (i, n) in r.by.iter().enumerate() {
            for (k, l) in n.leaders.iter().enumerate() {
                near.push((
                    base.field("rally")
                        .field("by")
                        .index(i)
                        .field("leaders")
                        .index(k),
                    l,
                ));
            }
        }
    }
    for (place, name) in near {
        let others: Vec<&str> = system
            .unit_kinds
            .iter()
            .filter(|k| specificity(system, name, &k.id).is_some() && k.role != UnitRole::Commander)
            .map(|k| k.id.as_str())
            .collect();
        if !others.is_empty() {
            out.push(
                Report::new(
                    &META,
                    place,
                    format!(
                        "`{name}` names troops that are not leaders: {}",
                        others.join(", ")
                    ),
                )
                .help("only leaders (role `Commander`) spare units from panic or rally them"),
            );
        }
    }
    if p.both_reach == Some(PanicTieBreak::FurtherPast) {
        out.push(
            Report::new(
                &META,
                base.field("both_reach"),
                "when both sides reach their panic level exactly, neither is further past it",
            )
            .help("break the tie by `Defender` or `Attacker`"),
        );
    }
    out
}
