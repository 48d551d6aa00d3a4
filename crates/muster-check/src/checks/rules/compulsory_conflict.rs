use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_model::rules::Action;
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;
use muster_semantic::rules::combat::{compulsory, obliged_but_barred};

declare_check! {
    /// ## What it does
    /// Checks that compulsory attacks (`rules.combat.compulsory`) bind no troop type
    /// that a permission without a condition bars from its part: a unit bound to attack
    /// (`EveryAdjacentUnit`) that may never `Attack`, or an enemy bound to be attacked
    /// (`EveryAdjacentEnemy`) that may never be attacked in melee
    /// (`BeAttackedInMelee`). A rule of `rules.effects` saying `MayNot(Attack)` of a
    /// troop type, always, bars it too. The obligation binds every combat unit kind its `who`
    /// could admit, every one when `who` is left out.
    ///
    /// ## Why is this bad?
    /// The two rules cannot both be kept: a unit next to an enemy must attack and may
    /// not. Most often the obligation's `who` lacks the exception the rulebook prints
    /// ("except ..."), or the permission lacks its condition.
    ///
    /// ## Example
    /// ```ron
    /// compulsory: Some((section: "7.1", attacks: EveryAdjacentUnit)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// compulsory: Some((section: "7.1", attacks: EveryAdjacentUnit, who: Some(Not(Troop("levy"))))),
    /// ```
    pub META = ("rules::compulsory-conflict", Error, "compulsory attacks bind a troop type that a permission or a rule bars from attacking or from being attacked");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(compulsory_conflicts(system), sink);
    }
}

/// A report per unit kind bound by compulsory attacks to a part a permission forbids.
pub fn compulsory_conflicts(system: &RulesSystem) -> Vec<Report> {
    let Some(c) = compulsory(system) else {
        return Vec::new();
    };
    let rule = Place::rules().field("combat").field("compulsory");
    let at = if c.who.is_some() {
        rule.field("who")
    } else {
        rule.field("attacks")
    };
    obliged_but_barred(system)
        .into_iter()
        .map(|b| {
            let (bound, barred) = match b.action {
                Action::Attack => ("to attack when next to an enemy", "may never attack"),
                _ => ("to be attacked when next to a phasing unit", "may never be attacked in melee"),
            };
            Report::new(
                &META,
                at.clone(),
                format!(
                    "compulsory attacks ({}) bind `{}` {bound}, but {} says it {barred}",
                    c.section, b.kind.id, b.what
                ),
            )
            .label(Loc::Value(b.by), "forbidden here")
            .help(format!(
                "leave `{}` out of who the rule binds (`who: Some(Not(Troop(\"{}\")))`), or give the other rule its condition",
                b.kind.id, b.kind.id
            ))
        })
        .collect()
}
