//! `muster export tiled` and `muster import tiled`: the arguments, the project lookups
//! and the writing; the TMX itself is `muster_tiled`'s.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use muster_db::load::Document;
use muster_db::project::Resolution;
use muster_db::{Diagnostic, Severity};
use muster_ide::catalog::Catalog;
use muster_model::FileKind;
use muster_semantic::{FileCx, ScenarioCx};

use crate::io::{err, errln, outln};
use crate::project::{display_name, load, overwrites_input};
use crate::render;

pub fn export(
    cwd: &Path,
    root: Option<PathBuf>,
    input: &Path,
    output: &Path,
) -> Result<ExitCode, String> {
    let (project, db, indexes, mut diagnostics) = load(cwd, root, &[input.to_path_buf()])?;
    let Some(&index) = indexes.first() else {
        return Err(format!(
            "`{}` could not be loaded",
            muster_db::text::path(input)
        ));
    };
    if let Some(why) = overwrites_input(&project.root, &db, input, output) {
        return Err(why);
    }
    let map_index = match db.doc(index) {
        Some(Document::Map(_)) => Some(index),
        Some(Document::Scenario(s)) => match db.resolve(index, &s.map, FileKind::Map) {
            Resolution::Found(i) => {
                // A scenario's map is exported with it: its problems count too.
                diagnostics.extend(muster_check::validate(&db, &[i], &project.config));
                Some(i)
            }
            _ => None,
        },
        _ => None,
    };
    let handler = render::handler(render::use_colour());
    err!("{}", render::each(&handler, &diagnostics));
    if failed(&diagnostics) {
        errln!("{}", render::summary_line(1, &diagnostics));
        errln!(
            "muster: not writing `{}` because of the errors above",
            display_name(cwd)(output)
        );
        return Ok(ExitCode::from(1));
    }
    let source = match map_index.and_then(|i| db.doc(i)) {
        Some(Document::Map(m)) => m,
        _ => {
            return Err(format!(
                "`{}` is neither a map nor a scenario with a map",
                muster_db::text::path(input)
            ));
        }
    };
    let scenario = matches!(db.doc(index), Some(Document::Scenario(_)));
    let own = if scenario {
        db.compile_scenario(index)
    } else {
        None
    };
    let hex_map = match scenario {
        true => own.as_ref().or_else(|| db.scenario_map(index)),
        false => map_index.and_then(|i| db.terrain_map(i)),
    };
    let Some(hex_map) = hex_map else {
        return Err(format!(
            "`{}` is an open table, not a hex map; Tiled export draws hex maps",
            muster_db::text::path(input)
        ));
    };
    let system = match map_index.map(|i| db.resolve(i, &source.system, FileKind::System)) {
        Some(Resolution::Found(i)) => match db.doc(i) {
            Some(Document::System(s)) => Some(s),
            _ => None,
        },
        _ => None,
    };
    let setup = if scenario {
        let cx = FileCx::new(&db, index).and_then(ScenarioCx::new);
        cx.map(|cx| muster_tiled::setup::setup_of(&cx))
    } else {
        None
    };
    let input_tmx = muster_tiled::Input {
        table: hex_map.table(),
        source: Some(source),
        tiles: system.map(muster_tiled::system_tiles).unwrap_or_default(),
        setup: setup.as_deref(),
    };
    let exported = muster_tiled::export(&input_tmx, &muster_tiled::export::image_name(output));
    if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create `{}`: {e}", muster_db::text::path(dir)))?;
    }
    let png = muster_tiled::write(&exported, output)
        .map_err(|e| format!("cannot write `{}`: {e}", muster_db::text::path(output)))?;
    let shown = display_name(cwd);
    let grid = hex_map.grid();
    let counters = setup
        .map(|s| format!(", {} counters in the set-up", s.len()))
        .unwrap_or_default();
    outln!(
        "exported `{}` ({} x {} hexes{counters}) to {} and {}",
        hex_map.table().map,
        grid.columns,
        grid.rows,
        shown(output),
        shown(&png)
    );
    Ok(ExitCode::SUCCESS)
}

fn failed(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// The map id of an output name: `forest.map.ron` -> `forest`.
fn id_of(output: &Path) -> Result<String, String> {
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name.strip_suffix(".map.ron") {
        Some(id) if !id.is_empty() => Ok(id.to_string()),
        _ => Err(format!(
            "`{}` is not a map source name; give `-o NAME.map.ron`",
            muster_db::text::path(output)
        )),
    }
}

pub fn import(
    cwd: &Path,
    root: Option<PathBuf>,
    input: &Path,
    system: &str,
    output: &Path,
    force: bool,
) -> Result<ExitCode, String> {
    let id = id_of(output)?;
    let (project, db) = crate::list::load_project(cwd, root)?;
    let catalog = Catalog::new(&db);
    catalog.check_system(Some(system))?;
    let rules = catalog
        .system(system)
        .ok_or_else(|| format!("no system `{system}`"))?;
    let bytes = std::fs::read(input)
        .map_err(|e| format!("cannot read `{}`: {e}", muster_db::text::path(input)))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("`{}` is not UTF-8 text", muster_db::text::path(input)))?;
    let shown = display_name(cwd);
    let imported = muster_tiled::import(input, &shown(input), text, rules, &id);
    let handler = render::handler(render::use_colour());
    err!("{}", render::each(&handler, &imported.diagnostics));
    let text = match imported.text {
        Some(text) if !failed(&imported.diagnostics) => text,
        _ => {
            errln!("{}", render::summary_line(1, &imported.diagnostics));
            errln!(
                "muster: not writing `{}` because of the errors above",
                shown(output)
            );
            return Ok(ExitCode::from(1));
        }
    };
    crate::new::refuse_taken_id(&db, FileKind::Map, &id, output)?;
    drop(db);
    crate::new::write_new(output, text.as_bytes(), force)?;
    outln!(
        "wrote {}: a map of `{system}` from {}",
        shown(output),
        shown(input)
    );
    crate::new::validate_new(cwd, &project, output)
}
