use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Computes the footprint of each unit from its troop type's base size, number of
    /// bases, formation and facing, and checks that it lies on the table; deployment zones,
    /// traps and camps must lie on the table too.
    ///
    /// ## Why is this bad?
    /// Something placed off the table cannot be played; the coordinates are mistyped or the
    /// table is too small.
    ///
    /// ## Example
    /// ```ron
    /// (id: "n-wagons", name: "Wagons", troop: "transport", bases: 1, formation: Line, at: (47.0, 4.0), facing: 180.0), // 2.5 inches wide: reaches x 48.25
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "n-wagons", name: "Wagons", troop: "transport", bases: 1, formation: Line, at: (47.0, 4.0), facing: 90.0), // faces the east edge
    /// ```
    pub META = ("table::off-table", Error, "a unit, zone, trap or camp outside the table");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    use muster_map::geometry::extent;
    use muster_semantic::table::{footprint, table_size};
    let Some((width, depth)) = table_size(cx) else {
        return;
    };
    let inside =
        |p: &(f64, f64)| p.0 >= -1e-9 && p.1 >= -1e-9 && p.0 <= width + 1e-9 && p.1 <= depth + 1e-9;
    for side in cx.table_sides() {
        for (k, u) in side.forces.units.iter().enumerate() {
            let Some(corners) = footprint(cx, u) else {
                continue;
            };
            if !corners.iter().all(inside) {
                sink.push(
                    Report::new(
                        &META,
                        side.place.field("units").index(k).field("at"),
                        format!(
                            "unit `{}` reaches beyond the {width} x {depth} inch table",
                            u.id
                        ),
                    )
                    .help("move the unit inward or turn it"),
                );
            }
        }
        let mut shapes: Vec<(Place, String, &muster_model::map::Shape)> = Vec::new();
        shapes.extend(side.forces.zones.iter().enumerate().map(|(k, z)| {
            (
                side.place.field("zones").index(k).field("area"),
                format!("deployment zone `{}`", z.id),
                &z.area,
            )
        }));
        shapes.extend(side.forces.traps.iter().enumerate().map(|(k, t)| {
            (
                side.place.field("traps").index(k).field("area"),
                "this trap".to_string(),
                &t.area,
            )
        }));
        shapes.extend(side.forces.camp.iter().map(|c| {
            (
                side.place.field("camp").field("area"),
                "the camp".to_string(),
                &c.area,
            )
        }));
        for (place, what, shape) in shapes {
            if !extent(shape).iter().all(inside) {
                sink.push(
                    Report::new(
                        &META,
                        place,
                        format!("{what} reaches beyond the {width} x {depth} inch table"),
                    )
                    .help("keep areas on the table"),
                );
            }
        }
    }
}
