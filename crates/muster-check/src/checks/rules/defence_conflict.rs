use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::{Action, Allowance, AttackKind};
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;
use muster_semantic::rules::{kinds_named, permission_for};

declare_check! {
    /// ## What it does
    /// Checks the defences that terrain never changes (`fixed_defences`): two entries
    /// without a condition may not give one troop name two values against the same
    /// attacks, and a defence against fire (or melee) may not cover troops that a
    /// permission says are never fired on (or never attacked in melee).
    ///
    /// ## Why is this bad?
    /// A fleet whose fire protection is both 4 and 3 leaves an engine to guess which to
    /// use, and a defence against an attack that never comes is a mistyped attack kind
    /// or a permission that says too much.
    ///
    /// ## Example
    /// ```ron
    /// fixed_defences: [
    ///     (troops: ["fleet"], against: Fire, value: 4),
    ///     (troops: ["fleet"], against: Any, value: 3),
    /// ],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// fixed_defences: [
    ///     (troops: ["fleet"], against: Fire, value: 4),
    ///     (troops: ["baggage"], against: Any, value: 1),
    /// ],
    /// ```
    pub META = ("rules::defence-conflict", Error, "a troop type given two fixed defences, or one against an attack it never suffers");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(defence_conflicts(system), sink);
    }
}

/// Two values for one troop name against the same attacks (entries without a
/// condition), and defences against attacks the troops never suffer: fire at troops
/// never fired on, melee at troops never attacked in melee.
pub fn defence_conflicts(system: &RulesSystem) -> Vec<Report> {
    let list = &system.rules.fixed_defences;
    let mut out = Vec::new();
    for (j, b) in list.iter().enumerate() {
        let base = Place::rules().field("fixed_defences").index(j);
        if b.condition.is_none() {
            for (i, a) in list.iter().enumerate().take(j) {
                if a.condition.is_some() || a.value == b.value || !a.against.overlaps(b.against) {
                    continue;
                }
                if let Some((k, name)) = b
                    .troops
                    .iter()
                    .enumerate()
                    .find(|(_, t)| a.troops.contains(t))
                {
                    out.push(
                        Report::new(
                            &META,
                            base.field("troops").index(k),
                            format!(
                                "`{name}` defends at {} {}, but an earlier entry says {} {}",
                                b.value,
                                b.against.words(),
                                a.value,
                                a.against.words()
                            ),
                        )
                        .label(
                            Place::rules()
                                .field("fixed_defences")
                                .index(i)
                                .field("value"),
                            "the earlier entry",
                        )
                        .help("keep one value, or give the narrower entry a `condition`"),
                    );
                }
            }
        }
        let action = match b.against {
            AttackKind::Fire => Action::BeFiredOn,
            AttackKind::Melee => Action::BeAttackedInMelee,
            AttackKind::Any => continue,
        };
        for (k, name) in b.troops.iter().enumerate() {
            let kinds = kinds_named(system, name);
            let never: Vec<usize> = kinds
                .iter()
                .filter_map(
                    |kind| match permission_for(system, &kind.id, action, None) {
                        Some((p, perm)) if perm.allowed == Allowance::Never => Some(p),
                        _ => None,
                    },
                )
                .collect();
            if !kinds.is_empty() && never.len() == kinds.len() {
                out.push(
                    Report::new(&META,
                        base.field("troops").index(k),
                        format!(
                            "`{name}` may never {}, so a defence {} never applies",
                            action.words(),
                            b.against.words()
                        ),
                    )
                    .label(Place::rules().field("permissions").index(never[0]).field("allowed"), "never")
                    .help("remove the defence, or let the attack be made (`against: Any` covers every attack)"),
                );
            }
        }
    }
    out
}
