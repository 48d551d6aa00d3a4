use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::follow_up_conflicts;

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
        super::report(&META, follow_up_conflicts(system), sink);
    }
}
