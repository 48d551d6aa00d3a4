use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_db::suggest::did_you_mean;
use muster_model::scenario::Forces;
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that each side's `army`, and the `army` of a set-up group, reinforcement
    /// or neutral group, is an army of the scenario's counter sheet.
    ///
    /// ## Why is this bad?
    /// The army supplies the counters the side sets up; without it no unit can be
    /// checked.
    ///
    /// ## Example
    /// ```ron
    /// neutrals: [(army: "gray", units: [(counter: "catalogne")], at: Hexes(["0502"]))],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// neutrals: [(army: "grey", units: [(counter: "catalogne")], at: Hexes(["0502"]))],
    /// ```
    pub META = ("references::unknown-army", Error, "an army the counter sheet does not have");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(sheet) = cx.counters else { return };
    let known: Vec<&str> = sheet.armies.iter().map(|a| a.id.as_str()).collect();
    let s = cx.scenario;
    let groups = s
        .sides
        .iter()
        .enumerate()
        .flat_map(|(i, side)| match &side.forces {
            Forces::Placed { setup, .. } => setup
                .iter()
                .enumerate()
                .filter_map(|(j, g)| {
                    Some((Place::setup_group(i, j).field("army"), g.army.as_ref()?))
                })
                .collect(),
            Forces::Zoned(_) | Forces::Table(_) => Vec::new(),
        });
    let arriving = s
        .reinforcements
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((Place::reinforcement(i).field("army"), r.army.as_ref()?)));
    let refs = s
        .sides
        .iter()
        .enumerate()
        .filter_map(|(i, s)| Some((Place::side(i).field("army"), s.army.as_ref()?)))
        .chain(groups)
        .chain(arriving)
        .chain(
            cx.scenario
                .neutrals
                .iter()
                .enumerate()
                .map(|(i, n)| (Place::neutral(i).field("army"), &n.army)),
        );
    for (place, army) in refs {
        if cx.army(army).is_none() {
            sink.push(
                Report::new(
                    &META,
                    place,
                    format!("counter sheet `{}` has no army `{army}`", sheet.id),
                )
                .help_opt(did_you_mean(army, known.iter().copied())),
            );
        }
    }
}
