//! The query API on a real compiled map (Jengland) and the compiler's determinism.

use muster_hex::HexId;
use muster_map::{TerrainMap, compile, source_hash, to_json};
use muster_model::map::MapSource;
use muster_model::system::RulesSystem;

use muster_testkit::repo;

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

#[test]
fn atomic_writes_name_their_temp_files_and_clean_those_of_dead_writers() {
    let dir = tempfile::tempdir().unwrap();
    // The pid of a process that has ended.
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .arg("--list")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = dir
        .path()
        .join(format!("{}{dead}-abcdefgh", muster_map::TEMP_PREFIX));
    std::fs::write(&stale, b"half").unwrap();
    // A live writer's temp file (this process) and someone else's file stay.
    let live = dir.path().join(format!(
        "{}{}-inflight",
        muster_map::TEMP_PREFIX,
        std::process::id()
    ));
    std::fs::write(&live, b"busy").unwrap();
    let other = dir.path().join(".muster-tmp-notapid");
    std::fs::write(&other, b"x").unwrap();
    muster_map::write_atomic(&dir.path().join("t.json"), b"table").unwrap();
    assert!(!stale.exists());
    assert!(live.exists());
    assert!(other.exists());
}

fn hex_map(columns: u16, rows: u16) -> MapSource {
    MapSource {
        id: "m".into(),
        name: "m".into(),
        system: "s".into(),
        grid: muster_model::map::MapGrid::Hex {
            columns,
            rows,
            layout: muster_hex::HexLayout::EvenColumnsDown,
        },
        base: "clear".into(),
        overlays: vec![muster_model::map::Overlay::Terrain {
            terrain: "woods".into(),
            area: muster_model::map::Area::All,
        }],
        assumed: Default::default(),
    }
}

#[test]
fn a_grid_beyond_ccrr_is_refused_before_anything_is_built() {
    use muster_map::{Limits, SizeProblem, grid_of, size_problems};
    let (system, _) = read::<RulesSystem>("scenarios/lrf/lrf.system.ron");
    let huge = hex_map(9999, 9999);
    assert_eq!(grid_of(&huge), None);
    assert_eq!(
        size_problems(&huge, &Limits::DEFAULT),
        [
            SizeProblem::Unnumbered {
                field: "columns",
                value: 9999
            },
            SizeProblem::Unnumbered {
                field: "rows",
                value: 9999
            }
        ]
    );
    // Compiling it anyway builds an empty grid: nothing proportional to 9999 x 9999.
    let table = compile(&huge, &system, "h");
    assert!(table.hexes.is_empty());
    // 99 x 99 is the largest; a lower project limit refuses it.
    assert!(size_problems(&hex_map(99, 99), &Limits::DEFAULT).is_empty());
    let small = Limits {
        max_hexes: 100,
        ..Limits::DEFAULT
    };
    assert_eq!(
        size_problems(&hex_map(12, 15), &small),
        [SizeProblem::TooManyHexes {
            hexes: 180,
            limit: 100
        }]
    );
    assert_eq!(muster_map::grid_within(&hex_map(12, 15), &small), None);
}

#[test]
fn table_sizes_must_be_positive_finite_and_within_the_raster_limit() {
    use muster_map::{Limits, SizeProblem, size_problems};
    let (system, _) = read::<RulesSystem>("scenarios/cdg/cdg.system.ron");
    let table = |width: f64, depth: f64, raster: f64| MapSource {
        grid: muster_model::map::MapGrid::Table {
            width,
            depth,
            edges: Vec::new(),
            raster,
        },
        ..hex_map(1, 1)
    };
    for raster in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let map = table(48.0, 36.0, raster);
        let found = size_problems(&map, &Limits::DEFAULT);
        assert!(
            matches!(
                found.as_slice(),
                [SizeProblem::NotPositive {
                    field: "raster",
                    ..
                }]
            ),
            "{raster}: {found:?}"
        );
        assert!(muster_map::compile_table(&map, &system, "h").is_none());
    }
    for width in [0.0, -3.0, f64::NAN] {
        let found = size_problems(&table(width, 36.0, 1.0), &Limits::DEFAULT);
        assert!(matches!(
            found.as_slice(),
            [SizeProblem::NotPositive { field: "width", .. }]
        ));
    }
    // A thousandth of an inch: refused at the limit, no raster built.
    let fine = table(48.0, 36.0, 0.001);
    assert!(matches!(
        size_problems(&fine, &Limits::DEFAULT).as_slice(),
        [SizeProblem::TooManyCells { .. }]
    ));
    assert!(muster_map::compile_table(&fine, &system, "h").is_none());
    let ok = muster_map::compile_table(&table(48.0, 36.0, 4.0), &system, "h").unwrap();
    assert_eq!((ok.raster.columns, ok.raster.rows), (12, 9));
}

#[test]
fn banks_flood_from_an_edge_and_are_kept() {
    use muster_hex::Edge;
    let map = jengland();
    let both = ["river".to_string(), "bridge".to_string()];
    // Column 01 is river but for the bridge at 0109: closed whole, it cuts the west
    // edge off; the east edge reaches every other column.
    let east = map.bank(Edge::East, &both);
    assert!(east.contains(h("1501")) && east.contains(h("0201")));
    assert!(!east.contains(h("0105")) && !east.contains(h("0109")));
    assert!(!east.contains(h("1613")), "off the map");
    let west = map.bank(Edge::West, &both);
    assert!(!west.contains(h("0201")) && !west.contains(h("0109")));
    // With the bridge open, the west edge reaches the rest of the map through it.
    let river = ["river".to_string()];
    let over_the_bridge = map.bank(Edge::West, &river);
    assert!(over_the_bridge.contains(h("0109")) && over_the_bridge.contains(h("1512")));
    assert!(!over_the_bridge.contains(h("0107")));
    // Asked again, the same bank is handed out; another question floods anew.
    assert!(std::sync::Arc::ptr_eq(&east, &map.bank(Edge::East, &both)));
    assert!(!std::sync::Arc::ptr_eq(
        &east,
        &map.bank(Edge::East, &river)
    ));
    // A copy of the map answers the same.
    let copy = map.clone();
    assert_eq!(
        copy.bank(Edge::East, &both).contains(h("0201")),
        east.contains(h("0201"))
    );
}

/// A terrain type's `prohibited` list reaches the compiled table: the entry names the
/// troops kept out, and the queries for a unit kind refuse them while the plain move
/// cost stays the chart's.
#[test]
fn prohibited_terrain_is_carried_into_the_table() {
    let (mut system, _) = read::<RulesSystem>("scenarios/lrf/lrf.system.ron");
    let woods = system.terrain.iter_mut().find(|t| t.id == "woods").unwrap();
    woods.prohibited = vec!["infantry".to_string(), "mounted".to_string()];
    woods.allowed = vec!["missile-cavalry".to_string()];
    let (map, text) = read::<MapSource>("maps/lrf/jengland.map.ron");
    let table = compile(&map, &system, &source_hash(text.as_bytes()));
    let entry = table.terrain.iter().find(|t| t.id == "woods").unwrap();
    assert_eq!(entry.prohibited, ["infantry", "mounted"]);
    assert_eq!(entry.allowed, ["missile-cavalry"]);
    let json = to_json(&table);
    assert!(json.contains("\"prohibited\": ["), "{json}");
    let map = TerrainMap::new(table).unwrap();
    // 0201 is woods, 0202 clear.
    assert_eq!(map.terrain_id_at(h("0201")), Some("woods"));
    assert_eq!(map.move_cost(h("0202"), h("0201")), Some(2.0));
    assert_eq!(
        map.move_cost_for(h("0202"), h("0201"), "infantry", None),
        None
    );
    assert!(!map.admits(h("0201"), "infantry", None));
    assert!(!map.admits(h("0201"), "cavalry", Some("mounted")));
    assert!(map.admits(h("0201"), "missile-cavalry", Some("mounted")));
    assert!(map.admits(h("0201"), "commander", None));
    assert_eq!(
        map.move_cost_for(h("0202"), h("0201"), "commander", None),
        Some(2.0)
    );
    // Impassable terrain admits nobody.
    assert!(!map.admits(h("0107"), "commander", None));
}
