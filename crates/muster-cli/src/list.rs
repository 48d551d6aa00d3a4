//! `muster list`: what the project holds, in aligned columns or as one JSON object.
//! The entries come from `muster_ide::catalog`, read from the loaded project.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use muster_db::project::{self, Db};
use muster_ide::catalog::Catalog;
use serde::Serialize;

use crate::cli::{ListFormat, ListWhat};
use crate::io::{errln, out, outln};
use crate::project::{Project, display_name};

/// Loads every data file of the project at (or above) `cwd`, or at `root`.
pub fn load_project(cwd: &Path, root: Option<PathBuf>) -> Result<(Project, Db), String> {
    let project = Project::open(cwd, root, &[])?;
    let name = display_name(cwd);
    let db = Db::load(&project.root, &project::project_files(&project.root), &name);
    Ok((project, db))
}

pub fn run(
    cwd: &Path,
    root: Option<PathBuf>,
    what: ListWhat,
    format: ListFormat,
) -> Result<ExitCode, String> {
    let (project, db) = load_project(cwd, root)?;
    let catalog = Catalog::new(&db);
    let unreadable = db.files.iter().filter(|f| f.doc.is_none()).count();
    let json = format == ListFormat::Json;
    match what {
        ListWhat::Systems => {
            let list = catalog.systems();
            if json {
                return print_json("systems", &list);
            }
            table(
                &["id", "name", "grid", "counter sheets", "maps", "scenarios"],
                list.iter()
                    .map(|s| {
                        vec![
                            s.id.clone(),
                            s.name.clone(),
                            s.grid.to_string(),
                            none_if_empty(&s.counter_sheets),
                            none_if_empty(&s.maps),
                            s.scenarios.to_string(),
                        ]
                    })
                    .collect(),
                &format!(
                    "no rules system in the project at `{}`: add `scenarios/<system>/<system>.system.ron`",
                    project.root.display()
                ),
            );
        }
        ListWhat::Armies { system } => {
            catalog.check_system(system.as_deref())?;
            let list = catalog.armies(system.as_deref());
            if json {
                return print_json("armies", &list);
            }
            table(
                &["id", "name", "colour", "system", "counters", "copies"],
                list.iter()
                    .map(|a| {
                        vec![
                            a.id.clone(),
                            a.name.clone(),
                            a.colour.clone(),
                            a.system.clone(),
                            a.counters.to_string(),
                            a.copies.to_string(),
                        ]
                    })
                    .collect(),
                "no counter sheet with armies in the project",
            );
        }
        ListWhat::Counters { army, system } => {
            catalog.check_system(system.as_deref())?;
            let list = catalog.counters(army.as_deref(), system.as_deref())?;
            if json {
                return print_json("counters", &list);
            }
            let mut headers = vec!["id", "name", "kind", "strength", "copies"];
            if army.is_none() {
                headers.insert(0, "army");
            }
            table(
                &headers,
                list.iter()
                    .map(|c| {
                        let strength = match c.reduced {
                            Some(r) => format!("{}/{r}", c.strength),
                            None => c.strength.to_string(),
                        };
                        let mut row = vec![
                            c.id.clone(),
                            c.name.clone(),
                            c.kind.clone(),
                            strength,
                            c.copies.to_string(),
                        ];
                        if army.is_none() {
                            row.insert(0, c.army.clone());
                        }
                        row
                    })
                    .collect(),
                "no counters",
            );
            if !json && !list.is_empty() {
                outln!(
                    "\n{} designs, {} counters (strength: full/reduced)",
                    list.len(),
                    list.iter().map(|c| usize::from(c.copies)).sum::<usize>()
                );
            }
        }
        ListWhat::Maps { system } => {
            catalog.check_system(system.as_deref())?;
            let list = catalog.maps(system.as_deref());
            if json {
                return print_json("maps", &list);
            }
            table(
                &["id", "name", "system", "size", "labels", "file"],
                list.iter()
                    .map(|m| {
                        vec![
                            m.id.clone(),
                            m.name.clone(),
                            m.system.clone(),
                            m.size.clone(),
                            m.labels.to_string(),
                            m.file.clone(),
                        ]
                    })
                    .collect(),
                "no map in the project",
            );
        }
        ListWhat::Hooks { system } => {
            catalog.check_system(system.as_deref())?;
            let list = Catalog::hooks(system.as_deref());
            if json {
                return print_json("hooks", &list);
            }
            table(
                &["id", "systems", "summary"],
                list.iter()
                    .map(|h| vec![h.id.clone(), h.systems.join(", "), h.summary.clone()])
                    .collect(),
                "no hooks",
            );
        }
        ListWhat::Terrain { system } => {
            catalog.check_system(system.as_deref())?;
            let list = catalog.terrain(system.as_deref());
            if json {
                return print_json("terrain", &list);
            }
            let mut headers = vec!["id", "name", "of", "movement", "effects"];
            if system.is_none() {
                headers.insert(0, "system");
            }
            table(
                &headers,
                list.iter()
                    .map(|t| {
                        let mut row = vec![
                            t.id.clone(),
                            t.name.clone(),
                            t.of.to_string(),
                            t.movement.clone(),
                            t.effects.join(", "),
                        ];
                        if system.is_none() {
                            row.insert(0, t.system.clone());
                        }
                        row
                    })
                    .collect(),
                "no terrain",
            );
        }
        ListWhat::Edges { map } => {
            let edges = catalog.edges(&map)?;
            if json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&edges).map_err(|e| e.to_string())?
                );
                return Ok(ExitCode::SUCCESS);
            }
            outln!("map `{}` ({})", edges.map, edges.system);
            if !edges.edges.is_empty() {
                outln!();
                table(
                    &["edge", "enterable hexes", "impassable"],
                    edges
                        .edges
                        .iter()
                        .map(|e| {
                            vec![
                                e.edge.to_string(),
                                e.hexes.join(" "),
                                if e.impassable.is_empty() {
                                    "-".to_string()
                                } else {
                                    e.impassable.join(" ")
                                },
                            ]
                        })
                        .collect(),
                    "",
                );
            }
            if !edges.named_edges.is_empty() {
                outln!();
                table(
                    &["named edge", "side"],
                    edges
                        .named_edges
                        .iter()
                        .map(|e| vec![e.name.clone(), e.side.to_string()])
                        .collect(),
                    "",
                );
            }
            outln!();
            table(
                &["label", "hex", "on edge"],
                edges
                    .labels
                    .iter()
                    .map(|l| {
                        let on: Vec<String> = l.edges.iter().map(ToString::to_string).collect();
                        vec![l.text.clone(), l.hex.clone(), none_if_empty(&on)]
                    })
                    .collect(),
                "no labels",
            );
            outln!();
            table(
                &["entries: scenario", "side", "turn", "at"],
                edges
                    .entries
                    .iter()
                    .map(|e| {
                        vec![
                            e.scenario.clone(),
                            e.side.clone(),
                            e.turn.to_string(),
                            e.at.join(" "),
                        ]
                    })
                    .collect(),
                "no scenario on this map brings units in during play",
            );
        }
    }
    if unreadable > 0 {
        errln!(
            "muster: {unreadable} file(s) of the project could not be read and are not listed; run `muster validate`"
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn print_json<T: Serialize>(key: &str, list: &T) -> Result<ExitCode, String> {
    let value = serde_json::json!({ key: list });
    outln!(
        "{}",
        serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?
    );
    Ok(ExitCode::SUCCESS)
}

fn none_if_empty(list: &[String]) -> String {
    if list.is_empty() {
        "-".to_string()
    } else {
        list.join(", ")
    }
}

/// Prints rows under headers in aligned columns (the last column is not padded);
/// `empty` when there is no row. Cells come from data: they are escaped
/// (`muster_db::text`), so a row is always one line.
fn table(headers: &[&str], rows: Vec<Vec<String>>, empty: &str) {
    if rows.is_empty() {
        if !empty.is_empty() {
            outln!("{empty}");
        }
        return;
    }
    let rows: Vec<Vec<String>> = rows
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|cell| muster_db::text::escape(&cell).into_owned())
                .collect()
        })
        .collect();
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut text = String::new();
        for (i, cell) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                text.push_str(cell);
            } else {
                text.push_str(cell);
                let pad = widths[i] + 2 - cell.chars().count();
                text.push_str(&" ".repeat(pad));
            }
        }
        text.trim_end().to_string()
    };
    let headers: Vec<String> = headers.iter().map(|h| h.to_string()).collect();
    out!("{}\n", line(&headers));
    for row in &rows {
        out!("{}\n", line(row));
    }
}
