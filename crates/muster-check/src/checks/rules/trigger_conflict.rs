use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::{MoraleEvent, MoraleRules};
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;
use muster_semantic::rules::class_of;

declare_check! {
    /// ## What it does
    /// Checks the morale triggers and modifiers: a troop name may not both test and be
    /// exempt on the same trigger, a trigger may not make test a troop type that never
    /// tests, a distance that triggers a test must be above zero, and a morale modifier
    /// must change the value and may not be given to a troop type that never tests.
    ///
    /// ## Why is this bad?
    /// Contradictory triggers leave an engine to guess whether a unit tests; a trigger
    /// at zero inches never fires; a modifier of 0, or for troops that never test, is
    /// never applied.
    ///
    /// ## Example
    /// ```ron
    /// (event: Charging, troops: ["*", "leader"], exempt: ["leader"]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (event: Charging, troops: ["*"], exempt: ["leader"]),
    /// ```
    pub META = ("rules::trigger-conflict", Error, "a morale trigger or modifier that contradicts itself or who never tests");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(trigger_conflicts(system), sink);
    }
}

/// Triggers that contradict themselves or the troops that never test, and distances
/// at which nothing can happen.
pub fn trigger_conflicts(system: &RulesSystem) -> Vec<Report> {
    let Some(m) = &system.rules.morale else {
        return Vec::new();
    };
    let mut out = Vec::new();
    trigger_problems(system, m, &mut out);
    modifier_problems(system, m, &mut out);
    out
}

/// Troops both testing and exempt, troops that never test made to test, and distances
/// at which nothing can happen.
fn trigger_problems(system: &RulesSystem, m: &MoraleRules, out: &mut Vec<Report>) {
    for (i, t) in m.triggers.iter().enumerate() {
        let base = Place::rules().field("morale").field("triggers").index(i);
        for (k, e) in t.exempt.iter().enumerate() {
            if t.troops.contains(e) {
                out.push(
                    Report::new(
                        &META,
                        base.field("exempt").index(k),
                        format!("`{e}` both tests and is exempt on {}", t.event.words()),
                    )
                    .help(format!("remove `{e}` from `troops` or from `exempt`")),
                );
            }
        }
        for (k, troop) in t.troops.iter().enumerate() {
            if let Some(n) = never_tests(system, m, troop) {
                out.push(
                    Report::new(&META,
                        base.field("troops").index(k),
                        format!("`{troop}` never tests its morale, yet this trigger makes it test on {}", t.event.words()),
                    )
                    .label(Place::rules().field("morale").field("never_test").index(n), "never tests")
                    .help("remove it from one of the two"),
                );
            }
        }
        if let MoraleEvent::FriendRoutingWithin(d) | MoraleEvent::EnemyInFrontWithin(d) = &t.event
            && *d <= 0.0
        {
            let variant = match t.event {
                MoraleEvent::FriendRoutingWithin(_) => "FriendRoutingWithin",
                _ => "EnemyInFrontWithin",
            };
            out.push(
                Report::new(
                    &META,
                    base.field("event").variant(variant),
                    format!("a distance of {d} inches: the test is never triggered"),
                )
                .help("give the distance in inches, above 0"),
            );
        }
    }
}

/// Modifiers of 0, and modifiers given to troops that never test.
fn modifier_problems(system: &RulesSystem, m: &MoraleRules, out: &mut Vec<Report>) {
    for (i, md) in m.modifiers.iter().enumerate() {
        let base = Place::rules().field("morale").field("modifiers").index(i);
        if md.value == 0 {
            out.push(
                Report::new(
                    &META,
                    base.field("value"),
                    "a morale modifier of 0 changes nothing",
                )
                .help("give the points added to the morale value, or remove the modifier"),
            );
        }
        for (k, troop) in md.to.iter().enumerate() {
            if let Some(n) = never_tests(system, m, troop) {
                out.push(
                    Report::new(
                        &META,
                        base.field("to").index(k),
                        format!(
                            "`{troop}` never tests its morale, yet a morale modifier is given to it"
                        ),
                    )
                    .label(
                        Place::rules().field("morale").field("never_test").index(n),
                        "never tests",
                    )
                    .help("remove it from `to` or from `never_test`"),
                );
            }
        }
    }
}

/// The entry of `never_test` that names a troop (by id or class), if any.
fn never_tests(system: &RulesSystem, m: &MoraleRules, troop: &str) -> Option<usize> {
    m.never_test
        .iter()
        .position(|n| n == troop || class_of(system, troop) == Some(n.as_str()))
}
