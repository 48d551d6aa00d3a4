use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_db::suggest::did_you_mean;
use muster_semantic::ScenarioCx;
use muster_semantic::hooks::{RegisteredHook, find, hooks_of};

declare_check! {
    /// ## What it does
    /// Checks that each special rule names a hook muster knows (`muster explain hooks`
    /// lists them), and suggests the nearest hook of the scenario's own rules system
    /// (of every system when the scenario's system is not one muster ships).
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
    let system = cx.system.map(|s| s.id.as_str());
    let own = hooks_of(system);
    for (i, rule) in cx.scenario.special_rules.iter().enumerate() {
        if find(&rule.hook).is_some() {
            continue;
        }
        let listed = match (system, own.is_empty()) {
            (Some(s), true) => format!("system `{s}` has no special-rule hooks"),
            (Some(s), false) if own.len() < muster_semantic::hooks::HOOKS.len() => format!(
                "hooks of system `{s}`: {}",
                own.iter().map(|h| h.id).collect::<Vec<_>>().join(", ")
            ),
            _ => format!(
                "known hooks: {}",
                own.iter().map(|h| h.id).collect::<Vec<_>>().join(", ")
            ),
        };
        sink.push(
            Report::new(
                &META,
                Place::special_rule(i).field("hook"),
                format!("unknown hook `{}`", rule.hook),
            )
            .help(
                did_you_mean(&rule.hook, own.iter().map(|h| h.id))
                    .or_else(|| same_start(&rule.hook, &own))
                    .unwrap_or(listed),
            ),
        );
    }
}

/// The one hook whose id starts like `found` for at least three letters (`evade` ->
/// `evasion`, which the similarity measure alone finds too far).
fn same_start(found: &str, hooks: &[&RegisteredHook]) -> Option<String> {
    let common = |id: &str| {
        found
            .chars()
            .zip(id.chars())
            .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
            .count()
    };
    let best = hooks.iter().map(|h| common(h.id)).max()?;
    let mut at_best = hooks.iter().filter(|h| common(h.id) == best);
    match (best >= 3, at_best.next(), at_best.next()) {
        (true, Some(h), None) => Some(format!("did you mean `{}`?", h.id)),
        _ => None,
    }
}
