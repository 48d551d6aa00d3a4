//! Scenario terrain modifications at compile time: which hex terrain and which hexside
//! features a scenario's `Ignore` and `IgnoreAllExcept` take off the map.

use muster_map::compile_for;
use muster_model::map::{Area, MapGrid, MapSource, Overlay};
use muster_model::scenario::TerrainModification;
use muster_model::system::RulesSystem;
use muster_model::table::TerrainTable;

fn lrf() -> RulesSystem {
    let path = muster_testkit::repo().join("scenarios/lrf/lrf.system.ron");
    let text = std::fs::read_to_string(path).unwrap();
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(&text)
        .unwrap()
}

/// Clear ground with a wood, a hill, a road along column 1, a creek between 0301 and
/// 0302, and a hex entered only from one neighbour.
fn map() -> MapSource {
    let s = |v: &str| v.to_string();
    MapSource {
        id: s("m"),
        name: s("m"),
        system: s("lrf"),
        grid: MapGrid::Hex {
            columns: 4,
            rows: 4,
            layout: muster_hex::HexLayout::EvenColumnsDown,
        },
        base: s("clear"),
        overlays: vec![
            Overlay::Terrain {
                terrain: s("woods"),
                area: Area::List(vec![s("0202")]),
            },
            Overlay::Terrain {
                terrain: s("hill"),
                area: Area::List(vec![s("0303")]),
            },
            Overlay::Path {
                feature: s("road"),
                hexes: vec![s("0101"), s("0102"), s("0103")],
            },
            Overlay::Hexsides {
                feature: s("creek"),
                sides: vec![(s("0301"), s("0302"))],
            },
            Overlay::Access {
                hex: s("0404"),
                from: vec![s("0403")],
            },
        ],
        assumed: Default::default(),
    }
}

fn compiled(mods: &[TerrainModification]) -> TerrainTable {
    compile_for(&map(), &lrf(), "h", Some(("s", mods)))
}

fn sides_with(table: &TerrainTable, feature: &str) -> usize {
    table
        .hexsides
        .iter()
        .filter(|s| s.features.iter().any(|f| f == feature))
        .count()
}

fn terrain(table: &TerrainTable, hex: &str) -> String {
    table
        .hexes
        .iter()
        .find(|h| h.id == hex)
        .unwrap()
        .terrain
        .clone()
}

#[test]
fn ignore_all_except_removes_hexside_features_too() {
    let plain = compile_for(&map(), &lrf(), "h", None);
    assert_eq!(sides_with(&plain, "road"), 2);
    assert_eq!(sides_with(&plain, "creek"), 1);

    let t = compiled(&[TerrainModification::IgnoreAllExcept(vec!["hill".into()])]);
    assert_eq!(terrain(&t, "0303"), "hill");
    assert_eq!(terrain(&t, "0202"), "clear");
    assert_eq!(sides_with(&t, "road"), 0);
    assert_eq!(sides_with(&t, "creek"), 0);
    // What is left is the access restriction alone, with no feature.
    assert!(!t.hexsides.is_empty());
    assert!(
        t.hexsides
            .iter()
            .all(|s| s.features.is_empty() && s.blocks_movement && s.cost_override.is_none())
    );
    assert_eq!(
        t.hexsides.len(),
        plain
            .hexsides
            .iter()
            .filter(|s| s.features.is_empty())
            .count()
    );

    // A kept feature stays.
    let t = compiled(&[TerrainModification::IgnoreAllExcept(vec![
        "hill".into(),
        "creek".into(),
    ])]);
    assert_eq!(sides_with(&t, "road"), 0);
    assert_eq!(sides_with(&t, "creek"), 1);
}

#[test]
fn ignore_keeps_the_features_it_does_not_name() {
    let plain = compile_for(&map(), &lrf(), "h", None);
    let t = compiled(&[TerrainModification::Ignore(vec!["woods".into()])]);
    assert_eq!(terrain(&t, "0202"), "clear");
    assert_eq!(t.hexsides, plain.hexsides);

    let t = compiled(&[TerrainModification::Ignore(vec!["road".into()])]);
    assert_eq!(sides_with(&t, "road"), 0);
    assert_eq!(sides_with(&t, "creek"), 1);
    assert_eq!(terrain(&t, "0202"), "woods");
}

/// A 99 x 99 map whose terrain is written `copies` times over for the whole map, with a
/// wood on one hex written last and a road along column 1.
fn overwritten_map(copies: usize) -> MapSource {
    let s = |v: &str| v.to_string();
    let mut source = map();
    source.grid = MapGrid::Hex {
        columns: 99,
        rows: 99,
        layout: muster_hex::HexLayout::EvenColumnsDown,
    };
    let mut overlays: Vec<Overlay> = (0..copies)
        .map(|k| Overlay::Terrain {
            terrain: s(if k % 2 == 0 { "hill" } else { "clear" }),
            area: Area::All,
        })
        .collect();
    overlays.push(Overlay::Terrain {
        terrain: s("woods"),
        area: Area::List(vec![s("0202")]),
    });
    overlays.push(Overlay::Path {
        feature: s("road"),
        hexes: (1..=99).map(|r| format!("01{r:02}")).collect(),
    });
    source.overlays = overlays;
    source
}

/// The work (hexes of overlays visited, modification entries read) of one compile.
fn work_of(compile: impl FnOnce() -> TerrainTable) -> (u64, TerrainTable) {
    let before = muster_map::compile_work();
    let table = compile();
    (muster_map::compile_work() - before, table)
}

#[test]
fn overlays_over_the_whole_map_are_resolved_hex_by_hex_once() {
    let hexes = 99 * 99;
    let copies = 400;
    let source = overwritten_map(copies);
    let (work, table) = work_of(|| muster_map::compile(&source, &lrf(), "h"));
    // The last overlay of the whole map wins (`clear`, an odd copy), the wood after it.
    assert_eq!(terrain(&table, "0202"), "woods");
    assert_eq!(terrain(&table, "5050"), "clear");
    assert_eq!(table.hexes.len(), hexes);
    // Applying every overlay in turn visits `copies` x `hexes` hexes.
    assert!(
        work <= 2 * hexes as u64,
        "{work} hexes visited for {copies} overlays of {hexes} hexes"
    );
}

#[test]
fn a_long_ignore_all_except_is_read_once_not_once_per_hex() {
    let hexes = 99 * 99;
    let entries = 5_000;
    let source = overwritten_map(1);
    let mut keep: Vec<String> = (0..entries).map(|k| format!("kept-{k}")).collect();
    keep.push("woods".to_string());
    let mods = [TerrainModification::IgnoreAllExcept(keep)];
    let (work, table) = work_of(|| compile_for(&source, &lrf(), "h", Some(("s", &mods))));
    // The wood is kept, the hills and the road are not.
    assert_eq!(terrain(&table, "0202"), "woods");
    assert_eq!(terrain(&table, "5050"), "clear");
    assert_eq!(sides_with(&table, "road"), 0);
    // Scanning the list for every hex reads `entries` x `hexes` entries.
    let bound = (entries + 1 + 3 * hexes) as u64;
    assert!(work <= bound, "{work} entries read, more than {bound}");
}
