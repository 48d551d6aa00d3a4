use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::{Action, Allowance};
use muster_model::system::RulesSystem;
use muster_model::vocab::Effect;
use muster_semantic::FileCx;
use muster_semantic::rules::permission_for;
use muster_semantic::rules::vocab::{admits_kind, effect_rules};

declare_check! {
    /// ## What it does
    /// Checks the rules that give a unit its own protection against fire
    /// (`FireProtection`): the system's terrain must give fire protection strengths at
    /// all, since a unit's own protection stands in place of its hex's, and the troops
    /// the rule's condition can pick must not all be troops that a permission says are
    /// never fired on. Two protections that disagree under overlapping conditions are
    /// `rules::effect-overlap`'s, as are two fixed strengths (`FixedStrength`).
    ///
    /// ## Why is this bad?
    /// A fleet's protection of 4 in a system where fire never meets a hex's protection
    /// is read by nothing, and a protection against fire that never comes is a mistyped
    /// troop name or a permission that says too much.
    ///
    /// ## Example
    /// ```ron
    /// permissions: [(action: BeFiredOn, troops: ["baggage"], allowed: Never)],
    /// effects: [(id: "baggage-screened", section: "9.4", when: Some(Troop("baggage")), then: [FireProtection(1)])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// permissions: [(action: BeFiredOn, troops: ["baggage"], allowed: Never)],
    /// effects: [(id: "baggage-defends-at-1", section: "9.4", when: Some(All([Troop("baggage"), Defending])), then: [FixedStrength(1)]), (id: "fleet-protection", section: "3.25", when: Some(Troop("fleet")), then: [FireProtection(4)])],
    /// ```
    pub META = ("rules::defence-conflict", Error, "a protection against fire where fire meets no hex's protection, or for troops never fired on");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(defence_conflicts(system), sink);
    }
}

/// Every `FireProtection` effect of a system whose terrain has no fire protection, or
/// whose condition picks only troops that are never fired on.
pub fn defence_conflicts(system: &RulesSystem) -> Vec<Report> {
    let hexes_protect = system.terrain.iter().any(|t| t.fire_protection.is_some());
    let mut out = Vec::new();
    for r in effect_rules(system) {
        for (k, e) in r.rule.then.iter().enumerate() {
            let Effect::FireProtection(value) = e else {
                continue;
            };
            let at = r.at.field("then").index(k).variant("FireProtection");
            if !hexes_protect {
                out.push(
                    Report::new(
                        &META,
                        at.clone(),
                        format!(
                            "{} protects at {value} against fire, but no terrain of the system has a fire protection for it to replace",
                            r.what
                        ),
                    )
                    .help("give the terrain its `fire_protection` strengths, or state the defence as a `FixedStrength`"),
                );
                continue;
            }
            let picked: Vec<_> = system
                .unit_kinds
                .iter()
                .filter(|kind| {
                    r.rule
                        .when
                        .as_ref()
                        .is_none_or(|c| admits_kind(c, system, kind))
                })
                .collect();
            let never: Vec<(usize, &str)> = picked
                .iter()
                .filter_map(|kind| {
                    match permission_for(system, &kind.id, Action::BeFiredOn, None) {
                        Some((p, perm)) if perm.allowed == Allowance::Never => {
                            Some((p, kind.id.as_str()))
                        }
                        _ => None,
                    }
                })
                .collect();
            if !picked.is_empty() && never.len() == picked.len() {
                let names: Vec<String> = never.iter().map(|(_, k)| format!("`{k}`")).collect();
                out.push(
                    Report::new(
                        &META,
                        at,
                        format!(
                            "{} protects {} against fire, but they may never be fired on",
                            r.what,
                            names.join(", ")
                        ),
                    )
                    .label(
                        Place::rules()
                            .field("permissions")
                            .index(never[0].0)
                            .field("allowed"),
                        "never",
                    )
                    .help("remove the protection, or let the troops be fired on"),
                );
            }
        }
    }
    out
}
