//! The fidelity maps (`docs/fidelity/<system>.md`) say, rule by rule, where the data
//! encodes each rule of a rulebook. Every place they name must exist: a file of the
//! repository, a JSON pointer into a data file's typed document (as muster's loader reads
//! it), a check code of the registry, or a hook of the document's system. The syntax is
//! described in `docs/fidelity/README.md`.

use std::collections::HashMap;
use std::path::PathBuf;

use muster_testkit::repo;

use muster_check::registry::REGISTRY;
use muster_db::load::{Document, load_path};
use muster_semantic::hooks;
use serde_json::Value;

/// The systems that must have a fidelity map, and the defects each map's "Known defects
/// of the source text" section must name (matched case-insensitively).
const REQUIRED: [(&str, &[&str]); 4] = [
    ("lrf", &[]),
    ("prestags", &["7.4", "6.4", "hattin", "sea hexes"]),
    (
        "cdg",
        &["turn sequence", "supporting units", "trap sequence"],
    ),
    ("raid", &[]),
];

const DEFECTS_HEADING: &str = "## Known defects of the source text";

/// The header of a fidelity table.
const HEADER: [&str; 4] = ["Rule", "Title", "Encoded at", "Notes"];

/// The folders a path place may start with; a backticked span starting with one of them
/// anywhere in a document is taken to be a place and checked.
const ROOTS: [&str; 5] = ["scenarios", "maps", "crates", "docs", "schema"];

/// A place a fidelity map names.
#[derive(Debug, Clone, PartialEq)]
enum Place {
    /// A file of the repository, or a folder when it ends with `/`.
    File(String),
    /// A JSON pointer into the typed document of a data file.
    Pointer { path: String, pointer: String },
    /// A check code.
    Check(String),
    /// A special-rule hook id.
    Hook(String),
}

/// Whether a backticked span has the shape of a place (and so must be one).
fn looks_like_place(span: &str) -> bool {
    span.starts_with("check:")
        || span.starts_with("hook:")
        || span
            .split(['/', '#'])
            .next()
            .is_some_and(|first| ROOTS.contains(&first) && span.contains('/'))
}

fn parse_place(span: &str) -> Result<Place, String> {
    if let Some(code) = span.strip_prefix("check:") {
        return match code.split_once("::") {
            Some((group, name)) if !group.is_empty() && !name.is_empty() => {
                Ok(Place::Check(code.to_string()))
            }
            _ => Err(format!("`{span}`: a check code is `group::name`")),
        };
    }
    if let Some(id) = span.strip_prefix("hook:") {
        return if id.is_empty() || id.contains(char::is_whitespace) {
            Err(format!("`{span}`: a hook id has no spaces"))
        } else {
            Ok(Place::Hook(id.to_string()))
        };
    }
    let (path, pointer) = match span.split_once('#') {
        Some((path, pointer)) => (path, Some(pointer)),
        None => (span, None),
    };
    let folders = path.strip_suffix('/').unwrap_or(path);
    let plain = !path.contains('\\')
        && !path.contains(char::is_whitespace)
        && folders
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != "..");
    if !plain {
        return Err(format!(
            "`{span}`: a path is relative to the repository root, `/`-separated, without `.`, `..` or spaces"
        ));
    }
    match pointer {
        None => Ok(Place::File(path.to_string())),
        Some(_) if path.ends_with('/') => Err(format!("`{span}`: a folder has no pointer")),
        Some(p) if p.is_empty() || p.starts_with('/') => Ok(Place::Pointer {
            path: path.to_string(),
            pointer: p.to_string(),
        }),
        Some(_) => Err(format!("`{span}`: a pointer after `#` starts with `/`")),
    }
}

/// The backticked spans of a line, with the text between them.
fn spans(line: &str) -> (Vec<&str>, String) {
    let mut found = Vec::new();
    let mut outside = String::new();
    let mut rest = line;
    while let Some(open) = rest.find('`') {
        outside.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('`') {
            Some(close) => {
                found.push(&after[..close]);
                rest = &after[close + 1..];
            }
            None => {
                outside.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    outside.push_str(rest);
    (found, outside)
}

/// What a row says of its rule.
#[derive(Debug, PartialEq)]
enum Encoded {
    Places(Vec<Place>),
    NotData(String),
}

#[derive(Debug)]
struct Row {
    line: usize,
    rule: String,
    /// The rule or section number as printed (the first column).
    number: String,
    encoded: Encoded,
}

/// A fidelity map, read.
#[derive(Debug, Default)]
struct Map {
    rows: Vec<Row>,
    /// Place-shaped spans outside the `Encoded at` column, with their line.
    other_places: Vec<(usize, Place)>,
    /// The text of the "Known defects of the source text" section, if there is one.
    defects: Option<String>,
}

fn cells(line: &str) -> Vec<&str> {
    let inner = line.trim();
    let inner = inner.strip_prefix('|').unwrap_or(inner);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    inner.split('|').map(str::trim).collect()
}

/// Reads a fidelity map; problems of form are returned with their line.
fn read_map(text: &str) -> (Map, Vec<String>) {
    let mut map = Map::default();
    let mut errors = Vec::new();
    let mut in_table = false;
    let mut defects: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.starts_with("## ") {
            if let Some(d) = defects.take() {
                map.defects = Some(d);
            }
            if line.trim() == DEFECTS_HEADING {
                defects = Some(String::new());
            }
        } else if let Some(d) = defects.as_mut() {
            d.push_str(line);
            d.push('\n');
        }
        let is_table_line = line.trim_start().starts_with('|');
        if !is_table_line {
            in_table = false;
        }
        let row = cells(line);
        if is_table_line && row == HEADER {
            in_table = true;
            continue;
        }
        if is_table_line && !in_table && row.iter().any(|c| c.eq_ignore_ascii_case(HEADER[2])) {
            errors.push(format!(
                "line {n}: a fidelity table's header is `| {} |`",
                HEADER.join(" | ")
            ));
            continue;
        }
        if in_table
            && row
                .iter()
                .all(|c| !c.is_empty() && c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue;
        }
        if in_table {
            if row.len() != HEADER.len() {
                errors.push(format!(
                    "line {n}: a fidelity row has {} cells, not {}",
                    row.len(),
                    HEADER.len()
                ));
                continue;
            }
            match read_encoded(row[2]) {
                Ok(encoded) => map.rows.push(Row {
                    line: n,
                    rule: format!("{} {}", row[0], row[1]),
                    number: row[0].to_string(),
                    encoded,
                }),
                Err(e) => errors.push(format!("line {n}: {e}")),
            }
            // Place-shaped spans in the other columns are places too.
            other_places(n, row[3], &mut map, &mut errors);
            other_places(n, row[0], &mut map, &mut errors);
            other_places(n, row[1], &mut map, &mut errors);
        } else {
            other_places(n, line, &mut map, &mut errors);
        }
    }
    if let Some(d) = defects {
        map.defects = Some(d);
    }
    (map, errors)
}

fn other_places(n: usize, text: &str, map: &mut Map, errors: &mut Vec<String>) {
    for span in spans(text).0 {
        if looks_like_place(span) {
            match parse_place(span) {
                Ok(place) => map.other_places.push((n, place)),
                Err(e) => errors.push(format!("line {n}: {e}")),
            }
        }
    }
}

/// The `Encoded at` cell: places, or `not data:` and a reason.
fn read_encoded(cell: &str) -> Result<Encoded, String> {
    if let Some(reason) = cell.strip_prefix("not data:") {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err("`not data:` without a reason".to_string());
        }
        if reason.contains('`') {
            return Err("a `not data:` cell names no place (put them in the notes)".to_string());
        }
        return Ok(Encoded::NotData(reason.to_string()));
    }
    let (found, outside) = spans(cell);
    if found.is_empty() {
        return Err(format!(
            "`Encoded at` is neither places in backticks nor `not data:` and a reason: {cell:?}"
        ));
    }
    if outside.chars().any(|c| c != ',' && !c.is_whitespace()) {
        return Err(format!(
            "`Encoded at` holds text besides its places (put it in the notes): {outside:?}"
        ));
    }
    found
        .into_iter()
        .map(parse_place)
        .collect::<Result<Vec<_>, _>>()
        .map(Encoded::Places)
}

/// Resolves a JSON pointer with selectors (`KEY=VALUE`, `^=PREFIX`) to every value it
/// reaches; an error says where it stopped and what was there.
fn resolve<'a>(doc: &'a Value, pointer: &str) -> Result<Vec<&'a Value>, String> {
    if pointer.is_empty() {
        return Ok(vec![doc]);
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err("a pointer starts with `/`".to_string());
    };
    let mut current = vec![doc];
    let mut walked = String::new();
    for raw in rest.split('/') {
        let segment = raw.replace("~1", "/").replace("~0", "~");
        let mut next = Vec::new();
        for value in &current {
            match value {
                Value::Object(members) => next.extend(members.get(&segment)),
                Value::Array(items) => {
                    if let Some(prefix) = segment.strip_prefix("^=") {
                        next.extend(
                            items
                                .iter()
                                .filter(|v| v.as_str().is_some_and(|s| s.starts_with(prefix))),
                        );
                    } else if let Some((key, wanted)) = segment.split_once('=') {
                        next.extend(items.iter().filter(|v| {
                            v.get(key).is_some_and(|field| match field {
                                Value::String(s) => s == wanted,
                                Value::Number(_) | Value::Bool(_) => {
                                    serde_json::from_str::<Value>(wanted).is_ok_and(|w| w == *field)
                                }
                                _ => false,
                            })
                        }));
                    } else if let Ok(index) = segment.parse::<usize>() {
                        next.extend(items.get(index));
                    }
                }
                _ => {}
            }
        }
        if next.is_empty() {
            return Err(format!(
                "`{segment}` reaches nothing at `{}`; there: {}",
                if walked.is_empty() { "/" } else { &walked },
                describe(&current)
            ));
        }
        walked.push('/');
        walked.push_str(raw);
        current = next;
    }
    Ok(current)
}

/// What the values a pointer stopped at hold, for the error message.
fn describe(values: &[&Value]) -> String {
    let one = |v: &Value| match v {
        Value::Object(m) => format!("an object with {:?}", m.keys().collect::<Vec<_>>()),
        Value::Array(a) => {
            let ids: Vec<&str> = a
                .iter()
                .filter_map(|e| e.get("id").and_then(Value::as_str))
                .collect();
            if ids.is_empty() {
                format!("an array of {}", a.len())
            } else {
                format!("an array of {} with ids {ids:?}", a.len())
            }
        }
        other => format!("the value {other}"),
    };
    values.iter().map(|v| one(v)).collect::<Vec<_>>().join("; ")
}

/// Checks places against the repository, loading each data file once.
struct Checker {
    root: PathBuf,
    docs: HashMap<String, Result<Value, String>>,
}

impl Checker {
    fn new(root: PathBuf) -> Self {
        Self {
            root,
            docs: HashMap::new(),
        }
    }

    /// The typed document of a data file, as JSON.
    fn document(&mut self, path: &str) -> &Result<Value, String> {
        let root = &self.root;
        self.docs.entry(path.to_string()).or_insert_with(|| {
            let full = root.join(path);
            if !full.is_file() {
                return Err(format!("no file `{path}`"));
            }
            let loaded = load_path(&full, path);
            let value = match &loaded.doc {
                Some(Document::System(d)) => serde_json::to_value(d),
                Some(Document::Counters(d)) => serde_json::to_value(d),
                Some(Document::Map(d)) => serde_json::to_value(d),
                Some(Document::Scenario(d)) => serde_json::to_value(d),
                None => {
                    let messages: Vec<String> = loaded
                        .diagnostics
                        .iter()
                        .map(|d| format!("{d:?}"))
                        .collect();
                    return Err(format!(
                        "`{path}` does not load as a muster data file: {}",
                        messages.join("; ")
                    ));
                }
            };
            value.map_err(|e| format!("`{path}` does not serialise: {e}"))
        })
    }

    /// Whether the place exists; `system` is the document's system (hooks must be its).
    fn check(&mut self, place: &Place, system: &str) -> Result<(), String> {
        match place {
            Place::File(path) => {
                let full = self.root.join(path);
                if (path.ends_with('/') && full.is_dir()) || full.is_file() {
                    Ok(())
                } else {
                    Err(format!("no file or folder `{path}`"))
                }
            }
            Place::Pointer { path, pointer } => match self.document(path) {
                Ok(doc) => resolve(doc, pointer)
                    .map(|_| ())
                    .map_err(|e| format!("`{path}#{pointer}`: {e}")),
                Err(e) => Err(e.clone()),
            },
            Place::Check(code) => {
                if REGISTRY.iter().any(|r| r.meta.code == code) {
                    Ok(())
                } else {
                    Err(format!("no check `{code}` in the registry"))
                }
            }
            Place::Hook(id) => match hooks::find(id) {
                Some(hook) if hook.systems.contains(&system) => Ok(()),
                Some(hook) => Err(format!(
                    "hook `{id}` belongs to {:?}, not `{system}`",
                    hook.systems
                )),
                None => Err(format!("no hook `{id}`")),
            },
        }
    }
}

/// Every problem of one fidelity map: its form, and each place that does not exist.
fn problems(checker: &mut Checker, system: &str, text: &str) -> (Map, Vec<String>) {
    let (map, mut errors) = read_map(text);
    for row in &map.rows {
        if let Encoded::Places(places) = &row.encoded {
            for place in places {
                if let Err(e) = checker.check(place, system) {
                    errors.push(format!("line {} ({}): {e}", row.line, row.rule));
                }
            }
        }
    }
    for (line, place) in &map.other_places {
        if let Err(e) = checker.check(place, system) {
            errors.push(format!("line {line}: {e}"));
        }
    }
    (map, errors)
}

fn fidelity_dir() -> PathBuf {
    repo().join("docs/fidelity")
}

#[test]
fn every_fidelity_place_exists() {
    let mut checker = Checker::new(repo());
    let mut errors = Vec::new();
    let mut seen = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(fidelity_dir())
        .expect("docs/fidelity/ exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name == "README" {
            continue;
        }
        let Some((_, required)) = REQUIRED.iter().find(|(s, _)| *s == name) else {
            errors.push(format!(
                "docs/fidelity/{name}.md: not a bundled system ({:?})",
                REQUIRED.map(|(s, _)| s)
            ));
            continue;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let (map, found) = problems(&mut checker, &name, &text);
        errors.extend(
            found
                .into_iter()
                .map(|e| format!("docs/fidelity/{name}.md: {e}")),
        );
        if map.rows.is_empty() {
            errors.push(format!("docs/fidelity/{name}.md: no fidelity rows"));
        }
        match &map.defects {
            None => errors.push(format!(
                "docs/fidelity/{name}.md: no `{DEFECTS_HEADING}` section"
            )),
            Some(section) => {
                let lower = section.to_lowercase();
                if !lower.contains("- ") {
                    errors.push(format!(
                        "docs/fidelity/{name}.md: the defects section lists nothing"
                    ));
                }
                for defect in *required {
                    if !lower.contains(&defect.to_lowercase()) {
                        errors.push(format!(
                            "docs/fidelity/{name}.md: the defects section does not name `{defect}`"
                        ));
                    }
                }
            }
        }
        let encoded = map
            .rows
            .iter()
            .filter(|r| matches!(r.encoded, Encoded::Places(_)))
            .count();
        eprintln!(
            "{name}: {} rows, {encoded} encoded, {} not data",
            map.rows.len(),
            map.rows.len() - encoded
        );
        seen.push(name);
    }
    for (system, _) in REQUIRED {
        if !seen.iter().any(|s| s == system) {
            errors.push(format!("docs/fidelity/{system}.md is missing"));
        }
    }
    assert!(
        errors.is_empty(),
        "fidelity maps name places that do not exist:\n{}",
        errors.join("\n")
    );
}

/// Every row left as prose is either no rule at all (its reason starts with one of the
/// kinds the README names) or one of the few the README lists, each with its reason.
#[test]
fn every_prose_row_is_no_rule_or_listed() {
    let readme = std::fs::read_to_string(fidelity_dir().join("README.md")).unwrap();
    let section = readme
        .split("## What stays prose")
        .nth(1)
        .expect("README.md has a `What stays prose` section");
    let section = section.split("\n## ").next().unwrap_or(section);
    // The kinds are the backticked spans of the section's first paragraph.
    let first = section
        .trim_start()
        .split("\n\n")
        .next()
        .unwrap_or_default();
    let kinds: Vec<&str> = first
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|k| *k != "not data:")
        .collect();
    assert!(
        kinds.contains(&"a heading") && kinds.contains(&"commentary"),
        "{kinds:?}"
    );
    let mut unlisted = Vec::new();
    let mut listed = 0;
    for (name, _) in REQUIRED {
        let text = std::fs::read_to_string(fidelity_dir().join(format!("{name}.md"))).unwrap();
        let (map, _) = read_map(&text);
        for row in &map.rows {
            let Encoded::NotData(reason) = &row.encoded else {
                continue;
            };
            if kinds.iter().any(|k| reason.starts_with(k)) {
                continue;
            }
            if section.contains(&format!("**{name} {}**", row.number)) {
                listed += 1;
            } else {
                unlisted.push(format!("{name} {}: {reason}", row.rule));
            }
        }
    }
    assert!(
        unlisted.is_empty(),
        "prose rows that are rules but not listed in README.md:\n{}",
        unlisted.join("\n")
    );
    assert!(listed > 0, "the README's list names no row");
}

#[test]
fn the_readme_explains_the_places() {
    let readme = std::fs::read_to_string(fidelity_dir().join("README.md")).unwrap();
    for form in [
        "`PATH#POINTER`",
        "`check:CODE`",
        "`hook:ID`",
        "`KEY=VALUE`",
        "`^=PREFIX`",
    ] {
        assert!(readme.contains(form), "README.md does not explain {form}");
    }
}

/// A fidelity map in memory with one good row and a bogus place of every kind.
const BOGUS: &str = "\
# Fidelity map: test

| Rule | Title | Encoded at | Notes |
|---|---|---|---|
| 1 | Good | `scenarios/lrf/lrf.system.ron#/terrain/id=woods/combat`, `check:stacking::over-stacked`, `hook:evasion`, `maps/lrf/jengland.map.ron` | all exist |
| 2 | Unknown terrain | `scenarios/lrf/lrf.system.ron#/terrain/id=swampland` | |
| 3 | Unknown field | `scenarios/lrf/lrf.system.ron#/rules/sequence/no_such_field` | |
| 4 | Index past the end | `scenarios/lrf/fontenoy.scenario.ron#/victory/9` | |
| 5 | Wrong variant | `scenarios/lrf/fontenoy.scenario.ron#/victory/0/FewestLosses` | |
| 6 | Missing file | `scenarios/lrf/atlantis.scenario.ron` | |
| 7 | Not a data file | `docs/checks.md#/id` | |
| 8 | Unknown check | `check:stacking::nowhere` | |
| 9 | Unknown hook | `hook:no-such-hook` | |
| 10 | Hook of another system | `hook:viking-ferocity` | |
| 11 | Not data | not data: pure procedure | but `check:bogus::code` in the notes |

## Known defects of the source text

- none
";

#[test]
fn bogus_places_are_rejected() {
    let mut checker = Checker::new(repo());
    let (map, errors) = problems(&mut checker, "lrf", BOGUS);
    assert_eq!(map.rows.len(), 11);
    assert!(
        !errors.iter().any(|e| e.contains("(1 Good)")),
        "the good row must pass: {errors:#?}"
    );
    for rule in [
        "2 Unknown terrain",
        "3 Unknown field",
        "4 Index past the end",
        "5 Wrong variant",
        "6 Missing file",
        "7 Not a data file",
        "8 Unknown check",
        "9 Unknown hook",
        "10 Hook of another system",
    ] {
        assert!(
            errors.iter().any(|e| e.contains(&format!("({rule})"))),
            "row `{rule}` must be rejected: {errors:#?}"
        );
    }
    assert!(
        errors.iter().any(|e| e.contains("no check `bogus::code`")),
        "a place in the notes is checked too: {errors:#?}"
    );
    assert_eq!(errors.len(), 10, "{errors:#?}");
    assert_eq!(map.defects.as_deref(), Some("\n- none\n"));
}

#[test]
fn malformed_rows_are_rejected() {
    let text = "\
| Rule | Title | Encoded at | Notes |
|---|---|---|---|
| 1 | Words | the terrain chart | |
| 2 | Words and places | `check:stacking::over-stacked` and more | |
| 3 | No reason | not data: | |
| 4 | Place in a reason | not data: see `hook:evasion` | |
| 5 | Climbing out | `../outside.ron` | |
| 6 | Bad pointer | `scenarios/lrf/lrf.system.ron#terrain` | |
| 7 | Too few cells | `hook:evasion` |
";
    let (map, errors) = read_map(text);
    assert!(map.rows.is_empty(), "{map:#?}");
    let (_, header) = read_map("| Rule | Title | Encoded At | Notes |\n|---|---|---|---|\n");
    assert_eq!(header.len(), 1, "a misspelt header is an error: {header:?}");
    assert_eq!(errors.len(), 7, "{errors:#?}");
    for n in 3..=9 {
        assert!(
            errors.iter().any(|e| e.starts_with(&format!("line {n}:"))),
            "line {n} must be rejected: {errors:#?}"
        );
    }
}

#[test]
fn pointers_select_by_field_prefix_and_index() {
    let doc: Value = serde_json::json!({
        "terrain": [{"id": "woods", "cost": 2}, {"id": "clear", "cost": 1}],
        "rows": [{"die": 1}, {"die": 2}],
        "notes": ["6.32: fire", "Excl 3.14: fleets", "Excl 3.16: one a hex"],
        "a/b": {"c~d": true},
        "sequence": [{"id": "move", "acts": ["Phasing"]}, {"id": "fight", "acts": ["Phasing"]}],
    });
    let one = |p: &str| resolve(&doc, p).map(|v| v.len());
    assert_eq!(one("/terrain/id=woods/cost"), Ok(1));
    assert_eq!(one("/terrain/1/id"), Ok(1));
    assert_eq!(one("/rows/die=2"), Ok(1));
    assert_eq!(one("/notes/^=Excl 3.1"), Ok(2));
    assert_eq!(one("/notes/^=Excl 3.16"), Ok(1));
    assert_eq!(one("/a~1b/c~0d"), Ok(1));
    assert_eq!(one(""), Ok(1));
    for missing in [
        "/terrain/id=swamp",
        "/terrain/2",
        "/notes/^=Excl 4",
        "/rows/die=3",
        "/terrain/id=woods/movement",
        "terrain",
        "/sequence/acts",
    ] {
        assert!(
            resolve(&doc, missing).is_err(),
            "{missing} must not resolve"
        );
    }
    let err = resolve(&doc, "/terrain/id=swamp").unwrap_err();
    assert!(err.contains("woods") && err.contains("clear"), "{err}");
}

#[test]
fn place_syntax() {
    assert_eq!(
        parse_place("scenarios/lrf/lrf.system.ron#/terrain/id=woods"),
        Ok(Place::Pointer {
            path: "scenarios/lrf/lrf.system.ron".into(),
            pointer: "/terrain/id=woods".into()
        })
    );
    assert_eq!(
        parse_place("maps/raid/raid.map.ron"),
        Ok(Place::File("maps/raid/raid.map.ron".into()))
    );
    assert_eq!(
        parse_place("maps/lrf/"),
        Ok(Place::File("maps/lrf/".into()))
    );
    assert_eq!(
        parse_place("check:setup::spacing"),
        Ok(Place::Check("setup::spacing".into()))
    );
    assert_eq!(
        parse_place("hook:berserk"),
        Ok(Place::Hook("berserk".into()))
    );
    for bad in [
        "check:spacing",
        "hook:",
        "/etc/passwd",
        "scenarios/../x.ron",
        "scenarios/x.ron#terrain",
        "scenarios/a b.ron",
        "scenarios/./x.ron",
        "scenarios//x.ron",
        "",
    ] {
        assert!(parse_place(bad).is_err(), "{bad} must not parse");
    }
    assert!(looks_like_place("scenarios/lrf/lrf.system.ron"));
    assert!(looks_like_place("check:x::y"));
    assert!(!looks_like_place("Mt. Ex."));
    assert!(!looks_like_place("/terrain/id=woods"));
    assert!(!looks_like_place("maps"));
}
