//! The real Tiled (Debian's `tiled` 1.8, headless) reads every exported map: its JSON
//! export has muster's size, stagger and terrain, `tmxrasterizer` draws each hex in its
//! terrain's colour, and a hand-painted map saved again by Tiled imports clean. Ignored
//! under a plain `cargo test`; `.ci/run` installs Tiled and runs them.

mod common;

use std::path::Path;
use std::process::Command;

use muster_hex::HexId;
use muster_tiled::geometry;

/// Runs a Tiled program headless; panics when it is missing or fails.
fn run(program: &str, args: &[&std::ffi::OsStr]) {
    let out = Command::new(program)
        .args(args)
        .env("QT_QPA_PLATFORM", "offscreen")
        .output()
        .unwrap_or_else(|e| {
            panic!("`{program}` cannot run ({e}): install Tiled (`apt-get install tiled`; .ci/run does)")
        });
    assert!(
        out.status.success(),
        "`{program} {args:?}` failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[ignore = "needs tiled: run by .ci/run"]
fn tiled_exports_every_map_as_json_with_musters_grid_and_terrain() {
    let db = muster_testkit::db::bundled();
    let dir = tempfile::tempdir().unwrap();
    for case in common::bundled_cases(&db) {
        let tmx = common::write_case(dir.path(), &case);
        let json_path = tmx.with_extension("json");
        run(
            "tiled",
            &[
                "--export-map".as_ref(),
                "json".as_ref(),
                tmx.as_os_str(),
                json_path.as_os_str(),
            ],
        );
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
        assert_eq!(json["orientation"], "hexagonal", "{}", case.name);
        assert_eq!(json["width"], case.table.grid.columns, "{}", case.name);
        assert_eq!(json["height"], case.table.grid.rows, "{}", case.name);
        assert_eq!(json["staggeraxis"], "x");
        assert_eq!(
            json["staggerindex"],
            geometry::stagger_index(case.table.grid.layout),
            "{}",
            case.name
        );
        assert_eq!(json["hexsidelength"], geometry::SIDE);
        let tiles = json["tilesets"][0]["tiles"].as_array().expect("tiles");
        let property = |tile: &serde_json::Value, name: &str| {
            tile["properties"]
                .as_array()
                .and_then(|ps| ps.iter().find(|p| p["name"] == name))
                .map(|p| p["value"].clone())
        };
        for t in &case.system.terrain {
            let tile = tiles
                .iter()
                .find(|tile| property(tile, "terrain") == Some(serde_json::json!(t.id)))
                .unwrap_or_else(|| panic!("{}: Tiled lost the tile of {}", case.name, t.id));
            if let Some(entry) = case.table.terrain.iter().find(|e| e.id == t.id) {
                match entry.move_cost {
                    Some(c) => assert_eq!(
                        property(tile, "move_cost").and_then(|v| v.as_f64()),
                        Some(c),
                        "{}: {}",
                        case.name,
                        t.id
                    ),
                    None => assert_eq!(property(tile, "impassable"), Some(serde_json::json!(true))),
                }
            }
        }
        // The terrain layer's cells, row by row, are the table's hexes.
        let layer = json["layers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == "terrain")
            .unwrap();
        let data = layer["data"].as_array().unwrap();
        let columns = usize::from(case.table.grid.columns);
        for h in &case.table.hexes {
            let id = HexId::parse(&h.id).unwrap();
            let gid = data[usize::from(id.row - 1) * columns + usize::from(id.col - 1)]
                .as_u64()
                .unwrap();
            let tile = tiles
                .iter()
                .find(|t| t["id"].as_u64() == Some(gid - 1))
                .unwrap();
            assert_eq!(
                property(tile, "terrain"),
                Some(serde_json::json!(h.terrain))
            );
        }
    }
}

#[test]
#[ignore = "needs tiled: run by .ci/run"]
fn tmxrasterizer_draws_every_hex_in_its_terrain_colour() {
    let db = muster_testkit::db::bundled();
    let dir = tempfile::tempdir().unwrap();
    for case in common::bundled_cases(&db)
        .into_iter()
        .filter(|c| c.setup.is_none())
    {
        let tmx = common::write_case(dir.path(), &case);
        let png_path = tmx.with_extension("png");
        run("tmxrasterizer", &[tmx.as_os_str(), png_path.as_os_str()]);
        let decoder = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(&png_path).unwrap(),
        ));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgba, "{}", case.name);
        let pixel = |x: f64, y: f64| {
            let at = (y as usize * info.width as usize + x as usize) * 4;
            [buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]
        };
        let opaque = buf.chunks(4).filter(|p| p[3] > 0).count();
        assert!(
            opaque * 10 > buf.len() / 4 * 8,
            "{}: only {opaque} of {} pixels drawn",
            case.name,
            buf.len() / 4
        );
        for h in &case.table.hexes {
            let id = HexId::parse(&h.id).unwrap();
            let (x, y) = geometry::centre(case.table.grid.layout, id);
            // Beside the centre, clear of label and hexside marks drawn there.
            let [r, g, b, a] = pixel(x + 6.0, y + 14.0);
            assert_eq!(
                [r, g, b, a],
                {
                    let [r, g, b] = muster_tiled::image::colour(&h.terrain);
                    [r, g, b, 255]
                },
                "{} {}: drawn in the wrong colour",
                case.name,
                h.id
            );
        }
    }
}

#[test]
#[ignore = "needs tiled: run by .ci/run"]
fn a_hand_painted_map_saved_again_by_tiled_imports_to_the_same_source() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let painted = fixtures.join("painted.tmx");
    let saved = dir.path().join("painted.tmx");
    run(
        "tiled",
        &[
            "--export-map".as_ref(),
            "tmx".as_ref(),
            painted.as_os_str(),
            saved.as_os_str(),
        ],
    );
    let db = muster_testkit::db::bundled();
    let i = muster_testkit::db::index(&db, "scenarios/lrf/lrf.system.ron");
    let Some(muster_db::load::Document::System(lrf)) = db.doc(i) else {
        panic!("the LRF system does not load")
    };
    let import = |path: &Path| {
        let text = std::fs::read_to_string(path).unwrap();
        muster_tiled::import(path, "painted.tmx", text, lrf, "painted")
    };
    let again = import(&saved);
    assert_eq!(
        again
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect::<Vec<_>>(),
        Vec::<String>::new()
    );
    assert_eq!(again.source, import(&painted).source);
}
