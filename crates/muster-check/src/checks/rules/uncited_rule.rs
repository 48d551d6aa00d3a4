use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that each special rule a scenario states in the vocabulary (a rule with
    /// effects under `then`) cites where it is printed, in `section`, as every rule of a
    /// system does. A rule that only names a hook, or narrows a rule its system declares,
    /// is cited there.
    ///
    /// ## Why is this bad?
    /// An effect without its section cannot be checked against the book, and a player
    /// who disputes it at the table has nowhere to look. Scenario rules are printed too
    /// (in the scenario's own text, "Sc. 5.7"); a home-made rule can cite the
    /// scenario's notes.
    ///
    /// ## Example
    /// ```ron
    ///         (hook: "fontenoy-held", when: All([Side("red"), OwnSide(Controls("Fontenoy"))]), then: [DieModifier(1)], text: "holding Fontenoy heartens the red army"),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///         (hook: "fontenoy-held", section: "S2", when: All([Side("red"), OwnSide(Controls("Fontenoy"))]), then: [DieModifier(1)], text: "holding Fontenoy heartens the red army"),
    /// ```
    pub META = ("rules::uncited-rule", Warning, "a scenario's special rule with effects but no section");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for (i, rule) in cx.scenario.special_rules.iter().enumerate() {
        if rule.then.is_empty()
            || rule
                .section
                .as_deref()
                .is_some_and(|s| !s.trim().is_empty())
        {
            continue;
        }
        let at = if rule.section.is_some() {
            "section"
        } else {
            "then"
        };
        sink.push(
            Report::new(
                &META,
                Place::special_rule(i).field(at),
                format!(
                    "special rule `{}` states effects but cites no section of the rules",
                    rule.hook
                ),
            )
            .help("add `section: \"...\"`: the rulebook or scenario section where the rule is printed"),
        );
    }
}
