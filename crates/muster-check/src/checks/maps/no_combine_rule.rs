use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;
use muster_semantic::features::added_features;

declare_check! {
    /// ## What it does
    /// Checks that a map which adds terrain features to its hexes (`AddTerrain`) uses a
    /// system that says how the terrains of one hex combine (`rules.terrain_combine`).
    ///
    /// ## Why is this bad?
    /// A hex of woods with a village costs what? The most costly of the two, both added
    /// up, or the woods alone? Without the rule an engine can only guess, and the
    /// compiled table falls back on the hex's own terrain, as if the feature were not
    /// there.
    ///
    /// ## Example
    /// ```ron
    ///     system: "zsys",
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///     system: "test",
    /// ```
    pub META = ("maps::no-combine-rule", Error, "features added to hexes without a rule to combine them");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let (Some(source), Some(map), Some(system)) =
        (cx.map(), cx.db.terrain_map(cx.index), cx.system)
    else {
        return;
    };
    if system.rules.terrain_combine.is_some() {
        return;
    }
    let Some(first) = added_features(source, map).into_iter().find(|a| a.adds > 0) else {
        return;
    };
    sink.push(
        Report::new(
            &META,
            Place::overlay(first.overlay)
                .variant("AddTerrain")
                .field("terrain"),
            format!(
                "map `{}` adds `{}` to hexes of other terrain, but system `{}` does not say how the terrains of a hex combine",
                source.id, first.terrain, system.id
            ),
        )
        .help(format!(
            "state the rule in system `{}`, for instance `rules: (terrain_combine: (cost: MostCostly, combat: Strongest))`",
            system.id
        )),
    );
}
