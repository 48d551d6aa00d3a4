//! The query API on a real compiled map (Jengland) and the compiler's determinism.

use std::path::Path;

use muster_hex::HexId;
use muster_map::{TerrainMap, compile, source_hash, to_json};
use muster_model::map::MapSource;
use muster_model::system::RulesSystem;

fn repo() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read<T: serde::de::DeserializeOwned>(path: &str) -> (T, String) {
    let text = std::fs::read_to_string(repo().join(path)).unwrap();
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    (options.from_str(&text).unwrap(), text)
}

fn jengland() -> TerrainMap {
    let (system, _) = read::<RulesSystem>("scenarios/lrf/lrf.system.ron");
    let (map, text) = read::<MapSource>("maps/lrf/jengland.map.ron");
    TerrainMap::new(compile(&map, &system, &source_hash(text.as_bytes()))).unwrap()
}

fn h(s: &str) -> HexId {
    HexId::parse(s).unwrap()
}

#[test]
fn terrain_and_neighbours() {
    let map = jengland();
    assert_eq!(map.terrain_id_at(h("0107")), Some("river"));
    assert_eq!(map.terrain_id_at(h("0109")), Some("bridge"));
    assert!(!map.is_enterable(h("0108")));
    let mut n: Vec<String> = map
        .neighbours(h("0207"))
        .iter()
        .map(ToString::to_string)
        .collect();
    n.sort();
    assert_eq!(n, ["0107", "0108", "0206", "0208", "0307", "0308"]);
    assert_eq!(map.distance(h("0101"), h("0105")), 4);
    assert_eq!(map.label("Jengland"), Some(h("0811")));
}

#[test]
fn move_costs_follow_the_chart_and_hexsides() {
    let map = jengland();
    // River hexes are impassable; the bridge only from 0208, and along its road.
    assert_eq!(map.move_cost(h("0207"), h("0107")), None);
    assert_eq!(map.move_cost(h("0209"), h("0109")), None);
    assert_eq!(map.move_cost(h("0208"), h("0109")), Some(0.5));
    // Clear costs 1; not adjacent is no move at all.
    assert_eq!(map.move_cost(h("0606"), h("0607")), Some(1.0));
    assert_eq!(map.move_cost(h("0606"), h("0608")), None);
    let side = map.hexside(h("0109"), h("0208")).unwrap();
    assert!(side.features.contains(&"road".to_string()));
    assert!(!side.blocks_movement);
}

#[test]
fn compiling_twice_gives_the_same_bytes() {
    let (system, _) = read::<RulesSystem>("scenarios/lrf/lrf.system.ron");
    let (map, text) = read::<MapSource>("maps/lrf/fontenoy.map.ron");
    let a = to_json(&compile(&map, &system, &source_hash(text.as_bytes())));
    let b = to_json(&compile(&map, &system, &source_hash(text.as_bytes())));
    assert_eq!(a, b);
    let loaded = TerrainMap::from_json(&a).unwrap();
    assert_eq!(loaded.table().hexes.len(), 12 * 15);
}

#[test]
fn atomic_write_replaces_the_file_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.json");
    muster_map::write_atomic(&path, b"first").unwrap();
    muster_map::write_atomic(&path, b"second").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"second");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temp file left behind"
    );
}
