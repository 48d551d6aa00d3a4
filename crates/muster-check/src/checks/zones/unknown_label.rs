use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::{ScenarioCx, missing_label};

declare_check! {
    /// ## What it does
    /// Checks that every lettered hex a deployment zone is measured from (`H` in `H-5`) is
    /// labelled on the scenario's map.
    ///
    /// ## Why is this bad?
    /// Without the label the zone has no place on the map and nothing can be set up.
    ///
    /// ## Example
    /// ```ron
    /// zone: AnyOf([Near(label: "C", radius: 2), Near(label: "G", radius: 2)]), // the map labels A to F
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// zone: AnyOf([Near(label: "C", radius: 2), Near(label: "D", radius: 2)]),
    /// ```
    pub META = ("zones::unknown-label", Error, "a deployment zone names a label that is not on the map");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(map) = cx.map else { return };
    for side in cx.zoned_sides() {
        for (k, d) in side.forces.deploy.iter().enumerate() {
            let Some(zone) = &d.zone else { continue };
            let mut labels = Vec::new();
            ScenarioCx::zone_labels(
                zone,
                &side.place.field("deploy").index(k).field("zone"),
                &mut labels,
            );
            for (place, label) in labels {
                if let Some(report) = missing_label(&META, map, place, label) {
                    sink.push(report);
                }
            }
        }
    }
}
