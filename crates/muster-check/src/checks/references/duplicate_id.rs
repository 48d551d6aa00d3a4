use std::collections::HashMap;

use muster_db::declare_check;
use muster_db::load::Document;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Reports an id used twice where ids must be unique: two files of the same kind in
    /// the project, two armies or two counters in one army of a counter sheet, two sides
    /// of a scenario, two unit kinds or terrain types of a system.
    ///
    /// ## Why is this bad?
    /// References by id would silently pick one of the two.
    ///
    /// ## Example
    /// ```ron
    /// (id: "saxe", name: "Saxe", kind: "infantry", strength: 3, reduced: 2, movement: 2.0),
    /// (id: "saxe", name: "Saxe (second)", kind: "infantry", strength: 3, reduced: 2, movement: 2.0),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// // one counter, two copies
    /// (id: "saxe", name: "Saxe", kind: "infantry", strength: 3, reduced: 2, movement: 2.0, count: 2),
    /// ```
    pub META = ("references::duplicate-id", Error, "an id is defined twice");
}

fn dupes<'a>(sink: &mut Sink, what: &str, items: impl Iterator<Item = (Place, &'a str)>) {
    let mut seen: HashMap<&str, Place> = HashMap::new();
    for (place, id) in items {
        if let Some(first) = seen.get(id) {
            sink.push(
                Report::new(&META, place, format!("{what} `{id}` is defined twice"))
                    .label(Loc::Value(first.clone()), "first defined here")
                    .help("give each one its own id"),
            );
        } else {
            seen.insert(id, place);
        }
    }
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let others: Vec<String> = cx
        .db
        .files_with_id(cx.doc.kind(), cx.doc.id())
        .into_iter()
        .filter(|name| *name != cx.db.files[cx.index].file.name)
        .collect();
    if !others.is_empty() {
        sink.push(
            Report::new(
                &META,
                Place::top("id"),
                format!(
                    "{} id `{}` is also used by {}",
                    cx.doc.kind().name(),
                    cx.doc.id(),
                    others.join(", ")
                ),
            )
            .help("ids of files of one kind must be unique in a project"),
        );
    }
    match cx.doc {
        Document::Counters(sheet) => {
            dupes(
                sink,
                "army",
                sheet
                    .armies
                    .iter()
                    .enumerate()
                    .map(|(i, a)| (Place::army(i).field("id"), a.id.as_str())),
            );
            for (i, army) in sheet.armies.iter().enumerate() {
                dupes(
                    sink,
                    "counter",
                    army.counters
                        .iter()
                        .enumerate()
                        .map(|(j, c)| (Place::army_counter(i, j).field("id"), c.id.as_str())),
                );
            }
        }
        Document::Scenario(s) => {
            dupes(
                sink,
                "side",
                s.sides
                    .iter()
                    .enumerate()
                    .map(|(i, x)| (Place::side(i).field("id"), x.id.as_str())),
            );
        }
        Document::System(sys) => {
            dupes(
                sink,
                "unit kind",
                sys.unit_kinds
                    .iter()
                    .enumerate()
                    .map(|(i, x)| (Place::unit_kind(i).field("id"), x.id.as_str())),
            );
            dupes(
                sink,
                "terrain",
                sys.terrain
                    .iter()
                    .enumerate()
                    .map(|(i, x)| (Place::terrain(i).field("id"), x.id.as_str())),
            );
            dupes(
                sink,
                "hexside feature",
                sys.hexside_features
                    .iter()
                    .enumerate()
                    .map(|(i, x)| (Place::hexside_feature(i).field("id"), x.id.as_str())),
            );
        }
        Document::Map(_) => {}
    }
}
