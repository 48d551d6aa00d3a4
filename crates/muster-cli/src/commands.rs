//! The subcommands.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use muster_check::checks::context::{FileCx, ScenarioCx};
use muster_check::load::Document;
use muster_check::output::JsonReport;
use muster_check::project::{self, Db, Resolution};
use muster_check::summary::{ScenarioSummary, summarize};
use muster_check::{Severity, checks, hooks, schema};
use muster_model::FileKind;

use crate::cli::{Cli, Command, Format, SummaryFormat};
use crate::render;

pub fn run(cli: Cli) -> Result<ExitCode, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    match cli.command {
        Command::Validate { paths, format } => validate(&cwd, cli.root, &paths, format),
        Command::Compile { input, output } => compile(&cwd, cli.root, &input, &output),
        Command::Summary {
            scenario,
            format,
            assumed,
        } => summary(&cwd, cli.root, &scenario, format, assumed),
        Command::Explain { code } => explain(&code),
        Command::Checks => {
            for c in checks::REGISTRY {
                println!(
                    "{:<40} {:<8} {}",
                    c.meta.code,
                    c.meta.severity.to_string(),
                    c.meta.summary
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Schema { kind, out } => schema_cmd(kind.as_deref(), out.as_deref()),
    }
}

/// The project root: `--root`, else the nearest folder upwards from `start` holding
/// `muster.toml`, `scenarios/` or `maps/`, else `start`.
fn find_root(start: &Path, explicit: Option<PathBuf>) -> Result<PathBuf, String> {
    if let Some(root) = explicit {
        if !root.is_dir() {
            return Err(format!("project root `{}` is not a folder", root.display()));
        }
        return Ok(root);
    }
    let start = project::normalize(start);
    let found = start.ancestors().find(|dir| {
        dir.join("muster.toml").is_file() || project::DATA_DIRS.iter().any(|d| dir.join(d).is_dir())
    });
    Ok(found.unwrap_or(&start).to_path_buf())
}

fn display_name(cwd: &Path) -> impl Fn(&Path) -> String + Sync + '_ {
    move |p: &Path| {
        let p = project::normalize(p);
        p.strip_prefix(cwd)
            .map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
    }
}

/// Expands the paths given on the command line into data files.
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            out.extend(project::data_files_under(p));
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(format!("`{}` does not exist", p.display()));
        }
    }
    Ok(out)
}

fn load(
    cwd: &Path,
    root: Option<PathBuf>,
    targets: &[PathBuf],
) -> Result<(Db, Vec<usize>, Vec<muster_check::Diagnostic>), String> {
    let files = expand(targets)?;
    let start = match (&root, files.first()) {
        (None, Some(first)) => project::normalize(first)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or(cwd.to_path_buf()),
        _ => cwd.to_path_buf(),
    };
    let root = find_root(&start, root)?;
    if targets.is_empty() && project::project_files(&root).is_empty() {
        return Err(format!(
            "no `scenarios/` or `maps/` data under `{}`; give files or folders to check",
            root.display()
        ));
    }
    let name = display_name(cwd);
    Ok(muster_check::validate_paths(&root, &files, &name))
}

fn validate(
    cwd: &Path,
    root: Option<PathBuf>,
    paths: &[PathBuf],
    format: Format,
) -> Result<ExitCode, String> {
    let (_db, indexes, diagnostics) = load(cwd, root, paths)?;
    match format {
        Format::Human => {
            let handler = render::handler(render::use_colour());
            for d in &diagnostics {
                print!("{}", render::diagnostic(&handler, d));
                println!();
            }
            println!("{}", render::summary_line(indexes.len(), &diagnostics));
        }
        Format::Json => {
            let report = JsonReport::new(indexes.len(), &diagnostics);
            println!(
                "{}",
                serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
            );
        }
    }
    Ok(exit_for(&diagnostics))
}

fn exit_for(diagnostics: &[muster_check::Diagnostic]) -> ExitCode {
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn compile(
    cwd: &Path,
    root: Option<PathBuf>,
    input: &Path,
    output: &Path,
) -> Result<ExitCode, String> {
    let (db, indexes, mut diagnostics) = load(cwd, root, &[input.to_path_buf()])?;
    let Some(&index) = indexes.first() else {
        return Err(format!("`{}` could not be loaded", input.display()));
    };
    // A scenario compiles its map; the map's own problems count too.
    let map_index = match db.doc(index) {
        Some(Document::Map(_)) => Some(index),
        Some(Document::Scenario(s)) => match db.resolve(index, &s.map, FileKind::Map) {
            Resolution::Found(i) => {
                diagnostics.extend(muster_check::validate(&db, &[i]));
                Some(i)
            }
            _ => None,
        },
        _ => None,
    };
    let handler = render::handler(render::use_colour());
    let failed = diagnostics.iter().any(|d| d.severity == Severity::Error);
    for d in &diagnostics {
        eprint!("{}", render::diagnostic(&handler, d));
    }
    if failed {
        eprintln!("{}", render::summary_line(1, &diagnostics));
        eprintln!(
            "muster: not writing `{}` because of the errors above",
            output.display()
        );
        return Ok(ExitCode::from(1));
    }
    let Some(map) = map_index.and_then(|i| db.terrain_map(i)) else {
        return Err(format!(
            "`{}` is neither a map nor a scenario with a map",
            input.display()
        ));
    };
    let json = muster_map::to_json(map.table());
    muster_map::write_atomic(output, json.as_bytes())
        .map_err(|e| format!("cannot write `{}`: {e}", output.display()))?;
    println!(
        "compiled `{}` ({} x {} hexes, {} hexsides with features) to {}",
        map.table().map,
        map.grid().columns,
        map.grid().rows,
        map.table().hexsides.len(),
        output.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn summary(
    cwd: &Path,
    root: Option<PathBuf>,
    scenario: &Path,
    format: SummaryFormat,
    list_assumed: bool,
) -> Result<ExitCode, String> {
    let (db, indexes, diagnostics) = load(cwd, root, &[scenario.to_path_buf()])?;
    let index = *indexes
        .first()
        .ok_or_else(|| format!("`{}` could not be loaded", scenario.display()))?;
    let cx = FileCx::new(&db, index).and_then(ScenarioCx::new);
    let Some(cx) = cx else {
        let handler = render::handler(render::use_colour());
        for d in &diagnostics {
            eprint!("{}", render::diagnostic(&handler, d));
        }
        return Err(format!(
            "`{}` is not a scenario that muster can read",
            scenario.display()
        ));
    };
    let s = summarize(&cx);
    match format {
        SummaryFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&s).map_err(|e| e.to_string())?
        ),
        SummaryFormat::Human => print!("{}", human_summary(&s, list_assumed)),
    }
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors > 0 {
        eprintln!("muster: the scenario has {errors} error(s); run `muster validate` for details");
    }
    Ok(ExitCode::SUCCESS)
}

fn human_summary(s: &ScenarioSummary, list_assumed: bool) -> String {
    let mut out = format!("{} ({})\n", s.name, s.id);
    if let Some(m) = &s.map {
        out += &format!("map: {} ({} x {} hexes)\n", m.id, m.columns, m.rows);
    }
    out += &format!("turns: {}", s.turns);
    if s.extra_turns > 0 {
        out += &format!(" (+{} optional)", s.extra_turns);
    }
    out += &format!(
        "; deploys first: {}; plays first: {}\n",
        s.deploys_first, s.plays_first
    );
    for side in &s.sides {
        out += &format!("\n{} [{}]\n", side.name, side.id);
        out += &format!(
            "  commanders: {}\n",
            if side.commanders.is_empty() {
                "none".to_string()
            } else {
                side.commanders.join(", ")
            }
        );
        out += &format!(
            "  combat units: {} (total strength {})\n",
            side.combat_units, side.combat_strength
        );
        if side.baggage > 0 {
            out += &format!("  baggage: {}\n", side.baggage);
        }
        out += "  by kind: ";
        out += &side
            .by_kind
            .iter()
            .map(|k| format!("{} {}", k.count, k.name))
            .collect::<Vec<_>>()
            .join(", ");
        out += "\n  units:\n";
        for u in &side.by_unit {
            out += &format!(
                "    {} x {} ({}, strength {})\n",
                u.count, u.name, u.kind, u.strength
            );
        }
        for r in &side.reinforcements {
            out += &format!(
                "  reinforcements turn {}: {} at {}\n",
                r.turn,
                r.units
                    .iter()
                    .map(|u| format!("{} x {}", u.count, u.name))
                    .collect::<Vec<_>>()
                    .join(", "),
                r.entry.join(" / ")
            );
        }
        if let Some(t) = &side.morale_threshold {
            out += &format!("  morale threshold: {t}\n");
        }
        if let Some(l) = side.could_lose {
            out += &format!("  could lose in all: {l}\n");
        }
    }
    if !s.neutrals.is_empty() {
        out += &format!(
            "\nneutral: {}\n",
            s.neutrals
                .iter()
                .map(|n| n.name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out += &format!(
        "\nassumed values (not printed in the rulebook): {}\n",
        s.assumed.len()
    );
    if list_assumed {
        for a in &s.assumed {
            out += &format!("  {} `{}`: {}\n", a.item, a.field, a.reason);
        }
    }
    out
}

fn explain(code: &str) -> Result<ExitCode, String> {
    if let Some(meta) = checks::find(code) {
        println!("# {} ({})\n\n{}", meta.code, meta.severity, meta.doc());
        return Ok(ExitCode::SUCCESS);
    }
    if code == "hooks" {
        for h in hooks::HOOKS {
            println!("{:<28} {}", h.id, h.summary);
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(hook) = hooks::find(code) {
        println!(
            "# hook `{}`\n\n{}\n\nparameters (JSON Schema):",
            hook.id, hook.summary
        );
        println!(
            "{}",
            serde_json::to_string_pretty(&hook.schema()).map_err(|e| e.to_string())?
        );
        return Ok(ExitCode::SUCCESS);
    }
    let codes = checks::REGISTRY
        .iter()
        .map(|c| c.meta.code)
        .chain(hooks::HOOKS.iter().map(|h| h.id));
    let hint = muster_check::suggest::did_you_mean(code, codes)
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
    Err(format!(
        "no check or hook `{code}`{hint} (`muster checks` lists them)"
    ))
}

fn schema_cmd(kind: Option<&str>, out: Option<&Path>) -> Result<ExitCode, String> {
    let all = schema::generated_schemas();
    if let Some(dir) = out {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
        for (name, text) in &all {
            muster_map::write_atomic(&dir.join(name), text.as_bytes())
                .map_err(|e| format!("cannot write `{name}`: {e}"))?;
        }
        println!("wrote {} schemas to {}", all.len(), dir.display());
        return Ok(ExitCode::SUCCESS);
    }
    let kind = kind.unwrap_or("scenario");
    let wanted = format!("{kind}.schema.json");
    match all.iter().find(|(name, _)| *name == wanted) {
        Some((_, text)) => {
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        None => Err(format!(
            "no schema `{kind}`; known: system, counters, map, scenario, terrain-table, report"
        )),
    }
}
