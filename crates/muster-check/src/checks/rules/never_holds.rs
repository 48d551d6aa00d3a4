use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::system::RulesSystem;
use muster_model::vocab::Condition;
use muster_semantic::FileCx;
use muster_semantic::rules::combat::compulsory;
use muster_semantic::rules::vocab::{effect_rules, never_holds, positive_leaves};

declare_check! {
    /// ## What it does
    /// Checks that every condition of the system's vocabulary can hold for some unit
    /// at some moment: the `when` of its effects, special rules and permissions, who
    /// exerts zones of control, who compulsory attacks bind and who may use each
    /// movement mode. A condition cannot hold when it asks for two sides, statuses,
    /// weathers, phases, movement modes or unit kinds at once, for attacking and
    /// defending (or outpacing one's attackers), higher and lower, a condition and its
    /// negation, an empty `Any`, a turn range that ends before it starts, more levels
    /// lost on a result table (`LosesLevels`) than any of its results costs, a `Near`
    /// distance below 0,
    /// `Panicked` in a system with no `panic` rules, a table game's geometry on a hex
    /// map (a formation, `InFormation`; a side touched or passed through, `ContactedOn`
    /// and `PassedThrough`; a rank, `Behind`; a band's leader, `FollowsLeader`), or
    /// `Carrying` in a system without `carriers` or of unit kinds none of
    /// which is a carrier; and, in `StackedWithUnit` and `Opponent`, when the condition the
    /// other unit must meet can never hold.
    ///
    /// ## Why is this bad?
    /// A rule whose condition never holds never applies: the rule as printed is lost,
    /// most often through `All` written where `Any` was meant.
    ///
    /// ## Example
    /// ```ron
    /// (id: "mud-slows", section: "8.1", when: All([Weather("mud"), Weather("clear")]), then: [MoveCost(Points(2.0)), Strength(0.5)]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "mud-slows", section: "8.1", when: Weather("mud"), then: [MoveCost(Points(2.0)), Strength(0.5)]),
    /// ```
    pub META = ("rules::never-holds", Warning, "a rule's condition can never hold");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(never_holding(system), sink);
    }
}

/// The conditions of the system's vocabulary, with their places and what they belong
/// to.
fn conditions(system: &RulesSystem) -> Vec<(Place, String, &Condition)> {
    let rules = &system.rules;
    let mut out = Vec::new();
    for r in effect_rules(system) {
        if let Some(c) = &r.rule.when {
            out.push((r.at.field("when"), r.what, c));
        }
    }
    if let Some(c) = rules
        .zones_of_control
        .as_ref()
        .and_then(|z| z.exerted_by.as_ref())
    {
        let at = Place::rules().field("zones_of_control").field("exerted_by");
        out.push((at, "who exerts a zone of control".to_string(), c));
    }
    if let Some(c) = compulsory(system).and_then(|c| c.who.as_ref()) {
        let at = Place::rules()
            .field("combat")
            .field("compulsory")
            .field("who");
        out.push((at, "who compulsory attacks bind".to_string(), c));
    }
    for (i, p) in rules.permissions.iter().enumerate() {
        if let Some(c) = &p.when {
            let at = Place::rules().field("permissions").index(i).field("when");
            let what = format!("the permission to {}", p.action.words());
            out.push((at, what, c));
        }
    }
    for (i, m) in rules.movement_modes.iter().enumerate() {
        if let Some(c) = &m.who {
            let at = Place::rules().field("movement_modes").index(i).field("who");
            out.push((at, format!("who may use movement mode `{}`", m.id), c));
        }
    }
    out
}

/// A report per condition that can never hold.
pub fn never_holding(system: &RulesSystem) -> Vec<Report> {
    conditions(system)
        .into_iter()
        .filter_map(|(at, what, c)| {
            let why = never_holds(c, system, None)?;
            let panicked = |x: &Condition| match x {
                Condition::Panicked => true,
                Condition::StackedWithUnit(inner) | Condition::Opponent(inner) => {
                    positive_leaves(inner, &at)
                        .iter()
                        .any(|(_, y)| **y == Condition::Panicked)
                }
                _ => false,
            };
            let leaves = positive_leaves(c, &at);
            let unpanicked =
                system.rules.panic.is_none() && leaves.iter().any(|(_, x)| panicked(x));
            let table = leaves.iter().any(|(_, x)| {
                matches!(
                    x,
                    Condition::InFormation(_)
                        | Condition::ContactedOn(_)
                        | Condition::PassedThrough(_)
                        | Condition::Behind(_)
                        | Condition::FollowsLeader(_)
                )
            });
            let help = if unpanicked {
                "give the system its `panic` rules, or remove the rule"
            } else if why.contains("carrier") {
                "declare the carrier kind in the system's `carriers`, or ask `Carrying` of a kind that carries"
            } else if why.contains("`within`") {
                "give `within` as 0 or more: 0 is the same hex"
            } else if table && why.contains("hex map") {
                "formations, sides, ranks and bands are a table game's: say it with a condition a unit on a hex meets, or remove the rule"
            } else {
                "use `Any([...])` where either may hold, or remove the member that cannot"
            };
            Some(
                Report::new(
                    &META,
                    at,
                    format!("the condition of {what} can never hold: {why}"),
                )
                .help(help),
            )
        })
        .collect()
}
