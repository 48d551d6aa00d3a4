//! The summary's lines for the rules vocabulary: the system's effects, zones of
//! control, movement modes, control of hexes and supply, the scenario's turn record and supply sources,
//! and the words of a special rule stated as data.

use muster_model::scenario::{Forces, SourceAt};
use muster_model::system::{RulesSystem, UnitKind, UnitRole};
use muster_model::vocab::{Condition, Effect};
use muster_semantic::ScenarioCx;
use muster_semantic::rules::scenario::special_rule_rules;
use muster_semantic::rules::vocab::admits_kind;

use super::RuleLine;
use crate::rule_words as w;

/// The typed mechanics after the movement modes, in words, each under its topic.
fn mechanic_lines(r: &muster_model::rules::Rules) -> Vec<(&'static str, String)> {
    [
        ("control", r.control.as_ref().map(w::control_words)),
        ("supply", r.supply.as_ref().map(w::supply_words)),
        (
            "replacements",
            r.replacements.as_ref().map(w::replacement_words),
        ),
        ("reinforcements", r.arrivals.as_ref().map(w::arrival_words)),
    ]
    .into_iter()
    .filter_map(|(topic, text)| Some((topic, text?)))
    .collect()
}

/// The vocabulary's lines, after the typed rules' own.
pub(super) fn vocab_lines(cx: &ScenarioCx) -> Vec<RuleLine> {
    let mut out = Vec::new();
    let mut line = |topic: &str, text: String| {
        out.push(RuleLine {
            topic: topic.to_string(),
            text,
        })
    };
    if let Some(system) = cx.system {
        let r = &system.rules;
        // A rule or mode whose condition picks none of the scenario's unit kinds (a
        // fleet's rule in a battle without fleets) is left out.
        let fielded = fielded_kinds(cx, system);
        let bears = |when: Option<&Condition>| {
            fielded.is_empty()
                || when.is_none_or(|c| fielded.iter().any(|k| admits_kind(c, system, k)))
        };
        for e in r.effects.iter().filter(|e| bears(e.when.as_ref())) {
            line("rule", w::effect_rule_words(e));
        }
        if let Some(z) = &r.zones_of_control {
            line("zones of control", w::zoc_words(z));
        }
        for m in r.movement_modes.iter().filter(|m| bears(m.who.as_ref())) {
            line("movement mode", w::mode_words(m));
        }
        for (topic, text) in mechanic_lines(r) {
            line(topic, text);
        }
        let carried = |c: &&muster_model::system::Carrier| {
            fielded.is_empty() || fielded.iter().any(|k| k.id == c.kind)
        };
        for c in system.carriers.iter().filter(carried) {
            line("carrier", w::carrier_words(c));
        }
    }
    let (facing_used, states_used) = used_in_play(cx);
    if let Some(system) = cx.system {
        let r = &system.rules;
        if let Some(f) = r.facing.as_ref().filter(|_| facing_used) {
            line("facing", w::facing_words(f));
        }
        for st in r
            .states
            .iter()
            .filter(|st| states_used.contains(&st.id.as_str()))
        {
            line("kept state", w::state_words(st));
        }
    }
    let s = cx.scenario;
    let options = cx
        .system
        .map(|sys| sys.rules.optional_rules.as_slice())
        .unwrap_or_default();
    for on in muster_semantic::rules::optional_rules_on(cx) {
        let Some(o) = options.iter().find(|o| o.id == on.id) else {
            continue;
        };
        let by = if on.by_project { " (muster.toml)" } else { "" };
        let topic = format!("optional rule {}{by}", o.name);
        for e in &o.effects {
            line(&topic, w::effect_rule_words(e));
        }
        if !o.switches_off.is_empty() {
            line(
                &topic,
                format!("switches off {}", o.switches_off.join(", ")),
            );
        }
        if let Some(seq) = &o.sequence {
            line(&topic, format!("sequence of play: {}", w::play_words(seq)));
        }
        if let Some(orders) = &o.orders {
            line(
                &topic,
                format!("plotted orders: {}", w::orders_words(orders)),
            );
        }
    }
    if !s.turn_record.is_empty() {
        let turns: Vec<String> = s
            .turn_record
            .iter()
            .map(|t| {
                let mut text = match &t.weather {
                    Some(weather) => format!("turn {} {weather}", t.turn),
                    None => format!("turn {}", t.turn),
                };
                let mut more: Vec<String> =
                    t.minutes.iter().map(|m| format!("{m} minutes")).collect();
                more.extend(t.events.iter().cloned());
                if !more.is_empty() {
                    text += &format!(" ({})", more.join("; "));
                }
                text
            })
            .collect();
        line("turn record", turns.join(", "));
    }
    for w in &s.withdrawals {
        let units: Vec<String> = w
            .units
            .iter()
            .map(|u| {
                if u.count == 1 {
                    u.counter.clone()
                } else {
                    format!("{} x {}", u.count, u.counter)
                }
            })
            .collect();
        line(
            "withdrawal",
            format!(
                "{} takes off {} at the end of turn {}",
                w.side,
                units.join(", "),
                w.turn
            ),
        );
    }
    for p in &s.replacement_points {
        line(
            "replacement points",
            format!(
                "{}: {} a turn on turns {} to {}",
                p.side, p.points, p.from, p.to
            ),
        );
    }
    if !s.supply_sources.is_empty() {
        let sources: Vec<String> = s
            .supply_sources
            .iter()
            .map(|src| {
                let at = match &src.at {
                    SourceAt::Hex(h) => format!("hex {h}"),
                    SourceAt::Edge(e) => format!("the {e} edge"),
                    SourceAt::Label(l) => l.clone(),
                };
                format!("{}: {at}", src.side)
            })
            .collect();
        line("supply sources", sources.join("; "));
    }
    out
}

/// Whether the rules in play (the system's effects and special rules, and the rules
/// of the optional rules switched on) name a facing side class, and which kept states
/// they name: the summary words facing and states only where play uses them.
fn used_in_play<'a>(cx: &ScenarioCx<'a>) -> (bool, Vec<&'a str>) {
    use muster_semantic::rules::names::NameKind;
    let Some(system) = cx.system else {
        return (false, Vec::new());
    };
    let r = &system.rules;
    let on = muster_semantic::rules::optional_rules_on(cx);
    let mut walk = muster_semantic::rules::vocab::Walk::default();
    let in_play = r.effects.iter().chain(&r.special_rules).chain(
        r.optional_rules
            .iter()
            .filter(|o| on.iter().any(|x| x.id == o.id))
            .flat_map(|o| &o.effects),
    );
    // A permission counts where it names a troop type of the battle, as its line does.
    let kinds = super::rule_lines::kinds_in(cx);
    let permissions = r
        .permissions
        .iter()
        .filter(|p| w::names_any(system, &p.troops, &kinds));
    // A rule counts where its condition picks a unit kind of the battle, as its line
    // does.
    let fielded = fielded_kinds(cx, system);
    let bears = |c: &&muster_model::vocab::Condition| {
        fielded.is_empty() || fielded.iter().any(|k| admits_kind(c, system, k))
    };
    let whens = in_play
        .filter_map(|rule| rule.when.as_ref())
        .filter(bears)
        .chain(permissions.filter_map(|p| p.when.as_ref()));
    for c in whens {
        walk.condition(c, &muster_db::place::Place::rules(), NameKind::Faction);
    }
    let facing = walk.names.iter().any(|n| n.kind == NameKind::SideClass);
    let states = walk
        .names
        .iter()
        .filter(|n| n.kind == NameKind::State)
        .map(|n| n.name)
        .collect();
    (facing, states)
}

/// A special rule stated as data, in words: its own `when`/`then`, or the system's
/// rule of that id narrowed by its `when`. `None` for a built-in hook.
pub(super) fn special_rule_words(cx: &ScenarioCx, i: usize) -> Option<String> {
    let r = cx.scenario.special_rules.get(i)?;
    let declared = cx
        .system
        .is_some_and(|s| s.rules.special_rules.iter().any(|d| d.id == r.hook));
    if r.then.is_empty() && !declared {
        return None;
    }
    let rules = special_rule_rules(cx, i);
    let rule = rules.first()?;
    Some(w::rule_words(
        rule.when.as_ref(),
        &rule.then,
        Some(rule.section.as_str()).filter(|s| !s.is_empty()),
    ))
}

/// What a built-in hook desugars into, a rule a line (`id: effects: when (section)`);
/// empty for a special rule stated as data, whose words are its own.
pub(super) fn hook_rule_words(cx: &ScenarioCx, i: usize) -> Vec<String> {
    if special_rule_words(cx, i).is_some() {
        return Vec::new();
    }
    special_rule_rules(cx, i)
        .iter()
        .map(|r| {
            let section = Some(r.section.as_str()).filter(|s| !s.is_empty());
            format!(
                "{}: {}",
                r.id,
                w::rule_words(r.when.as_ref(), &r.then, section)
            )
        })
        .collect()
}

/// The unit kinds a scenario fields (a battle's leader as the commander kinds), and
/// those they may become in play through a `Becomes` effect (a 3L reduced to a 4L).
fn fielded_kinds<'a>(cx: &ScenarioCx<'a>, system: &'a RulesSystem) -> Vec<&'a UnitKind> {
    let r = &system.rules;
    let mut fielded: Vec<&'a UnitKind> = super::rule_lines::kinds_in(cx)
        .iter()
        .filter_map(|k| system.unit_kinds.iter().find(|u| u.id == *k))
        .collect();
    // A battle's leader is on the table too, as the system's commander kinds (Chanson
    // de Geste: Leaders ride with their units and may move alone).
    let led = cx.scenario.sides.iter().any(|s| match &s.forces {
        Forces::Table(t) => t.battles.iter().any(|b| b.leader.is_some()),
        Forces::Zoned(_) | Forces::Placed { .. } => false,
    });
    if led {
        for k in &system.unit_kinds {
            if k.role == UnitRole::Commander && !fielded.iter().any(|f| f.id == k.id) {
                fielded.push(k);
            }
        }
    }
    let mut grew = true;
    while grew {
        grew = false;
        for rule in &r.effects {
            let picks = rule
                .when
                .as_ref()
                .is_none_or(|c| fielded.iter().any(|k| admits_kind(c, system, k)));
            for e in rule.then.iter().filter(|_| picks) {
                let Effect::Becomes(id) = e else { continue };
                if let Some(k) = system.unit_kinds.iter().find(|u| u.id == *id)
                    && !fielded.iter().any(|f| f.id == k.id)
                {
                    fielded.push(k);
                    grew = true;
                }
            }
        }
    }
    fielded
}
