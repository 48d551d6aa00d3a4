//! The fixture harness: every check has a folder `tests/fixtures/<group>/<name>/` with
//! `invalid*` files that must produce that check's diagnostic and `valid*` files that
//! must produce no diagnostic at all. Every diagnostic of an invalid fixture is
//! rendered without colour at a fixed width into an insta snapshot, so a change in
//! message, span or help shows up in review.

use std::path::{Path, PathBuf};

use miette::{GraphicalReportHandler, GraphicalTheme};
use muster_check::registry::REGISTRY;
use muster_db::project::{Db, data_files_under};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Codes whose fixture cannot be a committed file; `tests/loader.rs` builds them.
const GENERATED: &[&str] = &["structure::too-large", "structure::unreadable"];

/// Validates one fixture file against the shared base files.
pub fn diagnostics_for(file: &Path) -> Vec<muster_db::Diagnostic> {
    let root = fixtures_root();
    let mut files = data_files_under(&root.join("_base"));
    files.push(file.to_path_buf());
    let display = |p: &Path| {
        p.strip_prefix(&root)
            .map(|r| format!("fixtures/{}", r.display()))
            .unwrap_or_else(|_| p.display().to_string())
    };
    if file.extension().is_some_and(|e| e == "toml") {
        let text = std::fs::read_to_string(file).unwrap();
        let source = muster_db::source::SourceFile::new(file, display(file), text);
        let config = muster_check::config::parse(source, &root);
        // What the project file names (systems, their optional rules) is judged
        // against the base files.
        let db = Db::load(&root, &files[..files.len() - 1], &display);
        let mut out = config.diagnostics.clone();
        out.extend(config.optional_rule_diagnostics(&db));
        return out;
    }
    let db = Db::load(&root, &files, &display);
    let index = db.index_of(file).expect("fixture loaded");
    muster_check::validate(&db, &[index], &muster_check::Config::default())
}

fn render(diagnostics: &[muster_db::Diagnostic]) -> String {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .with_links(false);
    let mut out = String::new();
    for d in diagnostics {
        handler.render_report(&mut out, d).unwrap();
        // The note on a line of its own, as `muster`'s human format prints it.
        if let Some(note) = &d.note {
            out.push_str(&format!("  note: {note}\n"));
        }
        out.push('\n');
    }
    out
}

fn code_dirs() -> Vec<(String, PathBuf)> {
    let root = fixtures_root();
    let mut out = Vec::new();
    for group in std::fs::read_dir(&root).unwrap().flatten() {
        let name = group.file_name().to_string_lossy().to_string();
        if name.starts_with('_') || !group.path().is_dir() {
            continue;
        }
        for check in std::fs::read_dir(group.path()).unwrap().flatten() {
            let check_name = check.file_name().to_string_lossy().to_string();
            out.push((format!("{name}::{check_name}"), check.path()));
        }
    }
    out.sort();
    out
}

#[test]
fn every_fixture_folder_names_a_registered_check() {
    for (code, dir) in code_dirs() {
        assert!(
            REGISTRY.iter().any(|c| c.meta.code == code),
            "{} names no registered check `{code}`",
            dir.display()
        );
    }
}

#[test]
fn every_registered_check_has_an_invalid_fixture() {
    let dirs = code_dirs();
    for check in REGISTRY {
        let code = check.meta.code;
        if GENERATED.contains(&code) {
            continue;
        }
        let dir = dirs.iter().find(|(c, _)| c == code).map(|(_, d)| d);
        let has_invalid = dir.is_some_and(|d| {
            std::fs::read_dir(d)
                .unwrap()
                .flatten()
                .any(|f| f.file_name().to_string_lossy().starts_with("invalid"))
        });
        assert!(
            has_invalid,
            "check `{code}` has no fixture tests/fixtures/{}/invalid*",
            code.replace("::", "/")
        );
    }
}

#[test]
fn the_valid_template_is_clean() {
    let file = fixtures_root().join("_valid/valid.scenario.ron");
    let diagnostics = diagnostics_for(&file);
    assert!(diagnostics.is_empty(), "{}", render(&diagnostics));
}

#[test]
fn fixtures() {
    let mut failures = Vec::new();
    for (code, dir) in code_dirs() {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|f| f.path())
            .collect();
        files.sort();
        for file in files {
            let stem = file.file_name().unwrap().to_string_lossy().to_string();
            let diagnostics = diagnostics_for(&file);
            if stem.starts_with("invalid") {
                if !diagnostics.iter().any(|d| d.code == code) {
                    failures.push(format!(
                        "{}: expected `{code}`, got:\n{}",
                        file.display(),
                        render(&diagnostics)
                    ));
                }
                let name = format!(
                    "{}__{}",
                    code.replace("::", "__"),
                    stem.split('.').next().unwrap()
                );
                insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false, omit_expression => true }, {
                    insta::assert_snapshot!(name, render(&diagnostics));
                });
            } else if stem.starts_with("valid") {
                if !diagnostics.is_empty() {
                    failures.push(format!(
                        "{}: expected no diagnostic, got:\n{}",
                        file.display(),
                        render(&diagnostics)
                    ));
                }
            } else {
                failures.push(format!(
                    "{}: fixture names start with `invalid` or `valid`",
                    file.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Codes whose example cannot be shown as text (binary content, file-system state).
const PROSE_EXAMPLES: &[&str] = &[
    "structure::too-large",
    "structure::unreadable",
    "structure::not-text",
];

/// The lines of a doc example that must appear in a fixture: comments, blank lines and
/// elisions (`...`) are left out.
fn example_lines(example: &str) -> Vec<String> {
    example
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.contains("..."))
        .map(str::to_string)
        .collect()
}

fn fixture_files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|f| f.path()).collect())
        .unwrap_or_default();
    files.retain(|f| f.file_name().unwrap().to_string_lossy().starts_with(prefix));
    files.sort();
    files
}

fn contains_lines(file: &Path, lines: &[String]) -> bool {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let file_lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .iter()
        .all(|l| file_lines.iter().any(|f| f.contains(l.as_str())))
}

/// Each check's documented example is taken from a fixture that the tests run: the
/// example's lines appear in an `invalid*` fixture whose only diagnostics are that
/// check's, and the `Use instead:` lines appear in a fixture with no diagnostic at all.
#[test]
fn doc_examples_are_fixtures_that_run() {
    let root = fixtures_root();
    let mut failures = Vec::new();
    for check in REGISTRY {
        let code = check.meta.code;
        if PROSE_EXAMPLES.contains(&code) {
            continue;
        }
        let dir = root.join(code.replace("::", "/"));
        let example = example_lines(&check.meta.example().unwrap_or_default());
        if example.is_empty() {
            failures.push(format!("`{code}`: the example has no data line"));
            continue;
        }
        let invalid = fixture_files(&dir, "invalid")
            .into_iter()
            .find(|f| contains_lines(f, &example));
        match invalid {
            None => failures.push(format!(
                "`{code}`: no invalid fixture contains the example lines {example:?}"
            )),
            Some(file) => {
                let diagnostics = diagnostics_for(&file);
                if diagnostics.is_empty() || diagnostics.iter().any(|d| d.code != code) {
                    failures.push(format!(
                        "`{code}`: {} must give only `{code}`:\n{}",
                        file.display(),
                        render(&diagnostics)
                    ));
                }
            }
        }
        let fixed = example_lines(&check.meta.fixed_example().unwrap_or_default());
        if fixed.is_empty() {
            continue;
        }
        let mut candidates = fixture_files(&dir, "valid");
        candidates.push(root.join("_valid/valid.scenario.ron"));
        candidates.extend(fixture_files(&root.join("_base"), ""));
        match candidates.into_iter().find(|f| contains_lines(f, &fixed)) {
            None => failures.push(format!(
                "`{code}`: no valid fixture contains the `Use instead:` lines {fixed:?}"
            )),
            Some(file) => {
                let diagnostics = diagnostics_for(&file);
                if !diagnostics.is_empty() {
                    failures.push(format!(
                        "`{code}`: {} must be clean:\n{}",
                        file.display(),
                        render(&diagnostics)
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
