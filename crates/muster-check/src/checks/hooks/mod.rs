//! Special-rule hooks: known ids with well-typed parameters that name units the
//! scenario fields.

pub mod bad_parameter;
pub mod counter_not_in_scenario;
pub mod counter_wrong_side;
pub mod unknown_hook;

use muster_semantic::ScenarioCx;

/// The sides that field a counter in the scenario (set up, neutral or arriving as a
/// reinforcement), each once: `Some(side index)`, `None` for neutrals.
fn fielded_by(cx: &ScenarioCx, counter: &str) -> Vec<Option<usize>> {
    let mut out = Vec::new();
    let mut add = |side: Option<usize>| {
        if !out.contains(&side) {
            out.push(side);
        }
    };
    for g in &cx.groups {
        if g.units.iter().any(|u| u.counter_id == counter) {
            add(g.side);
        }
    }
    for r in &cx.scenario.reinforcements {
        if r.units.iter().any(|u| u.counter == counter)
            && let Some(i) = cx.scenario.sides.iter().position(|s| s.id == r.side)
        {
            add(Some(i));
        }
    }
    out
}

/// Whether any army of the scenario (its sides' and its neutrals') has the counter;
/// `references::unknown-counter` reports the others.
fn in_some_army(cx: &ScenarioCx, counter: &str) -> bool {
    let s = cx.scenario;
    s.sides
        .iter()
        .filter_map(|x| x.army.as_deref())
        .chain(s.neutrals.iter().map(|n| n.army.as_str()))
        .filter_map(|a| cx.army(a))
        .any(|a| a.counters.iter().any(|c| c.id == counter))
}
