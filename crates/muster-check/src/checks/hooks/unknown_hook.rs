use crate::declare_check;
use crate::hooks::{HOOKS, find};
use crate::report::{Report, Sink};
use crate::semantic::ScenarioCx;
use crate::suggest::did_you_mean;

declare_check! {
    /// ## What it does
    /// Checks that each special rule names a hook muster knows (`muster explain hooks`
    /// lists them).
    ///
    /// ## Why is this bad?
    /// An unknown hook has no parameter schema and no effect: the rule would be lost for
    /// the validator and for engines.
    ///
    /// ## Example
    /// ```ron
    /// (hook: "baggage-carier", params: {"counter": "drakkar", "carries_kind": "infantry", "max_carried": 1, "max_movement": 2.0}, text: "a drakkar carries one slow foot unit"),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (hook: "baggage-carrier", params: {"counter": "drakkar", "carries_kind": "infantry", "max_carried": 1, "max_movement": 2.0}, text: "a drakkar carries one slow foot unit"),
    /// ```
    pub META = ("hooks::unknown-hook", Error, "a special rule naming no known hook");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for (i, rule) in cx.scenario.special_rules.iter().enumerate() {
        if find(&rule.hook).is_none() {
            sink.push(
                Report::new(
                    &META,
                    format!("/special_rules/{i}/hook"),
                    format!("unknown hook `{}`", rule.hook),
                )
                .help_opt(
                    did_you_mean(&rule.hook, HOOKS.iter().map(|h| h.id)).or_else(|| {
                        Some(format!(
                            "known hooks: {}",
                            HOOKS.iter().map(|h| h.id).collect::<Vec<_>>().join(", ")
                        ))
                    }),
                ),
            );
        }
    }
}
