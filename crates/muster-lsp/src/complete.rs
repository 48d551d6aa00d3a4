//! Completion from the syntax tree and the schema at the cursor: field names, enum
//! variants, and the ids a string expects (counters of the side's own army, sides,
//! terrain, features, unit kinds, hooks, hexes of the map with their terrain).
//! Works on half-typed files: nothing here needs the document to read.

use std::path::Path;

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, InsertTextFormat,
    TextEdit,
};
use muster_db::Db;
use muster_db::load::Document;
use muster_db::project;
use muster_model::FileKind;
use muster_model::counters::CounterSheet;
use muster_model::system::RulesSystem;
use muster_syntax::{Node, NodeKind, TokenKind, Tree};
use serde_json::Value;

use crate::cursor::{self, Class, Place};
use crate::pos::Lines;

/// The files a document refers to, read from its tree.
struct Refs<'a> {
    system: Option<&'a RulesSystem>,
    sheet: Option<&'a CounterSheet>,
    map: Option<&'a muster_map::TerrainMap>,
}

fn top_string(tree: &Tree, field: &str) -> Option<String> {
    let value = tree.value()?.field(field)?.value?;
    let value = unwrap_some(value);
    cursor::string_value(value)
}

fn unwrap_some(node: Node<'_>) -> Node<'_> {
    if node.kind() == NodeKind::Tuple
        && node.name() == Some("Some")
        && let Some(inner) = node.child(0)
    {
        return inner;
    }
    node
}

fn resolve(db: &Db, dir: &Path, reference: &str, kind: FileKind) -> Option<usize> {
    if project::is_path_reference(reference) {
        return db.index_of(&dir.join(reference));
    }
    db.same_id(kind, reference).first().copied()
}

impl<'a> Refs<'a> {
    fn new(db: &'a Db, path: &Path, tree: &Tree, kind: FileKind) -> Self {
        let dir = path.parent().unwrap_or(Path::new("/"));
        let find = |field: &str, k: FileKind| {
            if kind == k {
                return db.index_of(path);
            }
            resolve(db, dir, &top_string(tree, field)?, k)
        };
        let system = find("system", FileKind::System).and_then(|i| match db.doc(i) {
            Some(Document::System(s)) => Some(s),
            _ => None,
        });
        let sheet = find("counters", FileKind::Counters).and_then(|i| match db.doc(i) {
            Some(Document::Counters(c)) => Some(c),
            _ => None,
        });
        let map = find("map", FileKind::Map).and_then(|i| db.terrain_map(i));
        Self { system, sheet, map }
    }
}

fn item(label: String, kind: CompletionItemKind, detail: Option<String>) -> CompletionItem {
    CompletionItem {
        label,
        kind: Some(kind),
        detail,
        ..CompletionItem::default()
    }
}

/// The army of the side a pointer lies under (`/sides/1/...`, or a reinforcement's
/// `side`), read from the tree.
fn side_army(tree: &Tree, steps: &[String]) -> Option<String> {
    let top = tree.value()?;
    let side_index: usize = match steps {
        [s, n, ..] if s == "sides" => n.parse().ok()?,
        [r, n, ..] if r == "reinforcements" => {
            let list = top.field("reinforcements")?.value?;
            let entry = list.child(n.parse().ok()?)?;
            let id = cursor::string_value(entry.field("side")?.value?)?;
            let sides = top.field("sides")?.value?;
            sides.children().position(|s| {
                s.field("id")
                    .and_then(|f| f.value)
                    .and_then(cursor::string_value)
                    .as_deref()
                    == Some(id.as_str())
            })?
        }
        _ => return None,
    };
    let side = top.field("sides")?.value?.child(side_index)?;
    cursor::string_value(unwrap_some(side.field("army")?.value?))
}

fn side_ids(tree: &Tree) -> Vec<(String, Option<String>)> {
    let Some(sides) = tree
        .value()
        .and_then(|v| v.field("sides"))
        .and_then(|f| f.value)
    else {
        return Vec::new();
    };
    sides
        .children()
        .filter_map(|s| {
            let id = cursor::string_value(s.field("id")?.value?)?;
            let name = s
                .field("name")
                .and_then(|f| f.value)
                .and_then(cursor::string_value);
            Some((id, name))
        })
        .collect()
}

/// The ids a string of class `class` may hold.
fn ids(db: &Db, refs: &Refs, tree: &Tree, class: Class, steps: &[String]) -> Vec<CompletionItem> {
    let system = refs.system;
    match class {
        Class::Counter => counter_ids(refs, tree, steps),
        Class::Side => side_ids(tree)
            .into_iter()
            .map(|(id, name)| item(id, CompletionItemKind::ENUM_MEMBER, name))
            .collect(),
        Class::Terrain => values(system.map(|s| &s.terrain), |t| (&t.id, &t.name)),
        Class::Feature => values(system.map(|s| &s.hexside_features), |f| (&f.id, &f.name)),
        Class::UnitKind => values(system.map(|s| &s.unit_kinds), |k| (&k.id, &k.name)),
        Class::Hook => muster_semantic::hooks::hooks_of(system)
            .into_iter()
            .map(|h| {
                item(
                    h.id.to_string(),
                    CompletionItemKind::FUNCTION,
                    Some(h.summary.to_string()),
                )
            })
            .collect(),
        Class::Army => values(refs.sheet.map(|s| &s.armies), |a| (&a.id, &a.name)),
        Class::Hex => values(refs.map.map(|m| &m.table().hexes), |h| (&h.id, &h.terrain)),
        Class::FileRef(kind) => db
            .files
            .iter()
            .filter_map(|l| l.doc.as_ref())
            .filter(|d| d.kind() == kind)
            .map(|d| item(d.id().to_string(), CompletionItemKind::FILE, None))
            .collect(),
        _ => Vec::new(),
    }
}

/// A value item per entry of `list` (none without the list), labelled with its id and
/// detailed with its name.
fn values<T>(
    list: Option<&Vec<T>>,
    id_name: impl Fn(&T) -> (&String, &String),
) -> Vec<CompletionItem> {
    list.into_iter()
        .flatten()
        .map(|entry| {
            let (id, name) = id_name(entry);
            item(id.clone(), CompletionItemKind::VALUE, Some(name.clone()))
        })
        .collect()
}

/// The counters of the side's army (of every army when the side is not known), with
/// their name, kind and strength.
fn counter_ids(refs: &Refs, tree: &Tree, steps: &[String]) -> Vec<CompletionItem> {
    let Some(sheet) = refs.sheet else {
        return Vec::new();
    };
    let army = side_army(tree, steps);
    let kind_name = |k: &str| {
        refs.system
            .and_then(|s| s.unit_kinds.iter().find(|u| u.id == k))
            .map_or(k.to_string(), |u| u.name.clone())
    };
    sheet
        .armies
        .iter()
        .filter(|a| army.as_deref().is_none_or(|id| a.id == id))
        .flat_map(|a| &a.counters)
        .map(|c| {
            item(
                c.id.clone(),
                CompletionItemKind::VALUE,
                Some(format!(
                    "{} — {}, strength {}",
                    c.name,
                    kind_name(&c.kind),
                    c.strength
                )),
            )
        })
        .collect()
}

/// The last significant token ending at or before `offset`, and whether an identifier
/// being typed touches the cursor (its start).
fn before(tree: &Tree, offset: usize) -> (Option<(TokenKind, usize, usize)>, Option<usize>) {
    let tokens: Vec<_> = tree
        .tokens()
        .filter(|t| {
            t.range.1 <= offset
                && !matches!(
                    t.kind,
                    TokenKind::Whitespace
                        | TokenKind::LineComment
                        | TokenKind::BlockComment
                        | TokenKind::Bom
                )
        })
        .collect();
    let mut last = tokens.last().map(|t| (t.kind, t.range.0, t.range.1));
    let mut word = None;
    if let Some((TokenKind::Ident, start, end)) = last
        && end == offset
    {
        word = Some(start);
        last = tokens
            .len()
            .checked_sub(2)
            .map(|i| (tokens[i].kind, tokens[i].range.0, tokens[i].range.1));
    }
    (last, word)
}

/// The innermost container (struct, tuple, list, map) around `offset`.
fn container(tree: &Tree, offset: usize) -> Option<Node<'_>> {
    let mut n = tree.node_at(offset);
    loop {
        if matches!(
            n.kind(),
            NodeKind::Struct | NodeKind::Tuple | NodeKind::List | NodeKind::Map
        ) {
            let r = n.range();
            if r.start < offset && (offset < r.end || n.close_range().is_none()) {
                return Some(n);
            }
        }
        n = n.parent()?;
    }
}

fn variant_items(place: &Place, schema: &'static Value) -> Vec<CompletionItem> {
    cursor::variants(place.root, schema)
        .into_iter()
        .map(|v| {
            let mut it = item(
                v.name.clone(),
                CompletionItemKind::ENUM_MEMBER,
                v.doc.map(|d| d.lines().next().unwrap_or("").to_string()),
            );
            if v.content.is_some() {
                it.insert_text = Some(format!("{}($0)", v.name));
                it.insert_text_format = Some(InsertTextFormat::SNIPPET);
            }
            it
        })
        .collect()
}

/// What completing in a document needs: the project, the files the document refers
/// to, its tree and its kind.
struct Doc<'a> {
    db: &'a Db,
    refs: Refs<'a>,
    tree: &'a Tree,
    kind: FileKind,
}

impl Doc<'_> {
    /// The ids a string at `steps` may hold, each written as a quoted string.
    fn quoted_ids(&self, steps: &[String]) -> Vec<CompletionItem> {
        let Some(class) = cursor::classify(self.kind, steps, &cursor::HookRefs::default()) else {
            return Vec::new();
        };
        ids(self.db, &self.refs, self.tree, class, steps)
            .into_iter()
            .map(|mut it| {
                it.insert_text = Some(format!("\"{}\"", it.label));
                it
            })
            .collect()
    }
}

/// The completions at `offset` of a document.
pub fn complete(db: &Db, path: &Path, text: &str, offset: usize) -> Vec<CompletionItem> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let tree = muster_syntax::parse(text, muster_syntax::Dialect::from_file_name(name));
    let Some(kind) = cursor::kind_of(&tree, name) else {
        return Vec::new();
    };
    let doc = Doc {
        db,
        refs: Refs::new(db, path, &tree, kind),
        tree: &tree,
        kind,
    };
    // Inside a string: the ids it may hold, replacing what is typed.
    if let Some(node) = cursor::string_at(&tree, offset)
        && node.range().start < offset
        && (offset < node.range().end || !node.text().ends_with('"') || node.text().len() == 1)
    {
        return in_string(&doc, path, node, &Lines::new(text));
    }
    let (last, word) = before(&tree, offset);
    let Some(outer) = container(&tree, word.unwrap_or(offset)) else {
        return Vec::new();
    };
    match last {
        // `field: |`: the values the field takes.
        Some((TokenKind::Colon, colon, _)) => field_values(&doc, colon),
        // `(` or `,` inside a struct: the fields not yet written.
        Some((TokenKind::LParen | TokenKind::Comma, _, _)) if outer.kind() != NodeKind::List => {
            unwritten_fields(&doc, outer, word.map(|w| &text[w..offset]))
        }
        // An element of a list: variants, or ids.
        Some((TokenKind::LBracket | TokenKind::Comma, _, _)) if outer.kind() == NodeKind::List => {
            list_elements(&doc, outer)
        }
        _ => Vec::new(),
    }
}

/// The ids the string `node` may hold (hook parameters too), each replacing the
/// string's text.
fn in_string(doc: &Doc, path: &Path, node: Node<'_>, lines: &Lines) -> Vec<CompletionItem> {
    let place = cursor::place_of(doc.kind, node);
    let hooks = match doc.db.index_of(path) {
        Some(i) => cursor::hook_refs_of(&doc.db.files[i]),
        None => std::sync::Arc::default(),
    };
    let Some(class) = cursor::classify(doc.kind, &place.steps, &hooks) else {
        return Vec::new();
    };
    let r = node.range();
    let closed = node.text().len() > 1 && node.text().ends_with('"');
    let inner = r.start + 1..if closed { r.end - 1 } else { r.end };
    let range = lines.range(&inner);
    ids(doc.db, &doc.refs, doc.tree, class, &place.steps)
        .into_iter()
        .map(|mut it| {
            it.text_edit = Some(CompletionTextEdit::Edit(TextEdit::new(
                range,
                it.label.clone(),
            )));
            it
        })
        .collect()
}

/// After `field:` (the colon at `colon`): the variants, booleans, `None` and ids the
/// field takes.
fn field_values(doc: &Doc, colon: usize) -> Vec<CompletionItem> {
    let key_node = doc.tree.node_at(colon.saturating_sub(1));
    let field = if key_node.kind() == NodeKind::Field {
        key_node
    } else {
        match key_node.parent() {
            Some(p) if p.kind() == NodeKind::Field => p,
            _ => return Vec::new(),
        }
    };
    let place = cursor::place_of(doc.kind, field);
    let Some(schema) = place.schema else {
        return Vec::new();
    };
    let mut out = variant_items(&place, schema);
    if schema.get("type").and_then(Value::as_str) == Some("boolean") {
        out.extend(
            ["true", "false"].map(|b| item(b.to_string(), CompletionItemKind::KEYWORD, None)),
        );
    }
    let nullable = schema
        .get("type")
        .and_then(Value::as_array)
        .is_some_and(|t| t.iter().any(|x| x == "null"));
    if nullable {
        out.push(item("None".to_string(), CompletionItemKind::KEYWORD, None));
    }
    out.extend(doc.quoted_ids(&place.steps));
    out
}

/// Inside the struct `outer`: the fields not yet written (and the one being typed,
/// `typed`), each marked required or optional.
fn unwritten_fields(doc: &Doc, outer: Node<'_>, typed: Option<&str>) -> Vec<CompletionItem> {
    let place = cursor::place_of(doc.kind, outer);
    let Some(mut schema) = place.schema else {
        return Vec::new();
    };
    if let Some(name) = outer.name()
        && let Some(v) = cursor::variants(place.root, schema)
            .into_iter()
            .find(|v| v.name == name)
    {
        let Some(content) = v.content else {
            return Vec::new();
        };
        schema = cursor::resolve(place.root, content);
    }
    let written: Vec<&str> = outer.fields().map(|(k, _)| k).collect();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    props
        .iter()
        .filter(|(k, _)| !written.contains(&k.as_str()) || Some(k.as_str()) == typed)
        .map(|(k, v)| {
            let v = cursor::resolve(place.root, v);
            let mut it = item(
                k.clone(),
                CompletionItemKind::FIELD,
                Some(
                    if required.contains(&k.as_str()) {
                        "required"
                    } else {
                        "optional"
                    }
                    .to_string(),
                ),
            );
            it.documentation = v
                .get("description")
                .and_then(Value::as_str)
                .map(|d| Documentation::String(d.to_string()));
            it.insert_text = Some(format!("{k}: "));
            it
        })
        .collect()
}

/// A new element of the list `outer`: the variants its items take, or ids.
fn list_elements(doc: &Doc, outer: Node<'_>) -> Vec<CompletionItem> {
    let place = cursor::place_of(doc.kind, outer);
    let Some(list) = place.schema else {
        return Vec::new();
    };
    let Some(items) = list.get("items") else {
        return Vec::new();
    };
    let items = cursor::resolve(place.root, items);
    let mut out = variant_items(&place, items);
    let mut steps = place.steps.clone();
    steps.push(outer.child_count_public().to_string());
    out.extend(doc.quoted_ids(&steps));
    out
}

trait ChildCount {
    fn child_count_public(&self) -> usize;
}

impl ChildCount for Node<'_> {
    fn child_count_public(&self) -> usize {
        self.children().len()
    }
}
