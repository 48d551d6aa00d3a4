//! `muster render`: a map or scenario drawn as SVG, PNG or a self-contained HTML page.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use muster_db::load::Document;
use muster_db::project::{Db, Resolution};
use muster_db::{Diagnostic, Severity};
use muster_model::FileKind;
use muster_render::{MarkTarget, Options, Rendered};

use crate::io::{err, errln, out, outln};
use crate::project::{Project, display_name};
use crate::render;

/// What `-o` asks for, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Picture {
    Svg,
    Png,
    Html,
}

fn picture_of(output: &Path) -> Result<Picture, String> {
    let ext = output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => Ok(Picture::Svg),
        Some("png") => Ok(Picture::Png),
        Some("html" | "htm") => Ok(Picture::Html),
        _ => Err(format!(
            "cannot tell what to write to `{}`: end the name with `.svg`, `.png` or `.html` (or give `-o -` for SVG on standard output)",
            muster_db::text::path(output)
        )),
    }
}

pub fn run(
    cwd: &Path,
    root: Option<PathBuf>,
    input: &Path,
    output: Option<PathBuf>,
    (turn, units): (u8, bool),
    reach: Option<&str>,
) -> Result<ExitCode, String> {
    let to_stdout = output.as_deref() == Some(Path::new("-"));
    let picture = match &output {
        Some(o) if !to_stdout => picture_of(o)?,
        _ => Picture::Svg,
    };
    if picture == Picture::Png && !muster_render::PNG {
        return Err(
            "this muster was built without PNG output; write `.svg` or `.html`, or build muster with `--features png`"
                .to_string(),
        );
    }
    let (project, db, indexes, mut diagnostics) =
        crate::project::load(cwd, root, &[input.to_path_buf()])?;
    let Some(&index) = indexes.first() else {
        return Err(format!(
            "`{}` could not be loaded",
            muster_db::text::path(input)
        ));
    };
    // A scenario is drawn on its map: the map's problems are shown too.
    if let Some(Document::Scenario(s)) = db.doc(index)
        && let Resolution::Found(m) = db.resolve(index, &s.map, FileKind::Map)
    {
        diagnostics.extend(muster_check::validate(&db, &[m], &project.config));
    }
    diagnostics.sort_by_key(Diagnostic::sort_key);
    match db.files[index].kind {
        Some(FileKind::Map | FileKind::Scenario) | None => {}
        Some(kind) => {
            return Err(format!(
                "`{}` is a {}; only maps and scenarios can be drawn",
                muster_db::text::path(input),
                kind.name()
            ));
        }
    }
    let options = Options { turn, units };
    let mut rendered = muster_render::render(&db, index, &diagnostics, &options);
    if let Some(unit) = reach {
        rendered.svg = shade_reach(&db, index, input, turn, unit, &rendered.svg)?;
    }
    let name = display_name(cwd);
    let output = output.unwrap_or_else(|| board_output(&project, &db, index, input));
    if !to_stdout
        && let Some(why) = crate::project::overwrites_input(&project.root, &db, input, &output)
    {
        return Err(why);
    }
    let handler = render::handler(render::use_colour());
    err!("{}", render::each(&handler, &diagnostics));
    let bytes = match picture {
        Picture::Svg => rendered.svg.clone().into_bytes(),
        Picture::Html => {
            let name_of = |d: &Diagnostic| name(&d.file.path);
            muster_render::html::page(&rendered, &diagnostics, &name_of, None).into_bytes()
        }
        Picture::Png => muster_render::png(&rendered.svg)?,
    };
    if to_stdout {
        out!("{}", rendered.svg);
    } else {
        crate::project::write_bytes(&bytes, &output)?;
    }
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if !diagnostics.is_empty() {
        errln!("{}", render::summary_line(1, &diagnostics));
    }
    if !to_stdout {
        outln!(
            "rendered `{}` ({}) to {}",
            muster_db::text::escape(&rendered.title),
            muster_db::text::escape(&describe(&rendered)),
            name(&output)
        );
    }
    Ok(if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Where the board of file `index` is drawn without `-o`: `<id>.svg` in `[compile] out`,
/// else in the project's `target/muster/`.
fn board_output(project: &Project, db: &Db, index: usize, input: &Path) -> PathBuf {
    let id = match db.doc(index) {
        Some(Document::Scenario(s)) => s.id.clone(),
        Some(Document::Map(m)) => m.id.clone(),
        _ => input
            .file_stem()
            .map_or("board".to_string(), |s| s.to_string_lossy().into_owned()),
    };
    let dir = project
        .config
        .compile_out
        .clone()
        .unwrap_or_else(|| project.root.join("target").join("muster"));
    dir.join(format!("{}.svg", crate::project::file_safe(&id, "board")))
}

/// `15 x 12 hexes, 32 counters, 1 diagnostic on the board`.
fn describe(rendered: &Rendered) -> String {
    if let Some(reason) = &rendered.unavailable {
        return format!("no board: {reason}");
    }
    let mut parts = Vec::new();
    if let Some(board) = &rendered.board {
        if !board.pieces.is_empty() {
            parts.push(plural(board.pieces.len(), "counter"));
        }
        let units = board
            .table
            .iter()
            .filter(|m| !matches!(m, muster_semantic::board::TableMark::Area { .. }))
            .count();
        if units > 0 {
            parts.push(plural(units, "unit"));
        }
        if !board.unplaced.is_empty() {
            parts.push(format!("{} not placed", board.unplaced.len()));
        }
    }
    let on_board = rendered
        .marks
        .iter()
        .filter(|m| m.target != MarkTarget::Nowhere)
        .count();
    if on_board > 0 {
        parts.push(format!("{} on the board", plural(on_board, "diagnostic")));
    }
    if parts.is_empty() {
        rendered.what.to_string()
    } else {
        parts.join(", ")
    }
}

fn plural(count: usize, what: &str) -> String {
    if count == 1 {
        format!("1 {what}")
    } else {
        format!("{count} {what}s")
    }
}

/// `--reach COUNTER`: the board with the unit's reach this turn shaded over it.
fn shade_reach(
    db: &Db,
    index: usize,
    input: &Path,
    turn: u8,
    unit: &str,
    svg: &str,
) -> Result<String, String> {
    let cx = muster_semantic::FileCx::new(db, index)
        .and_then(muster_semantic::ScenarioCx::new)
        .ok_or_else(|| {
            format!(
                "`{}` is not a scenario: `--reach` shades a unit of a scenario",
                muster_db::text::path(input)
            )
        })?;
    let (Some(system), Some(map)) = (cx.system, cx.map) else {
        return Err("`--reach`: the scenario's system or hex map could not be loaded".into());
    };
    let position = muster_engine::from_scenario(&cx, turn);
    let engine = muster_engine::Engine::new(system, map, &position);
    let reach = engine
        .reach(unit)
        .map_err(|e| format!("`--reach`: {}", muster_db::text::escape(&e.to_string())))?;
    let shade = reach_shade(&reach).ok_or("`--reach`: the unit's hex is not a hex id")?;
    Ok(muster_render::with_reach(svg, map, &shade))
}

/// The engine's reach as the board shades it; `None` if its start is not a hex id.
pub(crate) fn reach_shade(reach: &muster_engine::Reach) -> Option<muster_render::ReachShade> {
    let hex = |h: &str| muster_hex::HexId::parse(h).ok();
    Some(muster_render::ReachShade {
        unit: reach.unit.clone(),
        from: hex(&reach.from)?,
        hexes: reach
            .hexes
            .iter()
            .filter_map(|h| Some((hex(&h.hex)?, h.mp_left)))
            .collect(),
    })
}
