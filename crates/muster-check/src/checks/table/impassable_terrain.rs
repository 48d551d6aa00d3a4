use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks the table features under each unit's footprint: impassable features, features
    /// that forbid the unit's troop type, and very rough ground for troop types that may
    /// not enter it (transport); a camp may not lie in very rough ground either.
    ///
    /// ## Why is this bad?
    /// The unit could never have reached that ground and cannot move in it.
    ///
    /// ## Example
    /// ```ron
    /// (id: "n-wagons", name: "Wagons", troop: "transport", bases: 1, formation: Line, at: (42.0, 16.0), facing: 180.0), // in the quarry
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "n-wagons", name: "Wagons", troop: "transport", bases: 1, formation: Line, at: (42.0, 14.0), facing: 180.0), // just north of the quarry
    /// ```
    pub META = ("table::impassable-terrain", Error, "a unit or camp in terrain it may not enter");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    use muster_model::system::{FeatureClass, KindStats};
    use muster_semantic::table::{footprint, footprint_overlaps, shapes_overlap};
    let Some(table) = cx.table else { return };
    let troop_ok = |troop: &str, f: &muster_model::table::CompiledFeature| {
        if f.movement_factor.is_none() || f.forbidden.iter().any(|k| k == troop) {
            return false;
        }
        let very_rough_ok = match cx.unit_kind(troop).and_then(|k| k.stats.as_ref()) {
            Some(KindStats::Troop { very_rough, .. }) => *very_rough,
            _ => true,
        };
        f.class != FeatureClass::VeryRough || very_rough_ok
    };
    for side in cx.table_sides() {
        for (k, u) in side.forces.units.iter().enumerate() {
            let Some(corners) = footprint(cx, u) else {
                continue;
            };
            if let Some(f) = table.features.iter().find(|f| {
                f.class != FeatureClass::LinearObstacle
                    && f.class != FeatureClass::Road
                    && !troop_ok(&u.troop, f)
                    && footprint_overlaps(&corners, &f.shape)
            }) {
                sink.push(
                    Report::new(
                        &META,
                        side.place.field("units").index(k).field("at"),
                        format!(
                            "unit `{}` ({}) stands in `{}`, which it may not enter",
                            u.id,
                            u.troop,
                            f.name.as_deref().unwrap_or(&f.feature)
                        ),
                    )
                    .help("move the unit out of that ground"),
                );
            }
        }
        if let Some(camp) = &side.forces.camp
            && let Some(f) = table.features.iter().find(|f| {
                (f.class == FeatureClass::VeryRough || f.movement_factor.is_none())
                    && shapes_overlap(&camp.area, &f.shape)
            })
        {
            sink.push(
                Report::new(
                    &META,
                    side.place.field("camp").field("area"),
                    format!(
                        "the camp lies in `{}`, where transport may not go",
                        f.name.as_deref().unwrap_or(&f.feature)
                    ),
                )
                .help("pitch the camp on open or rough ground"),
            );
        }
    }
}
