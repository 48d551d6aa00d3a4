use muster_model::map::Overlay;
use muster_model::scenario::TerrainModification;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_db::suggest::did_you_mean;
use muster_semantic::FileCx;
use muster_semantic::hooks::RefKind;

declare_check! {
    /// ## What it does
    /// Checks that every terrain a map uses (its base, its terrain overlays and the
    /// features it adds), and every
    /// terrain a special rule names, is a row of the system's terrain effects chart; and
    /// that every terrain modification of a scenario names a terrain type or a hexside
    /// feature of its system.
    ///
    /// ## Why is this bad?
    /// Terrain the system does not define has no movement cost or combat effect; the
    /// compiled table would leave the hex without terrain.
    ///
    /// ## Example
    /// ```ron
    /// Terrain(terrain: "forest", area: List(["0405", "0406"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Terrain(terrain: "woods", area: List(["0405", "0406"])),
    /// ```
    pub META = ("references::unknown-terrain", Error, "a terrain type the system does not define");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Some(system) = cx.system else { return };
    let mut known: Vec<&str> = system.terrain.iter().map(|t| t.id.as_str()).collect();
    if let muster_model::system::GridKind::Table { features, .. } = &system.grid {
        // Open tables: the base is open ground or a feature kind.
        known.push("open");
        known.extend(features.iter().map(|f| f.id.as_str()));
    }
    let mut check = |place: Place, id: &str| {
        if !known.contains(&id) {
            sink.push(
                Report::new(
                    &META,
                    place,
                    format!("unknown terrain `{id}` in system `{}`", system.id),
                )
                .help_opt(did_you_mean(id, known.iter().copied()).or_else(|| {
                    Some(format!(
                        "terrain of system `{}`: {}",
                        system.id,
                        known.join(", ")
                    ))
                })),
            );
        }
    };
    if let Some(map) = cx.map() {
        check(Place::top("base"), &map.base);
        for (i, o) in map.overlays.iter().enumerate() {
            let (variant, terrain) = match o {
                Overlay::Terrain { terrain, .. } => ("Terrain", terrain),
                Overlay::AddTerrain { terrain, .. } => ("AddTerrain", terrain),
                _ => continue,
            };
            check(Place::overlay(i).variant(variant).field("terrain"), terrain);
        }
    }
    for hook in &cx.hooks {
        for r in hook.references() {
            if let RefKind::Terrain(t) = r.kind {
                check(hook.place_of(&r), t);
            }
        }
    }
    // A scenario's terrain modifications name terrain types or hexside features.
    if let Some(scenario) = cx.scenario() {
        let mut modifiable = known.clone();
        modifiable.extend(system.hexside_features.iter().map(|f| f.id.as_str()));
        for (i, m) in scenario.terrain_modifications.iter().enumerate() {
            let (variant, ids) = match m {
                TerrainModification::Ignore(ids) => ("Ignore", ids),
                TerrainModification::IgnoreAllExcept(ids) => ("IgnoreAllExcept", ids),
            };
            for (k, id) in ids.iter().enumerate() {
                if modifiable.contains(&id.as_str()) {
                    continue;
                }
                sink.push(
                    Report::new(
                        &META,
                        Place::top("terrain_modifications")
                            .index(i)
                            .variant(variant)
                            .index(k),
                        format!(
                            "terrain modification names `{id}`, which is neither a terrain type nor a hexside feature of system `{}`",
                            system.id
                        ),
                    )
                    .help_opt(did_you_mean(id, modifiable.iter().copied()).or_else(|| {
                        Some(format!(
                            "terrain and hexside features of system `{}`: {}",
                            system.id,
                            modifiable.join(", ")
                        ))
                    })),
                );
            }
        }
    }
}
