use super::allowance_words;
use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::{Action, Allowance};
use muster_model::system::RulesSystem;
use muster_model::vocab::Effect;
use muster_semantic::FileCx;
use muster_semantic::rules::vocab::effect_rules;

declare_check! {
    /// ## What it does
    /// Checks following up in melee against the rules that push a melee's loser back
    /// (`PushedBack`): a push-back moves the loser more than 0 inches; troops bound or
    /// allowed to follow up a pushed-back loser need a rule that pushes losers back;
    /// and where the loser stays locked in the melee, no troops may be barred from
    /// following.
    ///
    /// ## Why is this bad?
    /// A follow-up with no push-back has nothing to follow, and a loser locked in a
    /// melee an inch away from a winner who may not close up leaves both in a melee
    /// nobody can fight.
    ///
    /// ## Example
    /// ```ron
    /// permissions: [(action: FollowUp, troops: ["*"], allowed: Never)],
    /// effects: [(id: "loser-pushed-back", section: "l. 42", when: Some(Event(LostMeleeRound)), then: [PushedBack(inches: 1.0, stays_locked: true)])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// permissions: [(action: FollowUp, troops: ["*"], allowed: Must)],
    /// effects: [(id: "loser-pushed-back", section: "l. 42", when: Some(Event(LostMeleeRound)), then: [PushedBack(inches: 1.0, stays_locked: true)])],
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
    // Every push-back of the vocabulary: where its effect stands, its rule, its
    // distance and whether the loser stays locked.
    let mut pushes: Vec<(Place, String, f64, bool)> = Vec::new();
    for r in effect_rules(system) {
        for (k, e) in r.rule.then.iter().enumerate() {
            if let Effect::PushedBack {
                inches,
                stays_locked,
            } = e
            {
                let at = r.at.field("then").index(k).variant("PushedBack");
                pushes.push((at, r.what.clone(), *inches, *stays_locked));
            }
        }
    }
    let mut out = Vec::new();
    for (at, what, inches, _) in &pushes {
        if inches.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            out.push(
                Report::new(
                    &META,
                    at.field("inches"),
                    format!("{what} pushes a loser back {inches} inches, which moves nobody"),
                )
                .help("give the distance in inches, above 0, or remove the push-back"),
            );
        }
    }
    let locked = pushes.iter().find(|p| p.3);
    for (i, p) in rules.permissions.iter().enumerate() {
        if p.action != Action::FollowUp {
            continue;
        }
        let at = Place::rules()
            .field("permissions")
            .index(i)
            .field("allowed");
        match p.allowed {
            Allowance::Must | Allowance::May if pushes.is_empty() => out.push(
                Report::new(&META,
                    at,
                    format!(
                        "{} {} follow up a pushed-back loser, but no rule pushes a loser back",
                        troop_list(&p.troops),
                        allowance_words(p.allowed)
                    ),
                )
                .help("add a rule that pushes a melee's loser back: `(id: ..., section: ..., when: Some(Event(LostMeleeRound)), then: [PushedBack(inches: ..., stays_locked: ...)])`, or remove this entry"),
            ),
            Allowance::Never if !p.is_conditional() && let Some((lock_at, what, ..)) = locked => out.push(
                Report::new(&META,
                    at,
                    format!(
                        "{} may never follow up, yet {what} keeps a pushed-back loser locked in the melee: the two would be locked without contact",
                        troop_list(&p.troops)
                    ),
                )
                .label(lock_at.field("stays_locked"), "stays locked")
                .help("let them follow up, or drop `stays_locked` from the push-back"),
            ),
            _ => {}
        }
    }
    out
}
