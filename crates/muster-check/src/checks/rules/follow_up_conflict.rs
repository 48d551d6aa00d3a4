use super::allowance_words;
use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::{Action, Allowance};
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks following up in melee against the push-back (`melee.push_back`): a
    /// push-back moves the loser more than 0 inches; troops bound or allowed to follow
    /// up a pushed-back loser need a rule that pushes losers back; and where the loser
    /// stays locked in the melee, no troops may be barred from following.
    ///
    /// ## Why is this bad?
    /// A follow-up with no push-back has nothing to follow, and a loser locked in a
    /// melee an inch away from a winner who may not close up leaves both in a melee
    /// nobody can fight.
    ///
    /// ## Example
    /// ```ron
    /// permissions: [(action: FollowUp, troops: ["*"], allowed: Never)],
    /// melee: Some((push_back: Some((distance: 1.0, stays_locked: true)))),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// permissions: [(action: FollowUp, troops: ["*"], allowed: Must)],
    /// melee: Some((push_back: Some((distance: 1.0, stays_locked: true)))),
    /// ```
    pub META = ("rules::follow-up-conflict", Error, "a follow-up with no push-back, or a push-back that keeps a melee locked out of contact");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(follow_up_conflicts(system), sink);
    }
}

/// Troop names in a message: `"*"` is all troops, the others in backticks.
fn troop_list(troops: &[String]) -> String {
    troops
        .iter()
        .map(|t| {
            if t == "*" {
                "all troops".to_string()
            } else {
                format!("`{t}`")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A push-back of no distance, troops bound or allowed to follow a loser that no rule
/// pushes back, and troops that may never follow a loser who stays locked in the melee.
pub fn follow_up_conflicts(system: &RulesSystem) -> Vec<Report> {
    let rules = &system.rules;
    let push = rules.melee.as_ref().and_then(|m| m.push_back.as_ref());
    let mut out = Vec::new();
    if let Some(p) = push
        && p.distance.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
    {
        out.push(
            Report::new(
                &META,
                Place::rules()
                    .field("melee")
                    .field("push_back")
                    .field("distance"),
                format!("a push-back of {} inches moves nobody", p.distance),
            )
            .help("give the distance in inches, above 0, or remove `push_back`"),
        );
    }
    for (i, p) in rules.permissions.iter().enumerate() {
        if p.action != Action::FollowUp {
            continue;
        }
        let at = Place::rules()
            .field("permissions")
            .index(i)
            .field("allowed");
        match (p.allowed, push) {
            (Allowance::Must | Allowance::May, None) => out.push(
                Report::new(&META,
                    at,
                    format!(
                        "{} {} follow up a pushed-back loser, but no rule pushes a loser back",
                        troop_list(&p.troops),
                        allowance_words(p.allowed)
                    ),
                )
                .help("give `melee: Some((push_back: Some((distance: ..., stays_locked: ...))))`, or remove this entry"),
            ),
            (Allowance::Never, Some(pb)) if pb.stays_locked && p.condition.is_none() => out.push(
                Report::new(&META,
                    at,
                    format!(
                        "{} may never follow up, yet a pushed-back loser stays locked in the melee: the two would be locked without contact",
                        troop_list(&p.troops)
                    ),
                )
                .label(Place::rules().field("melee").field("push_back").field("stays_locked"), "stays locked")
                .help("let them follow up, or set `stays_locked: false`"),
            ),
            _ => {}
        }
    }
    out
}
