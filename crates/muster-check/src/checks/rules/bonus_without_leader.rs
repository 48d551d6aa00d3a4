use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_model::system::{KindStats, RulesSystem};
use muster_model::vocab::Effect;
use muster_semantic::FileCx;
use muster_semantic::rules::vocab::effect_rules;

declare_check! {
    /// ## What it does
    /// Checks that a rule giving units the bonus of the leaders stacked with them
    /// (`LeaderBonus`) has a bonus to give: at least one unit kind of the system is a
    /// leader (stats `Leader`) with a `combat_bonus` above 0.
    ///
    /// ## Why is this bad?
    /// The bonus is the sum of the stacked leaders' printed bonuses. With no leader
    /// that prints one, the rule adds nothing anywhere: a leader kind lost its stats, or
    /// its bonus was typed as 0.
    ///
    /// ## Example
    /// ```ron
    /// unit_kinds: [(id: "infantry", name: "Infantry", role: Combat), (id: "leader", name: "Leader", role: Commander)],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// unit_kinds: [(id: "infantry", name: "Infantry", role: Combat), (id: "leader", name: "Leader", role: Commander, stats: Some(Leader(level: 1, combat_bonus: 2, control_radius: 2, melee: Dot, class: "E", movement: 6.0)))],
    /// ```
    pub META = ("rules::bonus-without-leader", Warning, "a leader bonus in a system where no leader gives one");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(bonuses_without_leader(system), sink);
    }
}

/// Every `LeaderBonus` effect of a system none of whose unit kinds is a leader with a
/// combat bonus.
pub fn bonuses_without_leader(system: &RulesSystem) -> Vec<Report> {
    let gives = system.unit_kinds.iter().any(
        |k| matches!(k.stats, Some(KindStats::Leader { combat_bonus, .. }) if combat_bonus > 0),
    );
    if gives {
        return Vec::new();
    }
    let mut out = Vec::new();
    for r in effect_rules(system) {
        for (k, e) in r.rule.then.iter().enumerate() {
            if matches!(e, Effect::LeaderBonus { .. }) {
                out.push(
                    Report::new(
                        &META,
                        r.at.field("then").index(k).variant("LeaderBonus"),
                        format!(
                            "{} gives the bonus of stacked leaders, but no unit kind of the system is a leader with a combat bonus: it adds nothing",
                            r.what
                        ),
                    )
                    .help("give a leader kind its printed bonus (`stats: Some(Leader(combat_bonus: ..))`), or remove the rule"),
                );
            }
        }
    }
    out
}
