use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::Sink;
use muster_semantic::{ScenarioCx, missing_label};

declare_check! {
    /// ## What it does
    /// Checks that every lettered hex a victory goal names (hexes to control, the label
    /// exits are measured from) is labelled on the scenario's map.
    ///
    /// ## Why is this bad?
    /// A goal on a hex that does not exist can never be met.
    ///
    /// ## Example
    /// ```ron
    /// Goals(side: "north", any_of: [[Control(labels: ["G"], consecutive_turns: 2)], [Level("Substantive")]]), // the map labels A to F
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Goals(side: "north", any_of: [[Control(labels: ["E", "F"], consecutive_turns: 2)], [Level("Substantive")]]),
    /// ```
    pub META = ("victory::unknown-label", Error, "a victory condition names a label that is not on the map");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    use muster_model::scenario::Goal;
    let Some(map) = cx.map else { return };
    for (base, goal) in cx.goals() {
        // Only the labels the map lacks are given a place: a list may name one label
        // hundreds of thousands of times.
        let labels: Vec<(Place, &String)> = match goal {
            Goal::Control { labels, .. } => labels
                .iter()
                .enumerate()
                .filter(|(_, l)| map.label(l).is_none())
                .map(|(k, l)| (base.variant("Control").field("labels").index(k), l))
                .collect(),
            Goal::Exit {
                near: Some((label, _)),
                ..
            } => vec![(base.variant("Exit").field("near").index(0), label)],
            _ => continue,
        };
        for (place, label) in labels {
            if let Some(report) = missing_label(&META, map, place, label) {
                sink.push(report);
            }
        }
    }
    for t in muster_semantic::victory::victory_tests(cx.scenario) {
        let muster_model::scenario::VictoryTest::Controls(labels) = t.test else {
            continue;
        };
        for (k, label) in labels.iter().enumerate() {
            if map.label(label).is_some() {
                continue;
            }
            let place = t.at.variant("Controls").index(k);
            if let Some(report) = missing_label(&META, map, place, label) {
                sink.push(report);
            }
        }
    }
}
