//! `muster import tiled` on TMX written by hand as Tiled saves it: a painted map becomes
//! a map source that validates clean; unknown properties, unknown terrain and broken
//! files are diagnostics at their line and column, never a panic.

use std::path::{Path, PathBuf};

use muster_db::load::Document;
use muster_db::{Diagnostic, Severity};
use muster_model::map::{Area, Overlay};
use muster_model::system::RulesSystem;
use muster_tiled::codes;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn lrf() -> &'static RulesSystem {
    static LRF: std::sync::OnceLock<RulesSystem> = std::sync::OnceLock::new();
    LRF.get_or_init(|| {
        let db = muster_testkit::db::bundled();
        let i = muster_testkit::db::index(&db, "scenarios/lrf/lrf.system.ron");
        match db.doc(i) {
            Some(Document::System(s)) => s.clone(),
            _ => panic!("the LRF system does not load"),
        }
    })
}

fn import_text(text: &str) -> muster_tiled::Imported {
    muster_tiled::import(Path::new("t.tmx"), "t.tmx", text.to_string(), lrf(), "t")
}

/// `(code, line, column)` of each diagnostic.
fn places(diagnostics: &[Diagnostic]) -> Vec<(&'static str, usize, usize)> {
    diagnostics
        .iter()
        .map(|d| {
            let at = d.start();
            (d.code, at.line, at.column)
        })
        .collect()
}

#[test]
fn a_hand_painted_map_imports_compact_and_validates_clean() {
    let path = fixture("painted.tmx");
    let text = std::fs::read_to_string(&path).unwrap();
    let imported = muster_tiled::import(&path, "painted.tmx", text, lrf(), "painted");
    assert_eq!(places(&imported.diagnostics), vec![]);
    let source = imported.source.unwrap();
    assert_eq!(source.base, "clear");
    // Areas per terrain: woods is two runs down columns 06 and 07, hill two runs and one
    // hex, the village one hex.
    let terrain: Vec<(&str, &Area)> = source
        .overlays
        .iter()
        .filter_map(|o| match o {
            Overlay::Terrain { terrain, area } => Some((terrain.as_str(), area)),
            _ => None,
        })
        .collect();
    let range = |a: &str, b: &str| Area::Range(a.into(), b.into());
    assert_eq!(
        terrain,
        vec![
            ("village", &Area::List(vec!["0605".into()])),
            ("woods", &range("0601", "0602")),
            ("woods", &range("0701", "0702")),
            ("hill", &range("0705", "0706")),
            ("hill", &range("0804", "0806")),
        ]
    );
    assert!(
        source.overlays.contains(&Overlay::Path {
            feature: "road".into(),
            hexes: ["0103", "0203", "0303", "0403", "0503"]
                .map(String::from)
                .to_vec(),
        })
    );
    assert!(source.overlays.contains(&Overlay::Hexsides {
        feature: "creek".into(),
        sides: vec![("0403".into(), "0404".into())],
    }));
    assert!(source.overlays.contains(&Overlay::Label {
        hex: "0605".into(),
        text: "Les Moulins".into(),
    }));
    // Written into a copy of the bundled project, the map validates with nothing to say.
    let project = muster_testkit::copy_project();
    let out = project.path().join("maps/lrf/painted.map.ron");
    std::fs::write(&out, imported.text.unwrap()).unwrap();
    let (checked, diagnostics) = muster_check::validate_project(
        project.path(),
        std::slice::from_ref(&out),
        &muster_check::config::Config::default(),
        &|p: &Path| p.display().to_string(),
    );
    assert_eq!(checked, 1);
    let found: Vec<String> = diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn unknown_properties_and_terrain_are_reported_where_they_are_written() {
    let text = std::fs::read_to_string(fixture("unknown.tmx")).unwrap();
    let imported = import_text(&text);
    assert_eq!(
        places(&imported.diagnostics),
        vec![
            // Four hexes are painted with the two tiles that have no known terrain.
            (codes::UNPAINTED, 2, 1),
            (codes::UNKNOWN_PROPERTY, 9, 21),
            (codes::UNKNOWN_PROPERTY, 10, 21),
            (codes::UNKNOWN_TERRAIN, 15, 37),
            (codes::UNTYPED_TILE, 18, 3),
            (codes::UNKNOWN_PROPERTY, 20, 21),
            (codes::UNKNOWN_PROPERTY, 36, 21),
            (codes::UNKNOWN_FEATURE, 40, 3),
            (codes::IGNORED_LAYER, 48, 28),
        ]
    );
    for d in &imported.diagnostics {
        assert!(d.help.is_some(), "{}: no help", d.code);
    }
    let terrain = &imported.diagnostics[3];
    assert_eq!(terrain.severity, Severity::Error);
    assert!(terrain.message.contains("`wodos`"), "{}", terrain.message);
    assert_eq!(terrain.help.as_deref(), Some("did you mean `woods`?"));
    assert!(
        imported.diagnostics[4]
            .message
            .contains("painted on 2 hexes")
    );
}

#[test]
fn broken_files_are_diagnostics_at_their_place() {
    let good = std::fs::read_to_string(fixture("painted.tmx")).unwrap();
    // An element closed by the wrong tag: the XML reader's position.
    let bad = good.replacen("</properties>\n  </tile>", "</propertie>\n  </tile>", 1);
    let imported = import_text(&bad);
    assert!(imported.source.is_none());
    assert_eq!(
        places(&imported.diagnostics),
        vec![(codes::MALFORMED, 8, 4)]
    );
    // Square tiles: not a hex map, at the orientation.
    let square = good.replacen("orientation=\"hexagonal\"", "orientation=\"orthogonal\"", 1);
    assert_eq!(
        places(&import_text(&square).diagnostics),
        vec![(codes::NOT_HEX_MAP, 2, 54)]
    );
    // Pointy-topped hexes.
    let rows = good.replacen("staggeraxis=\"x\"", "staggeraxis=\"y\"", 1);
    assert_eq!(
        places(&import_text(&rows).diagnostics),
        vec![(codes::NOT_HEX_MAP, 2, 187)]
    );
    // A layer with fewer cells than its size (the `tiled` reader would index past its
    // end): refused at the layer, which paints nothing.
    let short = good.replacen("1,1,1,1,1,1,3,3\n", "1,1,1\n", 1);
    let imported = import_text(&short);
    assert_eq!(
        places(&imported.diagnostics),
        vec![(codes::UNPAINTED, 2, 1), (codes::MALFORMED, 26, 2)]
    );
    assert!(
        imported.diagnostics[1]
            .message
            .contains("holds 43 cells where its size asks for 48")
    );
    // Well-formed XML that the tiled reader refuses (a tile id that is not a number):
    // at the map.
    let refused = good.replacen("<tile id=\"3\">", "<tile id=\"three\">", 1);
    assert_eq!(
        places(&import_text(&refused).diagnostics),
        vec![(codes::MALFORMED, 2, 1)]
    );
}

#[test]
fn any_prefix_of_a_map_gives_diagnostics_never_a_panic() {
    let text = std::fs::read_to_string(fixture("unknown.tmx")).unwrap();
    let ends: Vec<usize> = (0..text.len())
        .filter(|i| text.is_char_boundary(*i))
        .collect();
    for end in ends {
        let imported = import_text(&text[..end]);
        assert!(
            imported.source.is_some() || !imported.diagnostics.is_empty(),
            "{end}: no map and no diagnostic"
        );
    }
}

/// The painted map with its terrain layer as Tiled's "Base64 (zlib compressed)", the
/// first `cells` cells of it.
fn zlib_layer(cells: usize) -> String {
    use base64::Engine;
    use std::io::Write;
    let good = std::fs::read_to_string(fixture("painted.tmx")).unwrap();
    let start = good.find("<data encoding=\"csv\">").unwrap();
    let end = good.find("</data>").unwrap();
    let csv = &good[start + "<data encoding=\"csv\">".len()..end];
    let gids: Vec<u32> = csv
        .split(',')
        .map(|t| t.trim().parse().unwrap())
        .take(cells)
        .collect();
    let raw: Vec<u8> = gids.iter().flat_map(|g| g.to_le_bytes()).collect();
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&raw).unwrap();
    let data = base64::engine::general_purpose::STANDARD.encode(z.finish().unwrap());
    format!(
        "{}<data encoding=\"base64\" compression=\"zlib\">\n   {data}\n  {}",
        &good[..start],
        &good[end..]
    )
}

#[test]
fn a_zlib_layer_reads_as_its_csv_twin_and_a_short_one_is_refused() {
    let csv = std::fs::read_to_string(fixture("painted.tmx")).unwrap();
    let zlib = import_text(&zlib_layer(48));
    assert_eq!(places(&zlib.diagnostics), vec![]);
    assert_eq!(zlib.source, import_text(&csv).source);
    let short = import_text(&zlib_layer(40));
    assert_eq!(
        places(&short.diagnostics),
        vec![(codes::UNPAINTED, 2, 1), (codes::MALFORMED, 26, 2)]
    );
}
