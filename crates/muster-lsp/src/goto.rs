//! Go to definition and find references.

use std::ops::Range;
use std::path::PathBuf;

use muster_db::Db;
use muster_db::load::Document;
use muster_db::place::Place as DocPlace;
use muster_model::FileKind;
use muster_syntax::{Node, NodeKind, Tree};

use crate::cursor::{self, Class};
use crate::hover::Cx;

/// A place in a file of the project: its path and byte span.
pub type Place = (PathBuf, Range<usize>);

fn place_in(db: &Db, file: usize, place: &DocPlace) -> Option<Place> {
    let f = &db.files[file].file;
    let found = f.find(place)?;
    Some((f.path.clone(), found.node.range()))
}

/// Where the thing a string names is defined.
pub fn definition(cx: &Cx, class: Class, value: &str) -> Option<Place> {
    let db = cx.db;
    match class {
        Class::FileRef(kind) => {
            let i = cx.resolve(value, kind)?;
            Some((db.files[i].file.path.clone(), 0..0))
        }
        Class::Counter | Class::CounterDef => {
            let (sheet, a, c, _, _) = cx.counter(value)?;
            place_in(db, sheet, &DocPlace::army_counter(a, c).field("id"))
        }
        Class::Army | Class::ArmyDef => {
            let sheet = cx.reference(FileKind::Counters)?;
            let Some(Document::Counters(s)) = db.doc(sheet) else {
                return None;
            };
            let a = s.armies.iter().position(|a| a.id == value)?;
            place_in(db, sheet, &DocPlace::army(a).field("id"))
        }
        Class::Side | Class::SideDef => {
            let index = cx.index?;
            let Some(Document::Scenario(s)) = db.doc(index) else {
                return None;
            };
            let i = s.sides.iter().position(|s| s.id == value)?;
            place_in(db, index, &DocPlace::side(i).field("id"))
        }
        Class::Terrain | Class::TerrainDef | Class::Feature | Class::FeatureDef => {
            let system = cx.reference(FileKind::System)?;
            let Some(Document::System(s)) = db.doc(system) else {
                return None;
            };
            let place = if matches!(class, Class::Terrain | Class::TerrainDef) {
                DocPlace::terrain(s.terrain.iter().position(|t| t.id == value)?)
            } else {
                DocPlace::hexside_feature(s.hexside_features.iter().position(|f| f.id == value)?)
            };
            place_in(db, system, &place.field("id"))
        }
        Class::UnitKind | Class::UnitKindDef => {
            let system = cx.reference(FileKind::System)?;
            let Some(Document::System(s)) = db.doc(system) else {
                return None;
            };
            let k = s.unit_kinds.iter().position(|k| k.id == value)?;
            place_in(db, system, &DocPlace::unit_kind(k).field("id"))
        }
        Class::Hex | Class::Hook => None,
    }
}

/// What references look for: one family of names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Counter,
    Side,
    Terrain,
}

pub fn family(class: Class) -> Option<(Family, bool)> {
    match class {
        Class::Counter => Some((Family::Counter, false)),
        Class::CounterDef => Some((Family::Counter, true)),
        Class::Side => Some((Family::Side, false)),
        Class::SideDef => Some((Family::Side, true)),
        Class::Terrain => Some((Family::Terrain, false)),
        Class::TerrainDef => Some((Family::Terrain, true)),
        _ => None,
    }
}

/// Every string node of a tree, in order.
pub fn strings(tree: &Tree) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![tree.root()];
    while let Some(n) = stack.pop() {
        if n.kind() == NodeKind::String {
            out.push(n);
        }
        let children: Vec<Node> = n.children().collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

/// The strings of file `index` that name `value` in `family` (with definitions when
/// `declarations`), at most `limit` of them: the search stops there, since each string
/// found costs its place in the document.
pub fn references_in(
    db: &Db,
    index: usize,
    family: Family,
    value: &str,
    declarations: bool,
    limit: usize,
) -> Vec<Place> {
    let loaded = &db.files[index];
    let Some(doc) = &loaded.doc else {
        return Vec::new();
    };
    let kind = doc.kind();
    let hooks = cursor::hook_refs_of(loaded);
    let tree = loaded.file.tree();
    strings(tree)
        .into_iter()
        .filter(|n| cursor::string_value(*n).as_deref() == Some(value))
        .filter(|n| {
            let place = cursor::place_of(kind, *n);
            cursor::classify(kind, &place.steps, &hooks)
                .and_then(family_of)
                .is_some_and(|(f, def)| f == family && (declarations || !def))
        })
        .take(limit)
        .map(|n| (loaded.file.path.clone(), n.range()))
        .collect()
}

fn family_of(class: Class) -> Option<(Family, bool)> {
    family(class)
}
