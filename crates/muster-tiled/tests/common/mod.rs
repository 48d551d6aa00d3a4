//! The bundled maps and scenarios exported to TMX, for the tests of this crate.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use muster_db::Db;
use muster_db::load::Document;
use muster_db::project::Resolution;
use muster_model::FileKind;
use muster_model::map::MapSource;
use muster_model::system::RulesSystem;
use muster_model::table::TerrainTable;
use muster_semantic::{FileCx, ScenarioCx};
use muster_tiled::{Exported, Input, export, system_tiles};

/// One exported map or scenario.
pub struct Case {
    /// The file's path relative to the repository.
    pub name: String,
    pub table: TerrainTable,
    pub source: MapSource,
    pub system: RulesSystem,
    pub exported: Exported,
    /// Counters in the set-up layer (scenarios only).
    pub setup: Option<usize>,
}

fn system_of(db: &Db, index: usize, reference: &str) -> RulesSystem {
    match db.resolve(index, reference, FileKind::System) {
        Resolution::Found(i) => match db.doc(i) {
            Some(Document::System(s)) => s.clone(),
            _ => panic!("{reference} is not a system"),
        },
        _ => panic!("no system {reference}"),
    }
}

/// Every bundled hex map, then every bundled scenario on a hex map, exported.
pub fn bundled_cases(db: &Db) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, f) in db.files.iter().enumerate() {
        let name = f.file.name.clone();
        match db.doc(i) {
            Some(Document::Map(m)) => {
                let Some(map) = db.terrain_map(i) else {
                    continue;
                };
                let system = system_of(db, i, &m.system);
                let table = map.table().clone();
                let exported = export(
                    &Input {
                        table: &table,
                        source: Some(m),
                        tiles: system_tiles(&system),
                        setup: None,
                    },
                    "map.terrain.png",
                );
                out.push(Case {
                    name,
                    table,
                    source: m.clone(),
                    system,
                    exported,
                    setup: None,
                });
            }
            Some(Document::Scenario(s)) => {
                let Some(map) = db.scenario_map(i) else {
                    continue;
                };
                let map_index = match db.resolve(i, &s.map, FileKind::Map) {
                    Resolution::Found(m) => m,
                    _ => continue,
                };
                let Some(Document::Map(source)) = db.doc(map_index) else {
                    continue;
                };
                let system = system_of(db, map_index, &source.system);
                let cx = FileCx::new(db, i)
                    .and_then(ScenarioCx::new)
                    .expect("scenario");
                let setup = muster_tiled::setup::setup_of(&cx);
                let table = map.table().clone();
                let exported = export(
                    &Input {
                        table: &table,
                        source: Some(source),
                        tiles: system_tiles(&system),
                        setup: Some(&setup),
                    },
                    "map.terrain.png",
                );
                out.push(Case {
                    name,
                    table,
                    source: source.clone(),
                    system,
                    exported,
                    setup: Some(setup.len()),
                });
            }
            _ => {}
        }
    }
    assert!(
        out.len() >= 5,
        "only {} bundled hex maps and scenarios",
        out.len()
    );
    out
}

/// Writes a case's TMX (as `NAME.tmx`) and its picture into `dir`.
pub fn write_case(dir: &Path, case: &Case) -> PathBuf {
    let stem = case.name.replace(['/', '.'], "_");
    let path = dir.join(format!("{stem}.tmx"));
    let exported = Exported {
        tmx: case.exported.tmx.clone(),
        png: case.exported.png.clone(),
        image_name: "map.terrain.png".into(),
    };
    let dir = dir.join(&stem);
    std::fs::create_dir_all(&dir).unwrap();
    let path_in = dir.join(path.file_name().unwrap());
    muster_tiled::write(&exported, &path_in).unwrap();
    path_in
}
