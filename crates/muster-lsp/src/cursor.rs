//! What is under the cursor: the node of the syntax tree at an offset, its JSON-pointer
//! path in the serde layout of the document (found by walking the tree from the top
//! down alongside the kind's JSON Schema, so it works on half-typed files too), the
//! schema that applies there, and what the string means (a counter, a hex, a side...).

use std::collections::HashMap;
use std::sync::OnceLock;

use muster_db::place::{Place as DocPlace, Step};
use muster_model::FileKind;
use muster_syntax::{Node, NodeKind, Tree};
use serde_json::Value;

/// What a string value names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// A reference to another file by id or path (`system`, `counters`, `map`).
    FileRef(FileKind),
    Counter,
    /// The `id` of a counter in a counter sheet.
    CounterDef,
    Army,
    ArmyDef,
    Side,
    /// The `id` of a side in a scenario.
    SideDef,
    Hex,
    Terrain,
    TerrainDef,
    Feature,
    FeatureDef,
    UnitKind,
    UnitKindDef,
    Hook,
}

/// The place of a node: its pointer steps and the schema of the value there.
#[derive(Debug, Clone)]
pub struct Place {
    pub steps: Vec<String>,
    /// The schema of the value at the node, resolved through `$ref` and `Option`;
    /// `None` where the schema says nothing.
    pub schema: Option<&'static Value>,
    /// The root schema the `$ref`s of `schema` point into.
    pub root: &'static Value,
}

impl Place {
    pub fn pointer(&self) -> String {
        self.steps
            .iter()
            .map(|s| format!("/{}", s.replace('~', "~0").replace('/', "~1")))
            .collect()
    }
}

/// The schema of a file kind (generated once).
pub fn schema_of(kind: FileKind) -> &'static Value {
    static SCHEMAS: OnceLock<Vec<(FileKind, Value)>> = OnceLock::new();
    let all = SCHEMAS.get_or_init(|| {
        FileKind::ALL
            .into_iter()
            .map(|k| (k, muster_db::schema::schema_of(k)))
            .collect()
    });
    all.iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, s)| s)
        .unwrap_or(&Value::Null)
}

/// The parameter schema of a hook (generated once).
pub fn hook_schema_of(id: &str) -> Option<&'static Value> {
    static SCHEMAS: OnceLock<HashMap<&'static str, Value>> = OnceLock::new();
    SCHEMAS
        .get_or_init(|| {
            muster_semantic::hooks::HOOKS
                .iter()
                .map(|h| (h.id, h.schema()))
                .collect()
        })
        .get(id)
}

/// Follows `$ref`s (into `root`'s `$defs`) and unwraps `Option` (`anyOf` with null).
pub fn resolve<'v>(root: &'v Value, mut schema: &'v Value) -> &'v Value {
    for _ in 0..32 {
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            let Some(name) = r.strip_prefix("#/$defs/") else {
                return schema;
            };
            match root.get("$defs").and_then(|d| d.get(name)) {
                Some(s) => {
                    schema = s;
                    continue;
                }
                None => return schema,
            }
        }
        if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
            let non_null: Vec<&Value> = branches
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) != Some("null"))
                .collect();
            if let [one] = non_null.as_slice()
                && non_null.len() < branches.len()
            {
                schema = one;
                continue;
            }
        }
        return schema;
    }
    schema
}

/// A variant of an externally tagged enum: its name, its content's schema (`None` for
/// a unit variant) and its description.
#[derive(Debug, Clone)]
pub struct Variant<'v> {
    pub name: String,
    pub content: Option<&'v Value>,
    pub doc: Option<&'v str>,
}

/// The variants of an enum schema (`oneOf` of tagged objects, string enums, consts).
pub fn variants<'v>(root: &'v Value, schema: &'v Value) -> Vec<Variant<'v>> {
    let schema = resolve(root, schema);
    let mut out = Vec::new();
    let branches = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
        .map(|b| b.iter().collect::<Vec<_>>())
        .unwrap_or_else(|| vec![schema]);
    for b in branches {
        let b = resolve(root, b);
        let doc = b.get("description").and_then(Value::as_str);
        if let Some(names) = b.get("enum").and_then(Value::as_array) {
            for n in names.iter().filter_map(Value::as_str) {
                out.push(Variant {
                    name: n.to_string(),
                    content: None,
                    doc,
                });
            }
        } else if let Some(n) = b.get("const").and_then(Value::as_str) {
            out.push(Variant {
                name: n.to_string(),
                content: None,
                doc,
            });
        } else if let (Some(props), Some(required)) = (
            b.get("properties").and_then(Value::as_object),
            b.get("required").and_then(Value::as_array),
        ) && props.len() == 1
            && required.len() == 1
            && b.get("oneOf").is_none()
        {
            // A tagged object is a variant only inside a `oneOf`: a plain struct with one
            // required field is not.
            if std::ptr::eq(b, schema) {
                continue;
            }
            if let Some((name, content)) = props.iter().next() {
                out.push(Variant {
                    name: name.clone(),
                    content: Some(content),
                    doc,
                });
            }
        }
    }
    out
}

/// The schema of property `key` of an object schema.
pub fn property<'v>(root: &'v Value, schema: &'v Value, key: &str) -> Option<&'v Value> {
    let schema = resolve(root, schema);
    if let Some(p) = schema.get("properties").and_then(|p| p.get(key)) {
        return Some(p);
    }
    match schema.get("additionalProperties") {
        Some(Value::Bool(false)) | None => None,
        Some(other) => Some(other),
    }
}

/// The schema of element `index` of an array schema.
fn element<'v>(root: &'v Value, schema: &'v Value, index: usize) -> Option<&'v Value> {
    let schema = resolve(root, schema);
    if let Some(items) = schema.get("prefixItems").and_then(Value::as_array) {
        return items.get(index);
    }
    schema.get("items")
}

fn is_tuple(root: &Value, schema: &Value) -> bool {
    resolve(root, schema).get("prefixItems").is_some()
}

/// The text of a string node, unquoted (RON and JSON escapes read as JSON's).
pub fn string_value(node: Node<'_>) -> Option<String> {
    if node.kind() != NodeKind::String {
        return None;
    }
    let text = node.text();
    if let Ok(s) = serde_json::from_str::<String>(text) {
        return Some(s);
    }
    let inner = text.strip_prefix('"')?;
    Some(inner.strip_suffix('"').unwrap_or(inner).to_string())
}

/// The chain of nodes from the top-level value down to `node`.
fn chain(node: Node<'_>) -> Vec<Node<'_>> {
    let mut out = vec![node];
    let mut at = node;
    while let Some(p) = at.parent() {
        if p.kind() == NodeKind::Document {
            break;
        }
        out.push(p);
        at = p;
    }
    out.reverse();
    out
}

/// The `hook` named beside a `params` field (a special rule), for the hook's schema.
fn hook_schema(field: Node<'_>) -> Option<&'static Value> {
    let rule = field.parent()?;
    let hook = rule.field("hook")?.value?;
    hook_schema_of(&string_value(hook)?)
}

/// The place of `node` in a document of `kind`.
pub fn place_of(kind: FileKind, node: Node<'_>) -> Place {
    let mut root: &'static Value = schema_of(kind);
    let nodes = chain(node);
    let mut steps: Vec<String> = Vec::new();
    // The schema of the value node being walked.
    let mut schema: Option<&'static Value> = Some(root);
    let mut i = 0;
    while i + 1 < nodes.len() {
        let (value, next) = (nodes[i], nodes[i + 1]);
        let r = root;
        let current = schema.map(|s| resolve(r, s));
        // A name on a struct or tuple may be an enum variant (`Placed(...)`), `Some`,
        // or the type's own name (`Scenario(...)`).
        let mut inner = current;
        let mut newtype = false;
        if let (Some(name), Some(s)) = (value.name(), current)
            && matches!(value.kind(), NodeKind::Struct | NodeKind::Tuple)
        {
            if let Some(v) = variants(r, s).into_iter().find(|v| v.name == name) {
                steps.push(name.to_string());
                inner = v.content.map(|c| resolve(r, c));
                newtype = value.kind() == NodeKind::Tuple && !inner.is_some_and(|c| is_tuple(r, c));
            } else if name == "Some" && value.kind() == NodeKind::Tuple {
                newtype = true;
            }
        }
        match (value.kind(), next.kind()) {
            (NodeKind::Struct, NodeKind::Field) => {
                let key = next.name().unwrap_or_default().to_string();
                steps.push(key.clone());
                schema = if key == "params" && kind == FileKind::Scenario {
                    let h = hook_schema(next);
                    if let Some(h) = h {
                        root = h;
                    }
                    h
                } else {
                    inner.and_then(|s| property(r, s, &key))
                };
                // Through the field to its value.
                i += 2;
                continue;
            }
            (NodeKind::Map, NodeKind::Entry) => {
                let key_node = next.child(0);
                if nodes.get(i + 2).copied() == key_node {
                    // The cursor is on the key: the place is the map's.
                    schema = inner;
                    break;
                }
                let key = key_node.and_then(string_value).unwrap_or_default();
                steps.push(key.clone());
                schema = if key == "params" && kind == FileKind::Scenario {
                    let h = hook_schema_in_map(value);
                    if let Some(h) = h {
                        root = h;
                    }
                    h
                } else {
                    inner.and_then(|s| {
                        property(r, s, &key).or_else(|| {
                            // JSON's externally tagged enums: `{"Placed": {...}}`.
                            variants(r, s)
                                .into_iter()
                                .find(|v| v.name == key)
                                .and_then(|v| v.content)
                        })
                    })
                };
                i += 2;
                continue;
            }
            (NodeKind::Tuple, _) => {
                let index = next.index_in_parent().unwrap_or(0);
                if newtype {
                    schema = inner;
                } else {
                    steps.push(index.to_string());
                    schema = inner.and_then(|s| element(r, s, index));
                }
            }
            (NodeKind::List, _) => {
                let index = next.index_in_parent().unwrap_or(0);
                steps.push(index.to_string());
                schema = inner.and_then(|s| element(r, s, index));
            }
            _ => {
                schema = None;
            }
        }
        i += 1;
    }
    let schema = schema.map(|s| resolve(root, s));
    Place {
        steps,
        schema,
        root,
    }
}

/// In JSON, the `hook` entry of the object holding `params`.
fn hook_schema_in_map(object: Node<'_>) -> Option<&'static Value> {
    let hook = object.field("hook")?.value?;
    hook_schema_of(&string_value(hook)?)
}

/// What a string at `steps` in a file of `kind` names, by the model's field names.
/// Hook parameters are classified by the hooks' own references (`hook_refs`).
pub fn classify(kind: FileKind, steps: &[String], hook_refs: &HookRefs) -> Option<Class> {
    if let Some(c) = hook_refs.get(steps) {
        return Some(c);
    }
    let s: Vec<&str> = steps.iter().map(String::as_str).collect();
    let num = |x: &str| x.parse::<usize>().is_ok();
    let class = match kind {
        FileKind::Scenario => match s.as_slice() {
            ["system"] => Class::FileRef(FileKind::System),
            ["counters"] => Class::FileRef(FileKind::Counters),
            ["map"] => Class::FileRef(FileKind::Map),
            ["sides", n, "id"] if num(n) => Class::SideDef,
            ["sides" | "neutrals", n, "army"] if num(n) => Class::Army,
            ["deploys_first"] | ["plays_first"] => Class::Side,
            ["special_rules", n, "hook"] if num(n) => Class::Hook,
            ["special_rules", ..] => return None,
            [.., "side"] | [.., "Wins"] => Class::Side,
            [.., "counter"] => Class::Counter,
            [.., "ShiftOnEliminations", "counters", n] if num(n) => Class::Counter,
            [.., "Hexes" | "Range" | "List", n] if num(n) => Class::Hex,
            [.., "Spaced", "from" | "to"] | [.., "Zone", "center"] => Class::Hex,
            ["reinforcements", _, "entry", n] if num(n) => Class::Hex,
            [.., "sample", _, "hex"] | [.., "ControlHex", "hex"] => Class::Hex,
            ["terrain_modifications", _, "Ignore" | "IgnoreAllExcept", n] if num(n) => {
                Class::Terrain
            }
            [.., "OnUnit", "kind"] | [.., "units", _, "kind"] | [.., "Escort", "kind"] => {
                Class::UnitKind
            }
            _ => return None,
        },
        FileKind::Counters => match s.as_slice() {
            ["system"] => Class::FileRef(FileKind::System),
            ["armies", n, "id"] if num(n) => Class::ArmyDef,
            ["armies", _, "counters", n, "id"] if num(n) => Class::CounterDef,
            ["armies", _, "counters", _, "kind"] => Class::UnitKind,
            _ => return None,
        },
        FileKind::System => match s.as_slice() {
            ["terrain", n, "id"] if num(n) => Class::TerrainDef,
            ["hexside_features", n, "id"] if num(n) => Class::FeatureDef,
            ["unit_kinds", n, "id"] if num(n) => Class::UnitKindDef,
            _ => return None,
        },
        FileKind::Map => match s.as_slice() {
            ["system"] => Class::FileRef(FileKind::System),
            ["base"] | [.., "Terrain" | "AddTerrain", "terrain"] => Class::Terrain,
            ["overlays", _, "Path" | "Hexsides", "feature"] => Class::Feature,
            ["overlays", _, "Path" | "Flow", "hexes", n] if num(n) => Class::Hex,
            ["overlays", _, "Hexsides", "sides", _, "0" | "1"] => Class::Hex,
            ["overlays", _, "Access", "hex"] | ["overlays", _, "Label", "hex"] => Class::Hex,
            ["overlays", _, "Access", "from", n] if num(n) => Class::Hex,
            [.., "area", "Range" | "List", n] if num(n) => Class::Hex,
            [.., "area", "Zone", "center"] => Class::Hex,
            _ => return None,
        },
    };
    Some(class)
}

/// The last step of a listed hook parameter's key in [`HookRefs`]: any item of the list.
const ANY_ITEM: &str = "#";

/// The classes of hook parameters by place, keyed by the steps as written in a file (a
/// list position as its number; a listed parameter once, its items as [`ANY_ITEM`]): one
/// look-up per string asked about, where a file with many hook references and many
/// strings would otherwise compare every pair, and a parameter listing a million hexes
/// is one entry.
#[derive(Debug, Default)]
pub struct HookRefs(std::collections::HashMap<Vec<String>, Class>);

impl HookRefs {
    /// The class of the hook parameter at `steps`, if a hook declares one there.
    pub fn get(&self, steps: &[String]) -> Option<Class> {
        if let Some(class) = self.0.get(steps) {
            return Some(*class);
        }
        // An item of a listed parameter: every item of the list has the list's class.
        let (last, list) = steps.split_last()?;
        last.parse::<u32>().ok()?;
        let mut any_item = list.to_vec();
        any_item.push(ANY_ITEM.to_string());
        self.0.get(&any_item).copied()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<(DocPlace, Class)> for HookRefs {
    fn from_iter<I: IntoIterator<Item = (DocPlace, Class)>>(iter: I) -> Self {
        let mut map = std::collections::HashMap::new();
        for (place, class) in iter {
            let steps = place.steps().into_iter().map(step_text).collect();
            // The first hook to declare a place decides its class, as before.
            map.entry(steps).or_insert(class);
        }
        HookRefs(map)
    }
}

/// A step as a file writes it (a list position as its number).
fn step_text(step: &Step) -> String {
    match step {
        Step::Field(name) => (*name).to_string(),
        Step::Key(key) => key.to_string(),
        Step::Index(i) => i.to_string(),
    }
}

thread_local! {
    static HOOK_REFS_WORKED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many times this thread worked out a scenario's [`hook_refs`] (parsing every
/// hook's parameters): a work counter for tests.
pub fn hook_refs_worked() -> usize {
    HOOK_REFS_WORKED.with(|n| n.get())
}

/// [`hook_refs`] of the scenario a loaded file holds, worked out once per loaded file:
/// hover, completion, go-to and references each ask, and a hook whose parameters list
/// thousands of names was parsed again for every request. The cache keeps the last few
/// files by identity (a weak reference keeps the allocation, so the address of a live
/// file is never another's); a file of other text is another file.
pub fn hook_refs_of(loaded: &muster_db::load::Loaded) -> std::sync::Arc<HookRefs> {
    use std::sync::{Arc, Mutex, Weak};
    type Seen = Vec<(Weak<muster_db::source::SourceFile>, Arc<HookRefs>)>;
    static SEEN: Mutex<Seen> = Mutex::new(Vec::new());
    const KEPT: usize = 64;
    let Some(muster_db::load::Document::Scenario(scenario)) = &loaded.doc else {
        return Arc::new(HookRefs::default());
    };
    let file = Arc::downgrade(&loaded.file);
    let mut seen = SEEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    seen.retain(|(f, _)| f.strong_count() > 0);
    if let Some((_, refs)) = seen.iter().find(|(f, _)| Weak::ptr_eq(f, &file)) {
        return Arc::clone(refs);
    }
    HOOK_REFS_WORKED.with(|n| n.set(n.get() + 1));
    let refs = Arc::new(hook_refs(scenario));
    if seen.len() >= KEPT {
        seen.remove(0);
    }
    seen.push((file, Arc::clone(&refs)));
    refs
}

/// The hook parameters of a scenario that name counters, sides, terrain, hexes or unit
/// kinds, by place (from the hooks' own declarations of their references).
pub fn hook_refs(scenario: &muster_model::scenario::Scenario) -> HookRefs {
    use muster_semantic::hooks::RefKind;
    let mut map = std::collections::HashMap::new();
    for hook in muster_semantic::hooks::parse_rules(&scenario.special_rules) {
        // A parameter is one value or a list of values of one class (`Refs`): a list is
        // entered once, for any of its items.
        // Only the first item of a list is looked at, without allocating for the others:
        // a parameter may list hundreds of thousands.
        let references = hook.references();
        let mut lists = std::collections::HashSet::new();
        for r in &references {
            let class = match r.kind {
                RefKind::Counter { .. } => Class::Counter,
                RefKind::Side(_) => Class::Side,
                RefKind::Terrain(_) => Class::Terrain,
                RefKind::Hex(_) => Class::Hex,
                RefKind::UnitKind(_) => Class::UnitKind,
            };
            let item = r.index.is_some();
            if item && !lists.insert(r.key) {
                continue;
            }
            let mut steps: Vec<String> = hook
                .place_of(r)
                .steps()
                .into_iter()
                .map(step_text)
                .collect();
            if item && let Some(last) = steps.last_mut() {
                *last = ANY_ITEM.to_string();
            }
            // The first hook to declare a place decides its class, as before.
            map.entry(steps).or_insert(class);
        }
    }
    HookRefs(map)
}

/// The schema's description of the name at `offset`: an enum variant (`Defending`,
/// `AllAttackersAcross(...)`) or a field name, with the name's range. This is how every
/// condition and effect of the rules vocabulary explains itself on hover.
pub fn doc_at(
    kind: FileKind,
    tree: &Tree,
    offset: usize,
) -> Option<(String, std::ops::Range<usize>)> {
    let node = tree.node_at(offset);
    let name = node.name()?;
    let range = node.name_range()?;
    if !range.contains(&offset) && range.end != offset {
        return None;
    }
    let place = place_of(kind, node);
    let doc = match node.kind() {
        NodeKind::Field => {
            let outer = place_of(kind, node.parent()?);
            let schema = property(outer.root, outer.schema?, name)?;
            schema
                .get("description")
                .or_else(|| resolve(outer.root, schema).get("description"))?
                .as_str()?
                .to_string()
        }
        _ => {
            let v = variants(place.root, place.schema?)
                .into_iter()
                .find(|v| v.name == name)?;
            v.doc?.to_string()
        }
    };
    Some((format!("**{name}**\n\n{doc}"), range))
}

/// The string node at `offset` (or just before it: a cursor after the closing quote).
pub fn string_at(tree: &Tree, offset: usize) -> Option<Node<'_>> {
    let here = tree.node_at(offset);
    if here.kind() == NodeKind::String {
        return Some(here);
    }
    let before = tree.node_at(offset.checked_sub(1)?);
    (before.kind() == NodeKind::String).then_some(before)
}

/// The kind of a file: from the top-level name of a RON file, else its file name.
pub fn kind_of(tree: &Tree, file_name: &str) -> Option<FileKind> {
    if let Some(name) = tree.value().and_then(|v| v.name())
        && let Some(kind) = FileKind::ALL.into_iter().find(|k| k.tag() == name)
    {
        return Some(kind);
    }
    FileKind::from_file_name(file_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENARIO: &str = r#"Scenario(
    id: "x",
    system: "lrf",
    map: "jengland",
    sides: [
        (
            id: "franks",
            army: Some("jengland-franks"),
            morale_threshold: Some(Fixed(18)),
            forces: Placed(setup: [
                (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
                (units: [(counter: "ecuyers", count: 1)], at: OnUnit(kind: Some("cavalry"))),
                (units: [(counter: "x", count: 1)], at: Spaced(from: "0101", to: "0105")),
            ]),
        ),
    ],
    reinforcements: [(side: "franks", turn: 2, units: [], entry: ["0101"])],
    special_rules: [(hook: "evasion", params: {"counters": ["saxe"]}, text: "")],
    victory: [Otherwise(side: "franks", level: Minor)],
)"#;

    fn at(text: &str, needle: &str, nth: usize) -> (String, Option<Class>) {
        let tree = muster_syntax::parse_ron(text);
        let offset = text.match_indices(needle).nth(nth).unwrap().0 + 1;
        let node = string_at(&tree, offset).unwrap();
        let place = place_of(FileKind::Scenario, node);
        (
            place.pointer(),
            classify(FileKind::Scenario, &place.steps, &HookRefs::default()),
        )
    }

    #[test]
    fn finds_the_pointer_and_class_of_strings() {
        assert_eq!(
            at(SCENARIO, "\"saxe\"", 0),
            (
                "/sides/0/forces/Placed/setup/0/units/0/counter".to_string(),
                Some(Class::Counter)
            )
        );
        assert_eq!(
            at(SCENARIO, "\"1004\"", 0),
            (
                "/sides/0/forces/Placed/setup/0/at/Hexes/1".to_string(),
                Some(Class::Hex)
            )
        );
        assert_eq!(
            at(SCENARIO, "\"cavalry\"", 0),
            (
                "/sides/0/forces/Placed/setup/1/at/OnUnit/kind".to_string(),
                Some(Class::UnitKind)
            )
        );
        assert_eq!(
            at(SCENARIO, "\"0105\"", 0).0,
            "/sides/0/forces/Placed/setup/2/at/Spaced/to"
        );
        assert_eq!(at(SCENARIO, "\"franks\"", 0).1, Some(Class::SideDef));
        assert_eq!(
            at(SCENARIO, "\"franks\"", 1),
            ("/reinforcements/0/side".to_string(), Some(Class::Side))
        );
        assert_eq!(at(SCENARIO, "\"0101\"", 1).1, Some(Class::Hex));
        assert_eq!(
            at(SCENARIO, "\"jengland-franks\"", 0),
            ("/sides/0/army".to_string(), Some(Class::Army))
        );
        assert_eq!(
            at(SCENARIO, "\"jengland\"", 0),
            ("/map".to_string(), Some(Class::FileRef(FileKind::Map)))
        );
        assert_eq!(at(SCENARIO, "\"evasion\"", 0).1, Some(Class::Hook));
        // Hook parameters: the pointer through the params map, classified by the hook.
        let (pointer, class) = at(SCENARIO, "\"saxe\"", 1);
        assert_eq!(pointer, "/special_rules/0/params/counters/0");
        assert_eq!(class, None);
        let params = DocPlace::hook_params(0);
        let refs: HookRefs = [(params.field("counters").index(0), Class::Counter)]
            .into_iter()
            .collect();
        let steps: Vec<String> = pointer[1..].split('/').map(String::from).collect();
        assert_eq!(
            classify(FileKind::Scenario, &steps, &refs),
            Some(Class::Counter)
        );
        assert_eq!(
            at(SCENARIO, "\"franks\"", 2),
            ("/victory/0/Otherwise/side".to_string(), Some(Class::Side))
        );
    }

    #[test]
    fn works_in_a_half_typed_file() {
        let cut = &SCENARIO[..SCENARIO.find("\"1004\"").unwrap() + 3];
        let tree = muster_syntax::parse_ron(cut);
        let node = string_at(&tree, cut.len()).unwrap();
        let place = place_of(FileKind::Scenario, node);
        assert_eq!(place.pointer(), "/sides/0/forces/Placed/setup/0/at/Hexes/1");
        assert_eq!(
            place.schema.and_then(|s| s.get("type")),
            Some(&Value::String("string".into()))
        );
    }

    #[test]
    fn pointers_match_the_readers_own_records_over_the_bundled_data() {
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let files = muster_db::project::project_files(&repo);
        let mut strings = 0;
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let dialect = muster_syntax::Dialect::from_file_name(&name);
            let tree = muster_syntax::parse(&text, dialect);
            let Some(kind) = kind_of(&tree, &name) else {
                continue;
            };
            let index = match kind {
                FileKind::Scenario => {
                    muster_syntax::from_tree_with_spans::<muster_model::scenario::Scenario>(&tree).1
                }
                FileKind::Map => {
                    muster_syntax::from_tree_with_spans::<muster_model::map::MapSource>(&tree).1
                }
                FileKind::Counters => {
                    muster_syntax::from_tree_with_spans::<muster_model::counters::CounterSheet>(
                        &tree,
                    )
                    .1
                }
                FileKind::System => {
                    muster_syntax::from_tree_with_spans::<muster_model::system::RulesSystem>(&tree)
                        .1
                }
            };
            for (pointer, node) in index.iter() {
                if node.kind() != NodeKind::String {
                    continue;
                }
                strings += 1;
                assert_eq!(
                    place_of(kind, node).pointer(),
                    pointer,
                    "{name} at {:?}",
                    node.range()
                );
            }
        }
        assert!(strings > 1000, "{strings}");
    }
}
