use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;
use muster_semantic::hooks::find;

declare_check! {
    /// ## What it does
    /// Checks a special rule's parameters against its hook's schema: required
    /// parameters present, no unknown ones (each reported at its key, with the nearest
    /// real parameter), each of the right type and range (a key given twice is `structure::duplicate-key`).
    ///
    /// ## Why is this bad?
    /// A parameter the hook cannot read means the rule has no effect, or the wrong one.
    ///
    /// ## Example
    /// ```ron
    /// (hook: "baggage-carrier", params: {"counter": "drakkar", "carries_kind": "infantry", "max_carried": "one", "max_movement": 2.0}, text: "a drakkar carries one slow foot unit"),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (hook: "baggage-carrier", params: {"counter": "drakkar", "carries_kind": "infantry", "max_carried": 1, "max_movement": 2.0}, text: "a drakkar carries one slow foot unit"),
    /// ```
    pub META = ("hooks::bad-parameter", Error, "a special rule parameter its hook cannot take");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    // The rules whose parameters parsed were parsed once, for every check
    // (`ScenarioCx::hooks`); only the others are parsed again, for their problems.
    let parsed: std::collections::HashSet<usize> = cx.hooks().iter().map(|h| h.rule).collect();
    for (i, rule) in cx.scenario.special_rules.iter().enumerate() {
        if parsed.contains(&i) {
            continue;
        }
        let Some(hook) = find(&rule.hook) else {
            continue;
        };
        let help = format!("`muster explain {}` shows its parameters", hook.id);
        if let Err(problems) = hook.parse(&rule.params) {
            for p in problems {
                let place = Place::hook_params(i).join(&p.place);
                let at = if p.at_key {
                    Loc::Key(place)
                } else {
                    Loc::Value(place)
                };
                sink.push(
                    Report::new(&META, at, format!("hook `{}`: {}", hook.id, p.message))
                        .help(p.help.unwrap_or_else(|| help.clone())),
                );
            }
        }
    }
}
