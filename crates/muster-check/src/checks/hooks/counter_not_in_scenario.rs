use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;
use muster_semantic::hooks::RefKind;

declare_check! {
    /// ## What it does
    /// Checks that every counter a special rule names (the units that evade, charge,
    /// carry, are exempt from closed terrain...) is fielded in the scenario: set up by
    /// a side, placed as a neutral, or arriving as a reinforcement. Counters that no
    /// army has are `references::unknown-counter`.
    ///
    /// ## Why is this bad?
    /// The rule speaks of a unit that is not in the battle: it has no effect, and the
    /// unit meant (often the same one of another scenario) gets none of it.
    ///
    /// ## Example
    /// ```ron
    /// (hook: "evasion", params: {"counters": ["red-cavalry", "red-bowmen"], "roll_at_least": 5, "retreat_hexes": [1, 2]}, text: "the red horse evades"),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (hook: "evasion", params: {"counters": ["red-cavalry"], "roll_at_least": 5, "retreat_hexes": [1, 2]}, text: "the red horse evades"),
    /// ```
    pub META = ("hooks::counter-not-in-scenario", Error, "a special rule naming a counter no side fields");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    if cx.counters.is_none() {
        return;
    }
    let fielded_by = super::Fielded::of(cx);
    for hook in cx.hooks() {
        for r in hook.references() {
            let RefKind::Counter { id, .. } = r.kind else {
                continue;
            };
            if super::in_some_army(cx, id) && fielded_by.sides(id).is_empty() {
                sink.push(
                    Report::new(
                        &META,
                        hook.place_of(&r),
                        format!(
                            "hook `{}` names counter `{id}`, which no side of scenario `{}` fields",
                            hook.spec.id, cx.scenario.id
                        ),
                    )
                    .help(
                        "set the unit up, bring it as a reinforcement, or take it out of the rule",
                    ),
                );
            }
        }
    }
}
