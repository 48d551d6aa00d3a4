//! The system's typed rules in words, as they bear on one scenario: the balance
//! sheet's "rules in play" part, one block per rule family.

use super::*;

/// The unit kinds a scenario fields, each once, in order of appearance.
pub(super) fn kinds_in<'a>(cx: &ScenarioCx<'a>) -> Vec<&'a str> {
    let mut out: Vec<&'a str> = Vec::new();
    let mut add = |k: &'a str| {
        if !out.contains(&k) {
            out.push(k);
        }
    };
    for g in cx.groups() {
        for u in &g.units {
            if let Some(k) = u.kind {
                add(&k.id);
            }
        }
    }
    for side in &cx.scenario.sides {
        match &side.forces {
            Forces::Zoned(z) => z.units.iter().for_each(|u| add(&u.kind)),
            Forces::Table(t) => {
                t.units.iter().for_each(|u| add(&u.troop));
                t.bands
                    .iter()
                    .flat_map(|b| b.figures.iter())
                    .for_each(|f| add(&f.kind));
            }
            Forces::Placed { .. } => {}
        }
    }
    out
}

/// The system's typed rules in words, as they bear on this scenario.
pub(super) fn rule_lines(cx: &ScenarioCx) -> Vec<RuleLine> {
    use muster_model::rules::{Action, Allowance};

    use crate::rule_words as r;

    let Some(system) = cx.system else {
        return Vec::new();
    };
    let rules = &system.rules;
    let mut out = Vec::new();
    let mut line = |topic: &str, text: String| {
        out.push(RuleLine {
            topic: topic.to_string(),
            text,
        })
    };
    if let Some(text) = r::sequence_words(rules) {
        line("sequence of play", text);
    }
    if let Some(ladder) = &rules.status {
        line("unit status", r::ladder_words(ladder));
    }
    if let Some(crt) = &system.combat_results {
        let mut dice: Vec<u8> = crt.rows.iter().map(|row| row.die).collect();
        dice.sort_unstable();
        dice.dedup();
        let read = match crt.rounding {
            Some(muster_model::system::OddsRounding::ForAttacker) => "at or above",
            Some(muster_model::system::OddsRounding::ForDefender) | None => "at or below",
        };
        let by = crt.index.words();
        let mut text = match (crt.odds.first(), crt.odds.last()) {
            (Some(low), Some(high)) if crt.odds.len() > 1 => format!(
                "by {by}, {} columns from {low} to {high}, an attack read in the column {read} its {by}",
                crt.odds.len()
            ),
            (Some(only), _) => format!("by {by}, one column ({only})"),
            _ => format!("no {by} columns"),
        };
        if let (Some(low), Some(high)) = (dice.first(), dice.last()) {
            text += &format!("; die rolls {low} to {high}");
        }
        line("combat results", text);
    }
    if let Some(c) = &rules.combat {
        for (_, text) in r::combat_words(c, &system.grid) {
            line("combat", text);
        }
    }
    for t in &rules.result_tables {
        line("result table", r::table_words(t, rules.status.as_ref()));
    }
    if !rules.force_ratios.is_empty() {
        let bound = |v: f64| format!("{v}");
        line(
            "force ratios",
            rules
                .force_ratios
                .iter()
                .map(|f| match f.to {
                    Some(to) if to == f.from => format!("{} {} to 1", f.name, bound(to)),
                    Some(to) => format!(
                        "{} {} {} to below {} to 1",
                        f.name,
                        if f.from_exclusive { "above" } else { "from" },
                        bound(f.from),
                        bound(to)
                    ),
                    None => format!("{} {} to 1 or more", f.name, bound(f.from)),
                })
                .collect::<Vec<_>>()
                .join("; "),
        );
    }
    if let Some(l) = &rules.leader_loss {
        let mut text = format!(
            "after {}, an attached leader of a side that lost levels is lost on a d{} at or under the levels lost",
            l.after.join(", "),
            l.die
        );
        if let (Some(from), Some(roll)) = (l.escape_only_from, l.escape_roll) {
            text += &format!("; from {from} levels lost he escapes only on a {roll}");
        }
        line("leader loss", text);
    }
    let kinds = kinds_in(cx);
    let mut actions: Vec<Action> = Vec::new();
    for p in &rules.permissions {
        if !actions.contains(&p.action) {
            actions.push(p.action);
        }
    }
    for action in actions {
        let by = r::allowances_among(system, &kinds, action);
        if by.is_empty() {
            continue;
        }
        line(
            action.words(),
            by.iter()
                .map(|(a, list)| {
                    format!(
                        "{}: {}",
                        match a {
                            Allowance::Must => "must",
                            Allowance::May => "may",
                            Allowance::Never => "never",
                        },
                        list.join(", ")
                    )
                })
                .collect::<Vec<_>>()
                .join("; "),
        );
    }
    if let Some(c) = &rules.terrain_combine {
        line("terrain combine", r::terrain_combine_words(c));
    }
    if let Some(m) = &rules.morale {
        let mut parts: Vec<String> = m
            .triggers
            .iter()
            .map(|t| {
                let mut text = format!("{} on {}", troops_words(&t.troops), t.event.words());
                if !t.exempt.is_empty() {
                    text += &format!(" (not {})", troops_words(&t.exempt));
                }
                if let Some(name) = &t.test {
                    text += &format!(": {name}");
                }
                text
            })
            .collect();
        if !m.never_test.is_empty() {
            parts.push(format!("{} never test", troops_words(&m.never_test)));
        }
        if !m.failure_does_not_stop.is_empty() {
            parts.push("a failed test does not stop fire".to_string());
        }
        for md in &m.modifiers {
            parts.push(format!(
                "{:+} morale for {} {} {}",
                md.value,
                troops_words(&md.to),
                md.reach.words(),
                troops_words(&md.from)
            ));
        }
        line("morale tests", parts.join("; "));
    }
    if let Some(m) = rules
        .movement
        .as_ref()
        .and_then(|m| m.minimum_move.as_ref())
    {
        let who = if m.status.is_empty() {
            "any unit".to_string()
        } else {
            format!(
                "a unit at {}",
                m.status
                    .iter()
                    .map(|id| level_name(rules, id))
                    .collect::<Vec<_>>()
                    .join(" or ")
            )
        };
        line(
            "minimum move",
            format!(
                "{who} may always move {} hex{}{}",
                m.hexes,
                if m.hexes == 1 { "" } else { "es" },
                if m.whole_move {
                    ", its whole move for the turn"
                } else {
                    ""
                }
            ),
        );
    }
    if let Some(p) = &rules.panic {
        let near = |list: &[muster_model::rules::NearLeader]| {
            list.iter()
                .map(|n| format!("{} {}", n.reach.words(), n.leaders.join(", ")))
                .collect::<Vec<_>>()
                .join(" or ")
        };
        let mut parts = vec![format!(
            "{}the army panics at once when its losses reach the panic level",
            if p.optional { "(optional) " } else { "" }
        )];
        if p.once {
            parts[0] += ", once a game";
        }
        if !p.spared_near.is_empty() {
            parts.push(format!("not units {}", near(&p.spared_near)));
        }
        if let Some(r) = &p.rally {
            let by = if r.by == p.spared_near {
                "by the same leaders".to_string()
            } else {
                near(&r.by)
            };
            parts.push(format!("rallied after {} {by}", r.after_phase));
        }
        line("panic", parts.join("; "));
    }
    if let Some(d) = &rules.defensive_fire {
        line(
            "defensive fire",
            format!(
                "{} attacked in melee may fire first{}, then fight the first round at {:+}",
                troops_words(&d.troops),
                d.as_range
                    .map_or(String::new(), |r| format!(" as at {}", inches(r))),
                d.first_melee_round_modifier
            ),
        );
    }
    if let Some(los) = &rules.line_of_sight {
        let mut text = if los.units_block {
            "units block it".to_string()
        } else {
            "units do not block it".to_string()
        };
        if let Some(d) = los.lower_units_block_within {
            text += &format!(", lower ones only within {} of the target", inches(d));
        }
        if let Some(d) = los.into_concealing {
            text += &format!(
                "; it reaches {} into {}",
                inches(d),
                los.concealing.join(", ")
            );
        }
        if !los.occupied_blocks.is_empty() {
            let by: Vec<String> = los
                .occupied_blocks
                .iter()
                .map(|o| {
                    let mut t = format!("{}: {}", o.firer_at, o.blocked_by.join(", "));
                    if let Some(a) = &o.unless_through_adjacent {
                        t += &format!(" unless over an adjacent {a}");
                    }
                    t
                })
                .collect();
            text += &format!(
                "; occupied hexes that block, by the firer's elevation: {}",
                by.join("; ")
            );
        }
        for b in &los.blocking {
            text += &format!("; {} block", b.terrain.join(", "));
            if !b.firer_at.is_empty() {
                text += &format!(" firers at {}", b.firer_at.join(", "));
            }
            if !b.unless_next_to.is_empty() {
                text += &format!(" unless next to a {}", b.unless_next_to.join(", "));
            }
        }
        if let Some(h) = los.along_hexside {
            text += match h {
                muster_model::rules::HexsideSight::ClearIfEitherClear => {
                    "; along a hexside clear if either hex is"
                }
                muster_model::rules::HexsideSight::BlockedIfEitherBlocked => {
                    "; along a hexside blocked if either hex is"
                }
            };
        }
        line("line of sight", text);
    }
    if let Some(bp) = &system.break_point {
        for sp in &bp.status_points {
            let name = rules
                .status
                .as_ref()
                .and_then(|l| l.levels.iter().find(|x| x.id == sp.level))
                .map_or(sp.level.as_str(), |x| x.name.as_str());
            line(
                "break points",
                format!("each unbroken {name} unit scores {}", sp.points),
            );
        }
    }
    for p in rules.permissions.iter().filter(|p| !p.is_conditional()) {
        let Some(status) = &p.status else { continue };
        let name = rules
            .status
            .as_ref()
            .and_then(|l| l.levels.iter().find(|x| &x.id == status))
            .map_or(status.as_str(), |x| x.name.as_str());
        line(
            p.action.words(),
            format!(
                "{}: {} at {name}",
                match p.allowed {
                    Allowance::Must => "must",
                    Allowance::May => "may",
                    Allowance::Never => "never",
                },
                troops_words(&p.troops)
            ),
        );
    }
    // Entries that apply only under a condition, for the troops present, with the
    // typed condition in words, then the one written in words.
    for p in rules
        .permissions
        .iter()
        .filter(|p| p.is_conditional() && r::names_any(system, &p.troops, &kinds))
    {
        let mut who = troops_words(&p.troops);
        if !p.except.is_empty() {
            who += &format!(" but {}", troops_words(&p.except));
        }
        if let Some(status) = &p.status {
            who += &format!(" at {}", level_name(rules, status));
        }
        line(
            p.action.words(),
            format!(
                "{}: {who} ({})",
                match p.allowed {
                    Allowance::Must => "must",
                    Allowance::May => "may",
                    Allowance::Never => "never",
                },
                p.when
                    .iter()
                    .map(crate::rule_words::condition_words)
                    .chain(p.condition.clone())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        );
    }
    for (i, side) in cx.scenario.sides.iter().enumerate() {
        if let Some((min, max)) = r::men_represented(cx, i) {
            line(
                "men represented",
                format!(
                    "{}: {} to {} men",
                    side.name,
                    thousands(min),
                    thousands(max)
                ),
            );
        }
    }
    if let Some(order) = rules.victory_order
        && cx.goals().iter().any(|(_, g)| matches!(g, Goal::Level(_)))
    {
        let levels: Vec<&str> = system
            .victory_levels
            .iter()
            .map(|l| l.name.as_str())
            .collect();
        line(
            "victory levels",
            match order {
                muster_model::rules::VictoryOrder::HigherSatisfiesLower => format!(
                    "{}; a higher level also meets a condition calling for a lower one",
                    levels.join(" < ")
                ),
                muster_model::rules::VictoryOrder::Exact => {
                    format!(
                        "{}; only the level named meets a condition",
                        levels.join(", ")
                    )
                }
            },
        );
    }
    if let Some(exit) = &rules.exit
        && (cx
            .goals()
            .iter()
            .any(|(_, g)| matches!(g, Goal::Exit { .. }))
            || cx
                .scenario
                .victory
                .iter()
                .any(|v| matches!(v, VictoryCondition::ExitUnits { .. })))
    {
        line(
            "exiting",
            format!(
                "a unit needs {} movement point{} left to leave the map; {}",
                exit.cost,
                if exit.cost == 1.0 { "" } else { "s" },
                if exit.may_return {
                    "it may come back"
                } else {
                    "units that left never come back"
                }
            ),
        );
    }
    for u in r::unled_sides(cx) {
        let side = &cx.scenario.sides[u.side].name;
        let mut text = format!(
            "{side} have no leader: {} begin every movement phase out of control and move at {} their allowance all game",
            if u.reduced.is_empty() {
                "none of their units".to_string()
            } else {
                u.reduced.join(", ")
            },
            if u.factor == 0.5 {
                "half".to_string()
            } else {
                format!("{} of", u.factor)
            }
        );
        if let Some(note) = &u.note
            && !u.exempt.is_empty()
        {
            text += &format!("; {} are exempt ({note})", u.exempt.join(", "));
        }
        line("leader control", text);
    }
    out
}

/// The name of a status level, or its id if the ladder does not have it.
fn level_name<'a>(rules: &'a muster_model::rules::Rules, id: &'a str) -> &'a str {
    rules
        .status
        .as_ref()
        .and_then(|l| l.levels.iter().find(|x| x.id == id))
        .map_or(id, |x| x.name.as_str())
}

/// Troop names in words: `"*"` is everyone.
fn troops_words(troops: &[String]) -> String {
    troops
        .iter()
        .map(|t| if t == "*" { "all" } else { t.as_str() })
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) use crate::rule_words::inches;

/// A whole number with thousands separated: `18,000`.
fn thousands(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
