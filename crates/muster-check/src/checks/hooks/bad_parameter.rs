use crate::declare_check;
use crate::hooks::find;
use crate::report::{Loc, Report, Sink};
use crate::semantic::ScenarioCx;
use crate::spans::NodeKind;

declare_check! {
    /// ## What it does
    /// Checks a special rule's parameters against its hook's schema: required
    /// parameters present, no unknown ones (each reported at its key, with the nearest
    /// real parameter), none given twice, each of the right type and range.
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
    for (i, rule) in cx.scenario.special_rules.iter().enumerate() {
        let Some(hook) = find(&rule.hook) else {
            continue;
        };
        let help = format!("`muster explain {}` shows its parameters", hook.id);
        if let Err(problems) = hook.parse(&rule.params) {
            for p in problems {
                let pointer = format!("/special_rules/{i}/params{}", p.pointer);
                let at = if p.at_key {
                    Loc::Key(pointer)
                } else {
                    Loc::Value(pointer)
                };
                sink.push(
                    Report::new(&META, at, format!("hook `{}`: {}", hook.id, p.message))
                        .help(p.help.unwrap_or_else(|| help.clone())),
                );
            }
        }
        duplicate_keys(cx, i, hook.id, sink);
    }
}

/// `ron` and `serde_json` keep the last of two equal keys; the author meant one of them.
fn duplicate_keys(cx: &ScenarioCx, rule: usize, hook: &str, sink: &mut Sink) {
    // The span index is built only for rules with parameters.
    let params = &cx.scenario.special_rules[rule].params;
    if params.as_object().is_none_or(|m| m.is_empty()) {
        return;
    }
    let Some(root) = cx.file.loaded.file.span_index() else {
        return;
    };
    let Some(node) = node_at(root, rule) else {
        return;
    };
    let NodeKind::Map(entries) = &node.kind else {
        return;
    };
    for (k, (key, span, _)) in entries.iter().enumerate() {
        if let Some((_, first, _)) = entries[..k].iter().find(|(other, _, _)| other == key) {
            sink.push(
                Report::new(
                    &META,
                    Loc::Span(span.clone()),
                    format!("hook `{hook}`: parameter `{key}` is given twice"),
                )
                .label(Loc::Span(first.clone()), "first given here")
                .help("only the last value would count; keep one"),
            );
        }
    }
}

/// The node of `special_rules[rule].params` in the span index.
fn node_at(root: &crate::spans::Node, rule: usize) -> Option<&crate::spans::Node> {
    fn field<'n>(node: &'n crate::spans::Node, name: &str) -> Option<&'n crate::spans::Node> {
        match &node.kind {
            NodeKind::Struct { fields, .. } => {
                fields.iter().find(|(f, _, _)| f == name).map(|(_, _, v)| v)
            }
            NodeKind::Map(entries) => entries
                .iter()
                .find(|(f, _, _)| f == name)
                .map(|(_, _, v)| v),
            _ => None,
        }
    }
    let rules = field(root, "special_rules")?;
    let NodeKind::List(items) = &rules.kind else {
        return None;
    };
    field(items.get(rule)?, "params")
}
