//! Every bundled map and scenario exported to TMX: the `tiled` crate reads it with
//! muster's size, stagger and terrain; the same input gives the same bytes; and the TMX
//! imported back compiles to the same terrain table.

mod common;

use muster_db::Severity;
use muster_tiled::geometry;

#[test]
fn the_tiled_crate_reads_every_export_with_musters_grid_and_terrain() {
    let db = muster_testkit::db::bundled();
    let dir = tempfile::tempdir().unwrap();
    for case in common::bundled_cases(&db) {
        let path = common::write_case(dir.path(), &case);
        let map = tiled::Loader::new()
            .load_tmx_map(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(
            map.orientation,
            tiled::Orientation::Hexagonal,
            "{}",
            case.name
        );
        assert_eq!(map.stagger_axis, tiled::StaggerAxis::X);
        assert_eq!(
            geometry::layout_of(map.stagger_index),
            case.table.grid.layout
        );
        assert_eq!(
            map.width,
            u32::from(case.table.grid.columns),
            "{}",
            case.name
        );
        assert_eq!(map.height, u32::from(case.table.grid.rows), "{}", case.name);
        let tileset = &map.tilesets()[0];
        // Every terrain type of the system is a tile, with its id and move cost.
        assert_eq!(tileset.tilecount as usize, case.system.terrain.len());
        for t in &case.system.terrain {
            let tile = tileset
                .tiles()
                .find(|(_, tile)| {
                    tile.properties.get("terrain")
                        == Some(&tiled::PropertyValue::StringValue(t.id.clone()))
                })
                .unwrap_or_else(|| panic!("{}: no tile for {}", case.name, t.id));
            let compiled = case.table.terrain.iter().find(|e| e.id == t.id);
            if let Some(e) = compiled {
                match e.move_cost {
                    Some(c) => assert_eq!(
                        tile.1.properties.get("move_cost"),
                        Some(&tiled::PropertyValue::FloatValue(c as f32))
                    ),
                    None => assert_eq!(
                        tile.1.properties.get("impassable"),
                        Some(&tiled::PropertyValue::BoolValue(true))
                    ),
                }
            }
        }
        // Each hex's tile is its terrain.
        let terrain = map.layers().find(|l| l.name == "terrain").unwrap();
        let tiled::LayerType::Tiles(tiled::TileLayer::Finite(cells)) = terrain.layer_type() else {
            panic!(
                "{}: the terrain layer is not a finite tile layer",
                case.name
            );
        };
        for h in &case.table.hexes {
            let id = muster_hex::HexId::parse(&h.id).unwrap();
            let tile = cells
                .get_tile(i32::from(id.col) - 1, i32::from(id.row) - 1)
                .unwrap();
            assert_eq!(
                tile.get_tile().unwrap().properties.get("terrain"),
                Some(&tiled::PropertyValue::StringValue(h.terrain.clone())),
                "{} {}",
                case.name,
                h.id
            );
        }
        let objects = |name: &str| {
            map.layers()
                .find(|l| l.name == name)
                .and_then(|l| l.as_object_layer())
                .map_or(0, |l| l.objects().len())
        };
        assert_eq!(objects("labels"), case.table.labels.len(), "{}", case.name);
        if let Some(n) = case.setup {
            assert!(n > 0, "{}: an empty set-up", case.name);
            assert_eq!(objects("setup"), n, "{}", case.name);
        }
    }
}

#[test]
fn the_same_map_exports_the_same_bytes() {
    let first = common::bundled_cases(&muster_testkit::db::bundled());
    let second = common::bundled_cases(&muster_testkit::db::bundled());
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(a.exported.tmx, b.exported.tmx, "{}", a.name);
        assert_eq!(a.exported.png, b.exported.png, "{}", a.name);
    }
}

#[test]
fn every_bundled_map_comes_back_as_the_same_terrain_table() {
    let db = muster_testkit::db::bundled();
    let mut maps = 0;
    for case in common::bundled_cases(&db)
        .into_iter()
        .filter(|c| c.setup.is_none())
    {
        maps += 1;
        let imported = muster_tiled::import(
            std::path::Path::new("map.tmx"),
            "map.tmx",
            case.exported.tmx.clone(),
            &case.system,
            &case.table.map,
        );
        let errors: Vec<_> = imported
            .diagnostics
            .iter()
            .filter(|d| d.severity != Severity::Info)
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", case.name);
        let source = imported.source.expect("a map");
        // The text written is the source: it reads back to the same value.
        let text = imported.text.unwrap();
        let reread: muster_model::map::MapSource =
            ron::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", case.name));
        assert_eq!(reread, source);
        let again = muster_map::compile(&source, &case.system, &case.table.source_hash);
        assert_eq!(again, case.table, "{}\n{text}", case.name);
        // Compact: fewer terrain overlays than hexes off the base terrain.
        let off_base = case
            .table
            .hexes
            .iter()
            .filter(|h| h.terrain != source.base)
            .count();
        let terrain_overlays = source
            .overlays
            .iter()
            .filter(|o| matches!(o, muster_model::map::Overlay::Terrain { .. }))
            .count();
        assert!(
            off_base == 0 || terrain_overlays < off_base,
            "{}: {terrain_overlays} overlays for {off_base} hexes",
            case.name
        );
    }
    assert!(maps >= 5, "only {maps} bundled hex maps");
}
