//! Generated files stay in sync with the code, and the tidy rules hold.

use muster_testkit::repo;

use std::path::{Path, PathBuf};

#[test]
fn schemas_and_checks_reference_are_up_to_date() {
    let mut expected: Vec<(PathBuf, String)> = muster_ide::schema::generated_schemas()
        .into_iter()
        .map(|(name, text)| (PathBuf::from("schema").join(name), text))
        .collect();
    expected.push((
        PathBuf::from("docs/checks.md"),
        muster_check::docs::checks_markdown(),
    ));
    let mut stale = Vec::new();
    for (path, text) in &expected {
        let on_disk = std::fs::read_to_string(repo().join(path)).unwrap_or_default();
        if &on_disk != text {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files: {}; run `cargo xtask codegen`",
        stale.join(", ")
    );
    // No schema file that the code no longer generates.
    for entry in std::fs::read_dir(repo().join("schema")).unwrap().flatten() {
        let path = PathBuf::from("schema").join(entry.file_name());
        assert!(
            expected.iter().any(|(p, _)| *p == path),
            "{} is not generated; remove it",
            path.display()
        );
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every library module says what it is for; every check file declares its check.
#[test]
fn tidy_module_docs() {
    let mut files = Vec::new();
    for krate in [
        "muster-model",
        "muster-hex",
        "muster-map",
        "muster-check",
        "muster-cli",
    ] {
        rust_files(&repo().join("crates").join(krate).join("src"), &mut files);
    }
    let mut missing = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let is_check = file.components().any(|c| c.as_os_str() == "checks")
            && !file.ends_with("mod.rs")
            && !file.ends_with("context.rs");
        let ok = if is_check {
            // A check declares itself, or says in its module doc where it is declared.
            text.contains("declare_check!") || text.starts_with("//!")
        } else {
            text.starts_with("//!")
        };
        if !ok {
            missing.push(file.display().to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "files without a `//!` module doc (or check declaration): {missing:#?}"
    );
}

/// Every check's documentation has ruff's sections and a fenced example.
#[test]
fn every_check_doc_has_the_sections() {
    for c in muster_check::registry::REGISTRY {
        let doc = c.meta.doc();
        for section in [
            "## What it does",
            "## Why is this bad?",
            "## Example",
            "Use instead:",
        ] {
            assert!(
                doc.contains(section),
                "`{}` doc lacks `{section}`",
                c.meta.code
            );
        }
        assert!(
            c.meta.example().is_some(),
            "`{}` has no fenced example",
            c.meta.code
        );
    }
    let mut codes: Vec<_> = muster_check::registry::REGISTRY
        .iter()
        .map(|c| c.meta.code)
        .collect();
    let before = codes.len();
    codes.sort();
    codes.dedup();
    assert_eq!(before, codes.len(), "a code is registered twice");
}
