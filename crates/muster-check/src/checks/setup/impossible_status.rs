use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that a unit line's starting `status` is one its counter can be at: not a
    /// level that removes the unit from play (`removes: true`), and not a level below
    /// the first for a counter with one step (no `reduced` strength on the sheet).
    ///
    /// ## Why is this bad?
    /// A unit set up eliminated is no unit on the map; one set up reduced when its
    /// counter has no reduced side cannot be shown or counted. Units that start out of
    /// play go in the eliminated box (`at: Box(Eliminated)`).
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "red-baggage", status: "reduced")], at: Hexes(["0903"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "red-baggage")], at: Hexes(["0903"])),
    /// ```
    pub META = ("setup::impossible-status", Error, "a unit line starting at a status its counter cannot be at");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    // Unknown levels are `setup::unknown-status`; unknown counters `references::unknown-counter`.
    let Some(ladder) = cx.status_ladder() else {
        return;
    };
    for (place, line, army) in cx.unit_lines() {
        let Some(status) = line.status.as_deref() else {
            continue;
        };
        let Some(index) = ladder.index_of(status) else {
            continue;
        };
        let level = &ladder.levels[index];
        let at = place.field("status");
        if level.removes {
            sink.push(
                Report::new(
                    &META,
                    at,
                    format!(
                        "`{}` starts at `{status}` ({}), a level that removes it from play",
                        line.counter, level.name
                    ),
                )
                .help("set up units that start out of play with `at: Box(Eliminated)`"),
            );
            continue;
        }
        let Some(counter) = army.and_then(|a| cx.counter(a, &line.counter)) else {
            continue;
        };
        if index > 0 && counter.reduced.is_none() {
            sink.push(
                Report::new(
                    &META,
                    at,
                    format!(
                        "`{}` has one step (no reduced strength) but starts at `{status}` ({})",
                        line.counter, level.name
                    ),
                )
                .label(
                    muster_db::report::Loc::Value(place.field("counter")),
                    "this counter has no reduced side",
                )
                .help(format!(
                    "remove `status`, or give `{}` a `reduced` strength on the counter sheet",
                    line.counter
                )),
            );
        }
    }
}
