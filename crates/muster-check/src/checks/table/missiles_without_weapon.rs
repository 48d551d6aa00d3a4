use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that units marked `missiles: true` belong to a troop type that may carry
    /// missile weapons (Chanson de Geste: the scenario says which light or medium horsemen
    /// have them).
    ///
    /// ## Why is this bad?
    /// A unit cannot fire without a missile weapon; the flag or the troop type is wrong.
    ///
    /// ## Example
    /// ```ron
    /// (id: "s-knights-3", name: "Saint-Pol knights", troop: "knights", bases: 2, formation: Line, at: (42.0, 32.0), facing: 0.0, missiles: true),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "s-knights-3", name: "Saint-Pol knights", troop: "light-horsemen", bases: 2, formation: Line, at: (42.0, 32.0), facing: 0.0, missiles: true),
    /// ```
    pub META = ("table::missiles-without-weapon", Error, "horsemen marked as firing whose troop type has no missile weapon");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    use muster_model::system::KindStats;
    for side in cx.table_sides() {
        for (k, u) in side.forces.units.iter().enumerate() {
            if !u.missiles {
                continue;
            }
            let may = match cx.unit_kind(&u.troop).and_then(|k| k.stats.as_ref()) {
                Some(KindStats::Troop {
                    may_have_missiles,
                    missile_range,
                    ..
                }) => *may_have_missiles || missile_range.is_some(),
                _ => true,
            };
            if !may {
                sink.push(
                    Report::new(
                        &META,
                        side.place.field("units").index(k).field("missiles"),
                        format!(
                            "`{}` troops of unit `{}` carry no missile weapon",
                            u.troop, u.id
                        ),
                    )
                    .help("remove `missiles: true`, or use a troop type that may carry missiles"),
                );
            }
        }
    }
}
