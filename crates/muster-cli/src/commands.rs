//! The subcommands.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use muster_check::registry;
use muster_db::load::Document;
use muster_db::project::Resolution;
use muster_db::{Diagnostic, Severity};
use muster_ide::schema;
use muster_ide::summary::summarize;
use muster_model::FileKind;
use muster_model::table::TableTerrain;
use muster_semantic::hooks;
use muster_semantic::{FileCx, ScenarioCx};

use crate::cli::{Cli, Command, ExportWhat, Format, ImportWhat, SummaryFormat};
use crate::io::{err, errln, out, outln};
use crate::project::{
    Project, display_name, expand, load, open_project, overwrites_input, write_json,
};
use crate::{emit, render, watch};

pub fn run(cli: Cli) -> Result<ExitCode, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    match cli.command {
        Command::Validate {
            paths,
            format,
            deny_warnings,
        } => {
            let hint = crate::outside::hint(&cwd, cli.root.as_deref(), &paths);
            let code = validate(&cwd, cli.root, &paths, format, deny_warnings)?;
            crate::outside::report(hint, code);
            Ok(code)
        }
        Command::Watch {
            paths,
            no_clear,
            compile,
            debounce_ms,
            serve,
        } => {
            let project = Project::open(&cwd, cli.root, &paths)?;
            let options = watch::Options {
                clear: !no_clear,
                compile_dir: compile,
                debounce_ms,
                serve,
            };
            watch::run(&cwd, project, &paths, options)
        }
        Command::Compile {
            input,
            output,
            position,
            rules,
        } => {
            let hint =
                crate::outside::hint(&cwd, cli.root.as_deref(), std::slice::from_ref(&input));
            let code = compile(&cwd, cli.root, &input, output, [position, rules])?;
            crate::outside::report(hint, code);
            Ok(code)
        }
        Command::Render {
            input,
            output,
            turn,
            no_units,
            reach,
        } => {
            let hint =
                crate::outside::hint(&cwd, cli.root.as_deref(), std::slice::from_ref(&input));
            let code = crate::picture::run(
                &cwd,
                cli.root,
                &input,
                output,
                (turn, !no_units),
                reach.as_deref(),
            )?;
            crate::outside::report(hint, code);
            Ok(code)
        }
        Command::Summary {
            scenario,
            format,
            assumed,
        } => summary(&cwd, cli.root, &scenario, format, assumed),
        Command::Explain { code } => explain(&code),
        Command::Checks => {
            for c in registry::REGISTRY {
                outln!(
                    "{:<40} {:<8} {}",
                    c.meta.code,
                    c.meta.severity.to_string(),
                    c.meta.summary
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Lsp => muster_lsp::run_stdio().map(|()| ExitCode::SUCCESS),
        Command::Schema { kind, out } => schema_cmd(kind.as_deref(), out.as_deref()),
        Command::Query { what, format, turn } => {
            crate::query::run(&cwd, cli.root, what, format, turn)
        }
        Command::List { what, format } => crate::list::run(&cwd, cli.root, what, format),
        Command::New { what } => crate::new::run(&cwd, cli.root, what),
        Command::Export { what } => match what {
            ExportWhat::Tiled { input, output } => {
                crate::tiled::export(&cwd, cli.root, &input, &output)
            }
            ExportWhat::Vassal {
                inputs,
                output,
                into,
                allow_errors,
            } => crate::vassal::run(&cwd, cli.root, &inputs, output, into, allow_errors),
        },
        Command::Import { what } => match what {
            ImportWhat::Tiled {
                input,
                system,
                output,
                force,
            } => crate::tiled::import(&cwd, cli.root, &input, &system, &output, force),
        },
    }
}

fn validate(
    cwd: &Path,
    root: Option<PathBuf>,
    paths: &[PathBuf],
    format: Format,
    deny_warnings: bool,
) -> Result<ExitCode, String> {
    let project = open_project(cwd, root, paths)?;
    let name = display_name(cwd);
    // Data files only: `muster.toml` is read and its mistakes reported, but it is not
    // one of the files checked, in `validate` as in `watch`.
    let (checked, diagnostics) =
        muster_check::validate_project(&project.root, &expand(paths), &project.config, &name);
    out!("{}", emit::for_format(format).emit(checked, &diagnostics)?);
    Ok(exit_for(&diagnostics, deny_warnings))
}

pub fn exit_for(diagnostics: &[Diagnostic], deny_warnings: bool) -> ExitCode {
    let failing = diagnostics.iter().any(|d| {
        d.severity == Severity::Error || (deny_warnings && d.severity == Severity::Warning)
    });
    if failing {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn compile(
    cwd: &Path,
    root: Option<PathBuf>,
    input: &Path,
    output: Option<PathBuf>,
    engine: [Option<PathBuf>; 2],
) -> Result<ExitCode, String> {
    let (project, db, indexes, mut diagnostics) = load(cwd, root, &[input.to_path_buf()])?;
    let Some(&index) = indexes.first() else {
        return Err(format!(
            "`{}` could not be loaded",
            muster_db::text::path(input)
        ));
    };
    // A scenario compiles its map; the map's own problems count too.
    let map_index = match db.doc(index) {
        Some(Document::Map(_)) => Some(index),
        Some(Document::Scenario(s)) => match db.resolve(index, &s.map, FileKind::Map) {
            Resolution::Found(i) => {
                diagnostics.extend(muster_check::validate(&db, &[i], &project.config));
                Some(i)
            }
            _ => None,
        },
        _ => None,
    };
    let handler = render::handler(render::use_colour());
    let failed = diagnostics.iter().any(|d| d.severity == Severity::Error);
    // A scenario's own terrain (its terrain modifications applied, compiled for this
    // scenario so that the table names it), else the map's.
    let own = match db.doc(index) {
        Some(Document::Scenario(_)) => db.compile_scenario(index),
        _ => None,
    };
    let hex_map = match db.doc(index) {
        Some(Document::Scenario(_)) => own.as_ref().or_else(|| db.scenario_map(index)),
        _ => map_index.and_then(|i| db.terrain_map(i)),
    };
    let table = map_index.and_then(|i| db.table(i));
    let id = match (hex_map, table) {
        (Some(map), _) => Some(map.table().map.clone()),
        (None, Some(t)) => Some(t.map.clone()),
        (None, None) => None,
    };
    // Where the table goes, refused before anything is printed when it would overwrite
    // what muster reads.
    let output = output.or_else(|| Some(configured_output(&project, id.as_deref()?)));
    if let Some(output) = &output
        && let Some(why) = overwrites_input(&project.root, &db, input, output)
    {
        return Err(why);
    }
    err!("{}", render::each(&handler, &diagnostics));
    let Some((json, id, what)) = table_json(hex_map, table) else {
        if failed {
            errln!("{}", render::summary_line(1, &diagnostics));
            return Ok(ExitCode::from(1));
        }
        return Err(format!(
            "`{}` is neither a map nor a scenario with a map",
            muster_db::text::path(input)
        ));
    };
    let Some(output) = output else {
        return Err(format!(
            "`{}` has no compiled table",
            muster_db::text::path(input)
        ));
    };
    let shown = display_name(cwd)(&output);
    if failed {
        errln!("{}", render::summary_line(1, &diagnostics));
        errln!("muster: not writing `{shown}` because of the errors above");
        return Ok(ExitCode::from(1));
    }
    write_json(&json, &output)?;
    outln!("compiled `{id}` ({what}) to {shown}");
    write_engine_files(cwd, &project, &db, index, input, engine)?;
    Ok(ExitCode::SUCCESS)
}

/// `compile --position` and `--rules`: a scenario's set-up as an engine position and its
/// rules system, as JSON.
fn write_engine_files(
    cwd: &Path,
    project: &Project,
    db: &muster_db::project::Db,
    index: usize,
    input: &Path,
    [position, rules]: [Option<PathBuf>; 2],
) -> Result<(), String> {
    if position.is_none() && rules.is_none() {
        return Ok(());
    }
    let cx = FileCx::new(db, index)
        .and_then(ScenarioCx::new)
        .ok_or_else(|| {
            format!(
                "`{}` is not a scenario: only a scenario has a position and rules to write",
                muster_db::text::path(input)
            )
        })?;
    for path in position.iter().chain(rules.iter()) {
        if let Some(why) = overwrites_input(&project.root, db, input, path) {
            return Err(why);
        }
    }
    let pretty = |v: serde_json::Result<String>| {
        v.map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| format!("cannot write JSON: {e}"))
    };
    if let Some(path) = position {
        let p = muster_engine::from_scenario(&cx, 1);
        write_json(&pretty(serde_json::to_string_pretty(&p))?, &path)?;
        outln!(
            "wrote the position of `{}` ({} units) to {}",
            muster_db::text::escape(&cx.scenario.id),
            p.units.len(),
            display_name(cwd)(&path)
        );
    }
    if let Some(path) = rules {
        let system = cx
            .system
            .ok_or("the scenario's rules system could not be loaded")?;
        write_json(&pretty(serde_json::to_string_pretty(system))?, &path)?;
        outln!(
            "wrote the rules of `{}` to {}",
            muster_db::text::escape(&system.id),
            display_name(cwd)(&path)
        );
    }
    Ok(())
}

/// Where `compile` writes the table `id` without `-o`: into `[compile] out`, else the
/// default.
fn configured_output(project: &Project, id: &str) -> PathBuf {
    match &project.config.compile_out {
        Some(dir) => dir.join(format!("{id}.json")),
        None => default_output(&project.root, id),
    }
}

/// The compiled table as JSON, its map's id and a line on what it holds: the hex map's
/// if there is one, else the open table's.
fn table_json(
    hex_map: Option<&muster_map::TerrainMap>,
    table: Option<&TableTerrain>,
) -> Option<(String, String, String)> {
    match (hex_map, table) {
        (Some(map), _) => Some((
            muster_map::to_json(map.table()),
            map.table().map.clone(),
            format!(
                "{} x {} hexes, {} hexsides with features{}",
                map.grid().columns,
                map.grid().rows,
                map.table().hexsides.len(),
                match map
                    .table()
                    .hexes
                    .iter()
                    .filter(|h| !h.features.is_empty())
                    .count()
                {
                    0 => String::new(),
                    1 => ", 1 hex with an added feature".to_string(),
                    n => format!(", {n} hexes with added features"),
                }
            ),
        )),
        (None, Some(t)) => Some((
            muster_map::to_json(t),
            t.map.clone(),
            format!(
                "{} x {} inch table, {} features, {} x {} raster",
                t.width,
                t.depth,
                t.features.len(),
                t.raster.columns,
                t.raster.rows
            ),
        )),
        (None, None) => None,
    }
}

/// Where `compile` writes without `-o` or `[compile] out`: under the project's
/// `target/muster/`, which no data folder contains.
fn default_output(root: &Path, id: &str) -> PathBuf {
    let name = crate::project::file_safe(id, "map");
    root.join("target")
        .join("muster")
        .join(format!("{name}.terrain.json"))
}

fn summary(
    cwd: &Path,
    root: Option<PathBuf>,
    scenario: &Path,
    format: SummaryFormat,
    list_assumed: bool,
) -> Result<ExitCode, String> {
    let (project, db, indexes, mut diagnostics) = load(cwd, root, &[scenario.to_path_buf()])?;
    let index = *indexes
        .first()
        .ok_or_else(|| format!("`{}` could not be loaded", muster_db::text::path(scenario)))?;
    let cx = FileCx::new(&db, index).and_then(ScenarioCx::new);
    let Some(cx) = cx else {
        let handler = render::handler(render::use_colour());
        err!("{}", render::each(&handler, &diagnostics));
        return Err(format!(
            "`{}` is not a scenario that muster can read",
            muster_db::text::path(scenario)
        ));
    };
    // The scenario's errors and those of the files it uses: they make the figures doubtful.
    let files = crate::summary::dependencies(&db, index);
    diagnostics.extend(muster_check::validate(&db, &files[1..], &project.config));
    let errors = crate::summary::errors_in(&db, &files, &diagnostics);
    let s = summarize(&cx);
    match format {
        SummaryFormat::Json => {
            outln!(
                "{}",
                serde_json::to_string_pretty(&crate::summary::JsonSummary {
                    errors: errors.count,
                    summary: &s
                })
                .map_err(|e| e.to_string())?
            );
            if errors.count > 0 {
                errln!("muster: {}", crate::summary::warning(&errors, false));
            }
        }
        SummaryFormat::Human => out!("{}", crate::summary::human(&s, &errors, list_assumed)),
    }
    Ok(ExitCode::SUCCESS)
}

fn explain(code: &str) -> Result<ExitCode, String> {
    // The validator's checks, then the codes `muster import tiled` reports.
    if let Some(meta) = registry::find(code).or_else(|| muster_tiled::codes::find(code)) {
        outln!("# {} ({})\n\n{}", meta.code, meta.severity, meta.doc());
        return Ok(ExitCode::SUCCESS);
    }
    if code == "hooks" {
        for h in hooks::HOOKS {
            outln!("{:<28} {:<9} {}", h.id, h.systems.join(", "), h.summary);
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(hook) = hooks::find(code) {
        explain_hook(hook)?;
        return Ok(ExitCode::SUCCESS);
    }
    let short: Vec<&str> = registry::REGISTRY
        .iter()
        .map(|c| c.meta.code)
        .filter(|c| c.rsplit("::").next() == Some(code))
        .collect();
    match short.as_slice() {
        [one] => return explain(one),
        [] => {}
        many => {
            return Err(format!(
                "`{code}` names {} checks: {}; give the whole code",
                many.len(),
                many.join(", ")
            ));
        }
    }
    let codes = registry::REGISTRY
        .iter()
        .map(|c| c.meta.code)
        .chain(muster_tiled::codes::CHECKS.iter().map(|c| c.code))
        .chain(hooks::HOOKS.iter().map(|h| h.id));
    let hint = muster_db::suggest::did_you_mean(code, codes)
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
    Err(format!(
        "no check or hook `{code}`{hint} (`muster checks` lists them)"
    ))
}

/// A hook's page: what it declares, its systems, an example, its parameters in words
/// and what they name, then the JSON Schema.
fn explain_hook(hook: &hooks::RegisteredHook) -> Result<(), String> {
    // The same page the language server shows on hover.
    out!("{}", muster_check::docs::hook_page(hook));
    Ok(())
}

fn schema_cmd(kind: Option<&str>, out: Option<&Path>) -> Result<ExitCode, String> {
    let all = schema::generated_schemas();
    if let Some(dir) = out {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create `{}`: {e}", muster_db::text::path(dir)))?;
        for (name, text) in &all {
            muster_map::write_atomic(&dir.join(name), text.as_bytes())
                .map_err(|e| format!("cannot write `{name}`: {e}"))?;
        }
        outln!(
            "wrote {} schemas to {}",
            all.len(),
            muster_db::text::path(dir)
        );
        return Ok(ExitCode::SUCCESS);
    }
    let kind = kind.unwrap_or("scenario");
    let wanted = format!("{kind}.schema.json");
    match all.iter().find(|(name, _)| *name == wanted) {
        Some((_, text)) => {
            out!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        None => Err(format!(
            "no schema `{kind}`; known: system, counters, map, scenario, terrain-table, report"
        )),
    }
}
