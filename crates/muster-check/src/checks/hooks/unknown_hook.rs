use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_db::suggest::did_you_mean;
use muster_semantic::ScenarioCx;
use muster_semantic::hooks::{find, hooks_of};

declare_check! {
    /// ## What it does
    /// Checks that each special rule names a rule muster can find: a built-in hook
    /// (`muster explain hooks` lists them), a special rule the scenario's system states
    /// as data (`rules: (special_rules: [...])`), or else states its own effects
    /// (`then: [...]`). It suggests the nearest of the system's own.
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
    pub META = ("hooks::unknown-hook", Error, "a special rule naming no hook or rule of its system");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let system = cx.system.map(|s| s.id.as_str());
    let own = hooks_of(cx.system);
    let declared: Vec<&str> = cx
        .system
        .map(|s| {
            s.rules
                .special_rules
                .iter()
                .map(|r| r.id.as_str())
                .collect()
        })
        .unwrap_or_default();
    for (i, rule) in cx.scenario.special_rules.iter().enumerate() {
        // A built-in hook, a rule the system states as data, or one stated here.
        if find(&rule.hook).is_some()
            || declared.contains(&rule.hook.as_str())
            || !rule.then.is_empty()
        {
            continue;
        }
        let own_ids: Vec<&str> = own.iter().map(|h| h.id).collect();
        let mut known = own_ids.clone();
        known.extend(&declared);
        let listed = match system {
            Some(s) if known.is_empty() => format!(
                "system `{s}` has no special rules; state this one as data with `then: [...]`, or declare it in the system's `rules: (special_rules: [...])`"
            ),
            Some(s) => format!("special rules of system `{s}`: {}", known.join(", ")),
            None => format!("known hooks: {}", own_ids.join(", ")),
        };
        sink.push(
            Report::new(
                &META,
                Place::special_rule(i).field("hook"),
                format!("unknown special rule `{}`", rule.hook),
            )
            .help(
                did_you_mean(&rule.hook, known.iter().copied())
                    .or_else(|| same_start(&rule.hook, &known))
                    .unwrap_or(listed),
            ),
        );
    }
}

/// The one known id that starts like `found` for at least three letters (`evade` ->
/// `evasion`, which the similarity measure alone finds too far).
fn same_start(found: &str, known: &[&str]) -> Option<String> {
    let common = |id: &str| {
        found
            .chars()
            .zip(id.chars())
            .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
            .count()
    };
    let best = known.iter().map(|id| common(id)).max()?;
    let mut at_best = known.iter().filter(|id| common(id) == best);
    match (best >= 3, at_best.next(), at_best.next()) {
        (true, Some(id), None) => Some(format!("did you mean `{id}`?")),
        _ => None,
    }
}
