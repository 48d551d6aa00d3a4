use std::collections::BTreeMap;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Counts the copies of each counter a side uses (setup, reinforcements) and
    /// reports the first use beyond the number the counter sheet holds.
    ///
    /// ## Why is this bad?
    /// A scenario cannot put on the map more counters than the game contains; either the
    /// count in the scenario or the counter sheet is wrong.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "saxe", count: 3)], at: Hexes(["0903", "1004", "1104"])),
    /// // the sheet holds (id: "saxe", ..., count: 2)
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    pub META = ("setup::exceeds-counter-sheet", Error, "more copies of a counter than the sheet holds");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    // (army, counter) -> places of each use, one per copy.
    let mut uses: BTreeMap<(&str, &str), Vec<Place>> = BTreeMap::new();
    for g in cx.groups() {
        let Some(army) = g.army else { continue };
        for slot in &g.units {
            uses.entry((army.id.as_str(), slot.counter_id))
                .or_default()
                .push(slot.place.clone());
        }
    }
    for (i, r) in cx.scenario.reinforcements.iter().enumerate() {
        let Some(army) = cx.reinforcement_army(r) else {
            continue;
        };
        for (u, g) in r.units.iter().enumerate() {
            for _ in 0..g.count {
                uses.entry((army.id.as_str(), g.counter.as_str()))
                    .or_default()
                    .push(
                        Place::reinforcement(i)
                            .field("units")
                            .index(u)
                            .field("counter"),
                    );
            }
        }
    }
    for ((army, counter), places) in uses {
        let Some(c) = cx
            .army(army)
            .and_then(|a| a.counters.iter().find(|c| c.id == counter))
        else {
            continue;
        };
        let held = usize::from(c.count);
        if places.len() > held {
            let over = &places[held];
            let mut report = Report::new(
                &META,
                over.clone(),
                format!(
                    "counter `{counter}` is used {} times but army `{army}` holds {held}",
                    places.len()
                ),
            )
            .help(format!(
                "use at most {held}, or raise `count` on the counter sheet"
            ));
            if let Some(first) = places.iter().find(|p| *p != over) {
                report = report.label(Loc::Value(first.clone()), "also used here");
            }
            sink.push(report);
        }
    }
}
