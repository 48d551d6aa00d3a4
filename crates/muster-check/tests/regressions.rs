//! Inputs that `cargo xtask fuzz` once found slow, panicking or spanning outside the
//! file, kept as regressions. Each file says which bundled file it replaces and which
//! diagnostic it must now produce (`nothing`: it must check clean, without a panic);
//! it is checked in a copy of the bundled project.

use muster_testkit::copy_project;

use std::path::{Path, PathBuf};

fn header<'t>(text: &'t str, key: &str) -> &'t str {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("// {key}: ")))
        .unwrap_or_else(|| panic!("a regression names `{key}`"))
        .trim()
}

#[test]
fn fuzz_findings_stay_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let (replaces, expect) = (header(&text, "replaces"), header(&text, "expect"));
        let project = copy_project();
        let target = project.path().join(replaces);
        assert!(target.is_file(), "{replaces} is a bundled file");
        std::fs::write(&target, &text).unwrap();
        let display = |p: &Path| p.display().to_string();
        let (_, diagnostics) = muster_check::validate_project(
            project.path(),
            &[target],
            &muster_check::Config::default(),
            &display,
        );
        if expect == "nothing" {
            assert!(
                diagnostics.is_empty(),
                "{}: expected no diagnostic, got {:?}",
                file.display(),
                diagnostics.iter().map(|d| d.code).collect::<Vec<_>>()
            );
            continue;
        }
        assert!(
            diagnostics.iter().any(|d| d.code == expect),
            "{}: expected `{expect}`, got {:?}",
            file.display(),
            diagnostics.iter().map(|d| d.code).collect::<Vec<_>>()
        );
        for d in &diagnostics {
            assert!(d.span.end <= d.file.text.len(), "{}: span inside", d.code);
        }
    }
}
