//! The schema step's shortcut (`load::schema::may_break`) never hides a finding: over
//! every bundled file, every fixture and mutants of their numbers, a file the shortcut
//! lets through is one the JSON Schema finds nothing in. The schema rewritten for typed
//! documents finds the same as the schema as written, on every one of them.

use std::path::{Path, PathBuf};

use muster_db::load::schema::{
    Bounds, may_break, schema_diagnostics, schema_diagnostics_as_written,
};
use muster_db::load::{Loaded, load_bytes};
use muster_db::project::{data_files_under, project_files};
use muster_model::FileKind;
use muster_syntax::TokenKind;

fn files() -> Vec<PathBuf> {
    let mut out = project_files(&muster_testkit::repo());
    out.extend(data_files_under(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
    ));
    out
}

fn load(path: &Path, text: &str) -> Loaded {
    load_bytes(path, &path.display().to_string(), text.as_bytes().to_vec())
}

/// What the shortcut says about a loaded file, and what the schema finds in it.
struct Seen {
    skipped: usize,
    checked_with_findings: usize,
}

fn holds(loaded: &Loaded, what: &str, seen: &mut Seen) {
    let (Some(doc), Some(kind)) = (&loaded.doc, loaded.kind) else {
        return;
    };
    assert_eq!(doc.kind(), kind);
    let found = schema_diagnostics(loaded);
    // The schema rewritten for typed documents finds what the schema as written does.
    let written = schema_diagnostics_as_written(loaded);
    let said = |ds: &[muster_db::Diagnostic]| {
        ds.iter()
            .map(|d| {
                format!(
                    "{} {:?} {} {:?} {:?} {:?}",
                    d.code, d.span, d.message, d.label, d.help, d.note
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(said(&found), said(&written), "{what}");
    if may_break(kind, loaded.file.tree()) {
        if !found.is_empty() {
            seen.checked_with_findings += 1;
        }
    } else {
        assert!(
            found.is_empty(),
            "{what}: the shortcut skips the schema, which finds {:?}",
            found.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
        seen.skipped += 1;
    }
}

#[test]
fn the_shortcut_skips_only_files_the_schema_accepts() {
    let mut seen = Seen {
        skipped: 0,
        checked_with_findings: 0,
    };
    // Each number replaced by values around and beyond every bound the schemas write.
    const NUMBERS: [&str; 9] = ["0", "1", "-1", "2", "0.5", "1.5", "255", "256", "1e9"];
    // Numbers mutated per file, spread over the file.
    const PER_FILE: usize = 16;
    for path in files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let loaded = load(&path, &text);
        holds(&loaded, &path.display().to_string(), &mut seen);
        let numbers: Vec<std::ops::Range<usize>> = loaded
            .file
            .tree()
            .tokens()
            .filter(|t| t.kind == TokenKind::Number)
            .map(|t| t.range())
            .collect();
        let step = numbers.len().div_ceil(PER_FILE).max(1);
        for range in numbers.iter().step_by(step) {
            for n in NUMBERS {
                let mutant = format!("{}{n}{}", &text[..range.start], &text[range.end..]);
                let what = format!("{} with {n} at byte {}", path.display(), range.start);
                holds(&load(&path, &mutant), &what, &mut seen);
            }
        }
    }
    assert!(
        seen.skipped > 1000,
        "files the shortcut skipped: {}",
        seen.skipped
    );
    // The mutants break the schema's bounds, and the shortcut sends those files on.
    assert!(
        seen.checked_with_findings > 50,
        "mutants with schema findings: {}",
        seen.checked_with_findings
    );
}

#[test]
fn bounds_come_from_each_schema() {
    let of = |kind| Bounds::of(&muster_db::schema::schema_of(kind));
    // Counts and turns of at least 1; every other number's range is its type's.
    for kind in [FileKind::Scenario, FileKind::Counters] {
        assert_eq!(
            of(kind),
            Some(Bounds {
                min: 1.0,
                max: f64::INFINITY
            }),
            "{kind:?}"
        );
    }
    assert_eq!(
        of(FileKind::Map),
        Some(Bounds {
            min: f64::NEG_INFINITY,
            max: f64::INFINITY
        })
    );
    // Rates from 0 to 1 and factors from 2: no number satisfies both, so every system
    // file is validated.
    let system = of(FileKind::System).expect("the system schema has bounds");
    assert!(system.min > system.max, "{system:?}");
    // A keyword the shortcut cannot vouch for turns it off.
    let pattern = serde_json::json!({"type": "string", "pattern": "^[0-9]{4}$"});
    assert_eq!(Bounds::of(&pattern), None);
    let list = serde_json::json!({"type": "array", "items": {"type": "string"}, "minItems": 1});
    assert_eq!(Bounds::of(&list), None);
}

/// Every number inside a JSON value, as a path of keys and positions.
fn number_paths(value: &serde_json::Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match value {
        serde_json::Value::Number(_) => out.push(at.clone()),
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                at.push(i.to_string());
                number_paths(v, at, out);
                at.pop();
            }
        }
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                at.push(k.clone());
                number_paths(v, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn pointer(path: &[String]) -> String {
    path.iter().map(|s| format!("/{s}")).collect()
}

#[test]
fn hook_parameters_read_the_same_with_and_without_the_shortcut() {
    use muster_model::scenario::SpecialRule;
    use muster_semantic::hooks::HOOKS;
    // Every hook's own example and every special rule of the bundled scenarios.
    let mut rules: Vec<SpecialRule> = HOOKS
        .iter()
        .map(|h| {
            muster_syntax::from_str(h.example, muster_syntax::Dialect::Ron)
                .unwrap_or_else(|e| panic!("{}: {e:?}", h.id))
        })
        .collect();
    for path in project_files(&muster_testkit::repo()) {
        let text = std::fs::read_to_string(&path).unwrap();
        if let Some(muster_db::load::Document::Scenario(s)) = load(&path, &text).doc {
            rules.extend(s.special_rules);
        }
    }
    let answer =
        |r: Result<Box<dyn muster_semantic::hooks::Hook>, Vec<muster_semantic::hooks::Problem>>| {
            r.map(|_| ()).map_err(|p| {
                p.into_iter()
                    .map(|p| (p.place.to_string(), p.message))
                    .collect::<Vec<_>>()
            })
        };
    let (mut compared, mut refused) = (0, 0);
    for rule in rules {
        let Some(hook) = HOOKS.iter().find(|h| h.id == rule.hook) else {
            continue;
        };
        let mut paths = Vec::new();
        number_paths(&rule.params, &mut Vec::new(), &mut paths);
        let mut variants = vec![rule.params.clone()];
        for path in &paths {
            for n in [0.0f64, 1.0, -1.0, 2.0, 0.5, 1.5, 255.0, 256.0, 1e9] {
                let mut values = vec![serde_json::json!(n)];
                if n.fract() == 0.0 && n >= 0.0 {
                    values.push(serde_json::json!(n as u64));
                }
                for value in values {
                    let mut params = rule.params.clone();
                    if let Some(slot) = params.pointer_mut(&pointer(path)) {
                        *slot = value;
                        variants.push(params);
                    }
                }
            }
        }
        for params in variants {
            let fast = answer(hook.parse(&params));
            let full = answer(hook.parse_fully(&params));
            assert_eq!(fast, full, "{} with {params}", hook.id);
            compared += 1;
            refused += usize::from(full.is_err());
        }
    }
    assert!(compared > 200, "parameter sets compared: {compared}");
    assert!(refused > 20, "parameter sets refused: {refused}");
}
