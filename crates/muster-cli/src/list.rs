//! `muster list`: what the project holds, in aligned columns or as one JSON object.
//! The entries come from `muster_ide::catalog`, read from the loaded project.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use muster_db::project::{self, Db};
use muster_ide::catalog::{
    ArmyEntry, Catalog, CounterEntry, EdgeHexes, EntryUse, HookEntry, LabelEntry, MapEdges,
    MapEntry, NamedEdgeEntry, RuleEntry, SystemEntry, TerrainEntry,
};
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
            let empty = format!(
                "no rules system in the project at `{}`: add `scenarios/<system>/<system>.system.ron`",
                project.root.display()
            );
            let columns = Columns::new(vec![
                column("id", |s: &SystemEntry| s.id.clone()),
                column("name", |s| s.name.clone()),
                column("grid", |s| s.grid.to_string()),
                column("counter sheets", |s| none_if_empty(&s.counter_sheets)),
                column("maps", |s| none_if_empty(&s.maps)),
                column("scenarios", |s| s.scenarios.to_string()),
            ]);
            show(json, "systems", &catalog.systems(), &columns, &empty)?;
        }
        ListWhat::Armies { system } => {
            catalog.check_system(system.as_deref())?;
            let columns = Columns::new(vec![
                column("id", |a: &ArmyEntry| a.id.clone()),
                column("name", |a| a.name.clone()),
                column("colour", |a| a.colour.clone()),
                column("system", |a| a.system.clone()),
                column("counters", |a| a.counters.to_string()),
                column("copies", |a| a.copies.to_string()),
            ]);
            let list = catalog.armies(system.as_deref());
            let empty = "no counter sheet with armies in the project";
            show(json, "armies", &list, &columns, empty)?;
        }
        ListWhat::Counters { army, system } => {
            catalog.check_system(system.as_deref())?;
            let list = catalog.counters(army.as_deref(), system.as_deref())?;
            counters(json, &list, army.is_none())?;
        }
        ListWhat::Maps { system } => {
            catalog.check_system(system.as_deref())?;
            let columns = Columns::new(vec![
                column("id", |m: &MapEntry| m.id.clone()),
                column("name", |m| m.name.clone()),
                column("system", |m| m.system.clone()),
                column("size", |m| m.size.clone()),
                column("labels", |m| m.labels.to_string()),
                column("file", |m| m.file.clone()),
            ]);
            let list = catalog.maps(system.as_deref());
            show(json, "maps", &list, &columns, "no map in the project")?;
        }
        ListWhat::Hooks { system } => {
            catalog.check_system(system.as_deref())?;
            let columns = Columns::new(vec![
                column("id", |h: &HookEntry| h.id.clone()),
                column("systems", |h| h.systems.join(", ")),
                column("summary", |h| h.summary.clone()),
            ]);
            let list = catalog.hooks(system.as_deref());
            show(json, "hooks", &list, &columns, "no hooks")?;
        }
        ListWhat::Terrain { system } => {
            catalog.check_system(system.as_deref())?;
            let columns = Columns::new(vec![
                column("id", |t: &TerrainEntry| t.id.clone()),
                column("name", |t| t.name.clone()),
                column("of", |t| t.of.to_string()),
                column("movement", |t| t.movement.clone()),
                column("effects", |t| t.effects.join(", ")),
            ])
            .first_if(system.is_none(), column("system", |t| t.system.clone()));
            let list = catalog.terrain(system.as_deref());
            show(json, "terrain", &list, &columns, "no terrain")?;
        }
        ListWhat::Rules { system } => {
            catalog.check_system(system.as_deref())?;
            let columns = Columns::new(vec![
                column("topic", |r: &RuleEntry| r.topic.to_string()),
                column("id", |r| r.id.clone()),
                column("rule", |r| r.text.clone()),
            ])
            .first_if(system.is_none(), column("system", |r| r.system.clone()));
            let list = catalog.rules(system.as_deref());
            show(
                json,
                "rules",
                &list,
                &columns,
                "no rules stated in the vocabulary",
            )?;
        }
        ListWhat::Edges { map } => edges(json, &catalog.edges(&map)?)?,
    }
    // A JSON listing is the whole of the output: the warning goes with the columns.
    if !json && unreadable > 0 {
        errln!(
            "muster: {unreadable} file(s) of the project could not be read and are not listed; run `muster validate`"
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Counters, with the army first when they are of every army, and their totals.
fn counters(json: bool, list: &[CounterEntry], every_army: bool) -> Result<(), String> {
    let columns = Columns::new(vec![
        column("id", |c: &CounterEntry| c.id.clone()),
        column("name", |c| c.name.clone()),
        column("kind", |c| c.kind.clone()),
        column("strength", |c| match c.reduced {
            Some(r) => format!("{}/{r}", c.strength),
            None => c.strength.to_string(),
        }),
        column("copies", |c| c.copies.to_string()),
    ])
    .first_if(every_army, column("army", |c| c.army.clone()));
    show(json, "counters", list, &columns, "no counters")?;
    if !json && !list.is_empty() {
        outln!(
            "\n{} designs, {} counters (strength: full/reduced)",
            list.len(),
            list.iter().map(|c| usize::from(c.copies)).sum::<usize>()
        );
    }
    Ok(())
}

/// A map's edges, named edges, labels and the entries of its scenarios.
fn edges(json: bool, edges: &MapEdges) -> Result<(), String> {
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(edges).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    outln!("map `{}` ({})", edges.map, edges.system);
    if !edges.edges.is_empty() {
        outln!();
        Columns::new(vec![
            column("edge", |e: &EdgeHexes| e.edge.to_string()),
            column("enterable hexes", |e| e.hexes.join(" ")),
            column("impassable", |e| {
                if e.impassable.is_empty() {
                    "-".to_string()
                } else {
                    e.impassable.join(" ")
                }
            }),
        ])
        .print(&edges.edges, "");
    }
    if !edges.named_edges.is_empty() {
        outln!();
        Columns::new(vec![
            column("named edge", |e: &NamedEdgeEntry| e.name.clone()),
            column("side", |e| e.side.to_string()),
        ])
        .print(&edges.named_edges, "");
    }
    outln!();
    Columns::new(vec![
        column("label", |l: &LabelEntry| l.text.clone()),
        column("hex", |l| l.hex.clone()),
        column("on edge", |l| {
            let on: Vec<String> = l.edges.iter().map(ToString::to_string).collect();
            none_if_empty(&on)
        }),
    ])
    .print(&edges.labels, "no labels");
    outln!();
    Columns::new(vec![
        column("entries: scenario", |e: &EntryUse| e.scenario.clone()),
        column("side", |e| e.side.clone()),
        column("turn", |e| e.turn.to_string()),
        column("at", |e| e.at.join(" ")),
    ])
    .print(
        &edges.entries,
        "no scenario on this map brings units in during play",
    );
    Ok(())
}

/// A listing: `{"key": [...]}` in JSON, else aligned columns (`empty` when there is
/// no entry).
fn show<T: Serialize>(
    json: bool,
    key: &str,
    list: &[T],
    columns: &Columns<T>,
    empty: &str,
) -> Result<(), String> {
    if json {
        print_json(key, &list)
    } else {
        columns.print(list, empty);
        Ok(())
    }
}

/// One column of a listing: its header and how its cell is read from an entry.
struct Column<T> {
    header: &'static str,
    cell: fn(&T) -> String,
}

fn column<T>(header: &'static str, cell: fn(&T) -> String) -> Column<T> {
    Column { header, cell }
}

/// The columns of a listing, in order.
struct Columns<T>(Vec<Column<T>>);

impl<T> Columns<T> {
    fn new(columns: Vec<Column<T>>) -> Self {
        Columns(columns)
    }

    /// `column` first, when `shown` (a column the listing's filter would make the same
    /// on every row is left out).
    fn first_if(mut self, shown: bool, column: Column<T>) -> Self {
        if shown {
            self.0.insert(0, column);
        }
        self
    }

    /// One row per entry under the headers, or `empty` when there is no entry.
    fn print(&self, entries: &[T], empty: &str) {
        let headers: Vec<&str> = self.0.iter().map(|c| c.header).collect();
        let rows = (entries.iter())
            .map(|entry| self.0.iter().map(|c| (c.cell)(entry)).collect())
            .collect();
        table(&headers, rows, empty);
    }
}

fn print_json<T: Serialize>(key: &str, list: &T) -> Result<(), String> {
    let value = serde_json::json!({ key: list });
    outln!(
        "{}",
        serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?
    );
    Ok(())
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
