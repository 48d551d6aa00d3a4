use muster_model::map::Overlay;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_db::suggest::did_you_mean;
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that every hexside feature a map draws (roads, rivers, creeks, bridges) is
    /// one the system defines.
    ///
    /// ## Why is this bad?
    /// An unknown feature has no movement or combat effect, so a road or a river drawn
    /// with a typo would silently do nothing.
    ///
    /// ## Example
    /// ```ron
    /// Path(feature: "raod", hexes: ["0301", "0302", "0303"]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Path(feature: "road", hexes: ["0301", "0302", "0303"]),
    /// ```
    pub META = ("references::unknown-feature", Error, "a hexside feature the system does not define");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let (Some(system), Some(map)) = (cx.system, cx.map()) else {
        return;
    };
    let known: Vec<&str> = system
        .hexside_features
        .iter()
        .map(|t| t.id.as_str())
        .collect();
    for (i, o) in map.overlays.iter().enumerate() {
        let (place, feature) = match o {
            Overlay::Path { feature, .. } => {
                (Place::overlay(i).variant("Path").field("feature"), feature)
            }
            Overlay::Hexsides { feature, .. } => (
                Place::overlay(i).variant("Hexsides").field("feature"),
                feature,
            ),
            _ => continue,
        };
        if !known.contains(&feature.as_str()) {
            sink.push(
                Report::new(
                    &META,
                    place,
                    format!(
                        "unknown hexside feature `{feature}` in system `{}`",
                        system.id
                    ),
                )
                .help_opt(did_you_mean(feature, known.iter().copied()).or_else(
                    || {
                        Some(format!(
                            "hexside features of system `{}`: {}",
                            system.id,
                            known.join(", ")
                        ))
                    },
                )),
            );
        }
    }
}
