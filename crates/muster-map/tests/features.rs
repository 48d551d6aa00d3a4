//! Hexes with several terrains: `AddTerrain` overlays compiled into each hex's
//! `features`, the system's combine rule carried in the table, and the queries an
//! engine asks of such a hex.

use muster_hex::HexId;
use muster_map::{TerrainMap, compile, compile_for, to_json};
use muster_model::map::{Area, MapSource, Overlay};
use muster_model::scenario::TerrainModification;
use muster_model::system::{CostCombine, EffectCombine, RulesSystem, TerrainCombine};

use muster_testkit::repo;

fn read<T: serde::de::DeserializeOwned>(path: &str) -> T {
    let text = std::fs::read_to_string(repo().join(path)).unwrap();
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    options.from_str(&text).unwrap()
}

fn h(s: &str) -> HexId {
    HexId::parse(s).unwrap()
}

fn list(hexes: &[&str]) -> Area {
    Area::List(hexes.iter().map(|s| s.to_string()).collect())
}

/// LRF with a combine rule.
fn lrf(cost: CostCombine, combat: EffectCombine) -> RulesSystem {
    let mut system: RulesSystem = read("scenarios/lrf/lrf.system.ron");
    system.rules.terrain_combine = Some(TerrainCombine { cost, combat });
    system
}

/// Jengland with `overlays` put before its own.
fn map_with(overlays: Vec<Overlay>) -> MapSource {
    let mut map: MapSource = read("maps/lrf/jengland.map.ron");
    // Added first: features do not depend on the order of overlays.
    for (i, o) in overlays.into_iter().enumerate() {
        map.overlays.insert(i, o);
    }
    map
}

fn woods_village_hill() -> Vec<Overlay> {
    vec![
        Overlay::AddTerrain {
            terrain: "village".into(),
            area: list(&["0505", "0506"]),
        },
        Overlay::AddTerrain {
            terrain: "woods".into(),
            area: list(&["0505"]),
        },
        // Twice, and once more the same area: one feature.
        Overlay::AddTerrain {
            terrain: "village".into(),
            area: list(&["0505"]),
        },
        Overlay::Terrain {
            terrain: "hill".into(),
            area: list(&["0505", "0506"]),
        },
    ]
}

#[test]
fn features_are_sorted_deduplicated_and_never_the_own_terrain() {
    let mut overlays = woods_village_hill();
    overlays.push(Overlay::AddTerrain {
        terrain: "hill".into(),
        area: list(&["0506"]),
    });
    let table = compile(
        &map_with(overlays),
        &lrf(CostCombine::MostCostly, EffectCombine::Strongest),
        "h",
    );
    let hex = |id: &str| table.hexes.iter().find(|e| e.id == id).unwrap();
    // The last terrain overlay sets the terrain; the features stay beside it.
    assert_eq!(hex("0505").terrain, "hill");
    assert_eq!(hex("0505").features, ["village", "woods"]);
    assert_eq!(hex("0506").features, ["village"]);
    assert!(hex("0507").features.is_empty());
    // Every terrain a feature uses has its entry, and the rule travels with the table.
    assert!(table.terrain.iter().any(|t| t.id == "village"));
    assert_eq!(
        table.terrain_combine,
        Some(TerrainCombine {
            cost: CostCombine::MostCostly,
            combat: EffectCombine::Strongest
        })
    );
}

#[test]
fn a_map_without_features_compiles_to_the_same_json_keys_as_before() {
    let system: RulesSystem = read("scenarios/lrf/lrf.system.ron");
    let keys = |table| {
        let json: serde_json::Value = serde_json::from_str(&to_json(&table)).unwrap();
        let hexes = json["hexes"].as_array().unwrap().clone();
        let featured = hexes.iter().filter(|e| e.get("features").is_some()).count();
        (json.get("terrain_combine").is_some(), featured)
    };
    assert_eq!(keys(compile(&map_with(vec![]), &system, "h")), (false, 0));
    let with = compile(
        &map_with(woods_village_hill()),
        &lrf(CostCombine::Cumulative, EffectCombine::Cumulative),
        "h",
    );
    assert_eq!(keys(with), (true, 2));
}

#[test]
fn an_engine_reads_the_combined_effects_of_a_hex() {
    let effects = |cost, combat| {
        let table = compile(&map_with(woods_village_hill()), &lrf(cost, combat), "h");
        let map = TerrainMap::from_json(&to_json(&table)).unwrap();
        (
            map.effects_at(h("0505")).unwrap(),
            map.move_cost(h("0405"), h("0505")),
        )
    };
    // LRF: hill 2 and a shift of -1, woods 2 and -1, village 1 and a modifier of +1.
    let (most, cost) = effects(CostCombine::MostCostly, EffectCombine::Strongest);
    assert_eq!(most.move_cost, Some(2.0));
    assert_eq!(cost, Some(2.0));
    assert_eq!((most.die_modifier, most.column_shift), (1, -1));
    let (sum, cost) = effects(CostCombine::Cumulative, EffectCombine::Cumulative);
    assert_eq!(sum.move_cost, Some(5.0));
    assert_eq!(cost, Some(5.0));
    assert_eq!((sum.die_modifier, sum.column_shift), (1, -2));
    let (base, _) = effects(CostCombine::Base, EffectCombine::Base);
    assert_eq!((base.move_cost, base.column_shift), (Some(2.0), -1));
}

#[test]
fn an_impassable_feature_closes_the_hex_and_prohibitions_of_features_hold() {
    let mut system = lrf(CostCombine::MostCostly, EffectCombine::Base);
    let village = system
        .terrain
        .iter_mut()
        .find(|t| t.id == "village")
        .unwrap();
    village.prohibited = vec!["cavalry".into()];
    let overlays = vec![
        Overlay::AddTerrain {
            terrain: "river".into(),
            area: list(&["0606"]),
        },
        Overlay::AddTerrain {
            terrain: "village".into(),
            area: list(&["0607"]),
        },
    ];
    let map = TerrainMap::new(compile(&map_with(overlays), &system, "h")).unwrap();
    assert!(!map.is_enterable(h("0606")));
    assert_eq!(map.impassable_terrain_at(h("0606")), Some("river"));
    assert_eq!(
        map.impassable_terrain_at(h("0107")),
        Some("river"),
        "its own"
    );
    assert_eq!(map.impassable_terrain_at(h("0607")), None);
    assert_eq!(map.move_cost(h("0605"), h("0606")), None);
    assert!(!map.admits(h("0607"), "cavalry", None));
    assert!(map.admits(h("0607"), "infantry", None));
    assert!(map.admits(h("0608"), "cavalry", None));
}

#[test]
fn a_scenario_that_ignores_a_terrain_ignores_it_as_a_feature_too() {
    let system = lrf(CostCombine::Cumulative, EffectCombine::Cumulative);
    let mods = [TerrainModification::Ignore(vec!["village".into()])];
    let table = compile_for(
        &map_with(woods_village_hill()),
        &system,
        "h",
        Some(("s", &mods)),
    );
    let hex = table.hexes.iter().find(|e| e.id == "0505").unwrap();
    assert_eq!(hex.features, ["woods"]);
}
