//! The schema step's shortcut (`load::schema::may_break`) never hides a finding: over
//! every bundled file, every fixture and mutants of their numbers, a file the shortcut
//! lets through is one the JSON Schema finds nothing in.

mod common;

use std::path::{Path, PathBuf};

use muster_check::load::schema::{Bounds, may_break, schema_diagnostics};
use muster_check::load::{Loaded, load_bytes};
use muster_check::project::{data_files_under, project_files};
use muster_model::FileKind;
use muster_syntax::TokenKind;

fn files() -> Vec<PathBuf> {
    let mut out = project_files(&common::repo());
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
    let of = |kind| Bounds::of(&muster_check::schema::schema_of(kind));
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
