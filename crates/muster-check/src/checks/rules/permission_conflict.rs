use super::allowance_words;
use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::{Action, Allowance, Permission};
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;
use muster_semantic::rules::permission_for;
use muster_semantic::rules::vocab::canonical_when;

declare_check! {
    /// ## What it does
    /// Checks that the permissions do not contradict each other: two entries for the
    /// same action, troop name and status, with no condition or the same typed
    /// condition (`when`), must agree (`Must`, `May` or `Never`); an entry may not
    /// both cover and except a name; and a troop type that must or may counter-charge
    /// must not be one that may never charge.
    ///
    /// ## Why is this bad?
    /// An engine asking "may this unit charge?" gets two answers; and a counter-charge
    /// is a charge, so a type forbidden to charge cannot be bound to counter-charge.
    ///
    /// ## Example
    /// ```ron
    /// (action: Charge, troops: ["transport"], allowed: Never),
    /// (action: CounterCharge, troops: ["transport"], allowed: May),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (action: Charge, troops: ["transport"], allowed: Never),
    /// (action: CounterCharge, troops: ["transport"], allowed: Never),
    /// ```
    pub META = ("rules::permission-conflict", Error, "permissions that contradict each other");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(permission_conflicts(system), sink);
    }
}

/// Entries that contradict each other: the same troop name, action, status and typed
/// condition but different allowances; a name both covered and excepted; a troop
/// type bound or allowed to counter-charge that may never charge.
pub fn permission_conflicts(system: &RulesSystem) -> Vec<Report> {
    let perms = &system.rules.permissions;
    let mut out = Vec::new();
    excepted_and_covered(perms, &mut out);
    contradictions(perms, &mut out);
    counter_charge_without_charge(system, &mut out);
    out
}

/// Names both covered and excepted by the same entry.
fn excepted_and_covered(perms: &[Permission], out: &mut Vec<Report>) {
    for (i, p) in perms.iter().enumerate() {
        for (k, e) in p.except.iter().enumerate() {
            if p.troops.contains(e) {
                out.push(
                    Report::new(
                        &META,
                        Place::rules()
                            .field("permissions")
                            .index(i)
                            .field("except")
                            .index(k),
                        format!("`{e}` is both covered and excepted by the same entry"),
                    )
                    .help(format!("remove `{e}` from `troops` or from `except`")),
                );
            }
        }
    }
}

/// Entries for the same troop name, action, status and typed condition (none in words)
/// that give different allowances.
fn contradictions(perms: &[Permission], out: &mut Vec<Report>) {
    for (j, b) in perms.iter().enumerate() {
        if b.condition.is_some() {
            continue;
        }
        for (i, a) in perms.iter().enumerate().take(j) {
            if a.condition.is_some()
                || !same_when(a, b)
                || a.action != b.action
                || a.status != b.status
                || a.allowed == b.allowed
            {
                continue;
            }
            if let Some((k, name)) = b.troops.iter().enumerate().find(|(_, t)| {
                a.troops.contains(t) && !a.except.contains(t) && !b.except.contains(t)
            }) {
                out.push(
                    Report::new(
                        &META,
                        Place::rules()
                            .field("permissions")
                            .index(j)
                            .field("troops")
                            .index(k),
                        format!(
                            "`{name}` {} {}, but an earlier entry says it {} {}",
                            allowance_words(b.allowed),
                            b.action.words(),
                            allowance_words(a.allowed),
                            a.action.words()
                        ),
                    )
                    .label(
                        Place::rules()
                            .field("permissions")
                            .index(i)
                            .field("allowed"),
                        "the earlier entry",
                    )
                    .help("keep one of the two, or give the narrower one a `when` or `status`"),
                );
            }
        }
    }
}

/// Whether two entries apply under the same typed condition (`when`), in the
/// vocabulary's canonical form, so the order of an `All` does not matter.
fn same_when(a: &Permission, b: &Permission) -> bool {
    canonical_when(a.when.as_ref()) == canonical_when(b.when.as_ref())
}

/// Troop types bound or allowed to counter-charge that may never charge.
fn counter_charge_without_charge(system: &RulesSystem, out: &mut Vec<Report>) {
    for kind in &system.unit_kinds {
        let Some((ci, counter)) = permission_for(system, &kind.id, Action::CounterCharge, None)
        else {
            continue;
        };
        if counter.allowed == Allowance::Never {
            continue;
        }
        if let Some((chi, charge)) = permission_for(system, &kind.id, Action::Charge, None)
            && charge.allowed == Allowance::Never
        {
            out.push(
                Report::new(
                    &META,
                    Place::rules()
                        .field("permissions")
                        .index(ci)
                        .field("allowed"),
                    format!(
                        "`{}` {} counter-charge, but may never charge",
                        kind.id,
                        allowance_words(counter.allowed)
                    ),
                )
                .label(
                    Place::rules()
                        .field("permissions")
                        .index(chi)
                        .field("allowed"),
                    "may never charge",
                )
                .help(
                    "a counter-charge is a charge: allow the charge, or forbid the counter-charge",
                ),
            );
        }
    }
}
