use muster_model::counters::Army;
use muster_model::scenario::{MoraleThreshold, VictoryCondition};

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_db::suggest::did_you_mean;
use muster_semantic::ScenarioCx;
use muster_semantic::hooks::RefKind;

declare_check! {
    /// ## What it does
    /// Checks that every counter a scenario names (in setup, reinforcements, neutral
    /// units, morale thresholds, victory conditions and special rules) exists in the army
    /// it must come from, and suggests the nearest counter id.
    ///
    /// ## Why is this bad?
    /// A misspelt unit would be missing from the battle, and nothing else about it
    /// (terrain, stacking, losses) could be checked.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "saxxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    pub META = ("references::unknown-counter", Error, "a counter the army does not have");
}

fn check(sink: &mut Sink, armies: &[&Army], place: Place, id: &str) {
    if armies.is_empty() || armies.iter().any(|a| a.counters.iter().any(|c| c.id == id)) {
        return;
    }
    let names: Vec<&str> = armies.iter().map(|a| a.id.as_str()).collect();
    let candidates = armies
        .iter()
        .flat_map(|a| a.counters.iter().map(|c| c.id.as_str()));
    sink.push(
        Report::new(
            &META,
            place,
            format!(
                "no counter `{id}` in army {}",
                names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        )
        .help_opt(did_you_mean(id, candidates)),
    );
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    if cx.counters.is_none() {
        return;
    }
    let s = cx.scenario;
    let side_army = |id: &str| {
        s.sides
            .iter()
            .position(|x| x.id == id)
            .and_then(|i| cx.side_army(i))
    };
    // Setup and neutral groups: report once per unit group, not per copy.
    for group in cx.groups() {
        let Some(army) = group.army else { continue };
        let mut done = Vec::new();
        for slot in &group.units {
            if slot.counter.is_none() && !done.contains(&&slot.place) {
                check(sink, &[army], slot.place.clone(), slot.counter_id);
                done.push(&slot.place);
            }
        }
    }
    for (i, r) in s.reinforcements.iter().enumerate() {
        if let Some(army) = cx.reinforcement_army(r) {
            for (u, g) in r.units.iter().enumerate() {
                check(
                    sink,
                    &[army],
                    Place::reinforcement(i)
                        .field("units")
                        .index(u)
                        .field("counter"),
                    &g.counter,
                );
            }
        }
    }
    for (i, side) in s.sides.iter().enumerate() {
        if let (Some(MoraleThreshold::ByLosses { counter, .. }), Some(army)) =
            (&side.morale_threshold, cx.side_army(i))
        {
            check(
                sink,
                &[army],
                Place::side(i)
                    .field("morale_threshold")
                    .variant("ByLosses")
                    .field("counter"),
                counter,
            );
        }
    }
    let all: Vec<&Army> = cx.armies_in_play();
    for (i, v) in s.victory.iter().enumerate() {
        match v {
            VictoryCondition::ExitUnits { side, counter, .. } => {
                if let Some(army) = side_army(side) {
                    check(
                        sink,
                        &[army],
                        Place::victory(i).variant("ExitUnits").field("counter"),
                        counter,
                    );
                }
            }
            VictoryCondition::ExtraTurns { counter, .. } => check(
                sink,
                &all,
                Place::victory(i).variant("ExtraTurns").field("counter"),
                counter,
            ),
            VictoryCondition::ShiftOnEliminations { counters, .. } => {
                for (k, c) in counters.iter().enumerate() {
                    check(
                        sink,
                        &all,
                        Place::victory(i)
                            .variant("ShiftOnEliminations")
                            .field("counters")
                            .index(k),
                        c,
                    );
                }
            }
            _ => {}
        }
    }
    for hook in cx.hooks() {
        for r in hook.references() {
            if let RefKind::Counter { id, .. } = r.kind {
                check(sink, &all, hook.place_of(&r), id);
            }
        }
    }
}
