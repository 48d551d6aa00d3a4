//! Every code muster-tiled reports is documented: each `pub const` of `src/codes.rs` has
//! an entry in `codes::CHECKS` (what `muster explain` and `docs/checks.md` show), and no
//! other source file spells a `tiled::` code of its own.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_code_the_importer_reports_is_documented() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let codes = std::fs::read_to_string(src.join("codes.rs")).unwrap();
    let declared: Vec<&str> = codes
        .lines()
        .filter(|l| l.starts_with("pub const ") && l.contains(": &str = \""))
        .filter_map(|l| l.split('"').nth(1))
        .collect();
    assert!(declared.len() >= 10, "{declared:?}");
    for code in &declared {
        let meta = muster_tiled::codes::find(code)
            .unwrap_or_else(|| panic!("`{code}` is reported but not documented in CHECKS"));
        assert!(
            meta.example().is_some() && meta.fixed_example().is_some(),
            "{code}"
        );
    }
    assert_eq!(declared.len(), muster_tiled::codes::CHECKS.len());
    let mut files = Vec::new();
    sources(&src, &mut files);
    for file in files.iter().filter(|f| !f.ends_with("codes.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(
            !text.contains("\"tiled::"),
            "{} spells a code outside codes.rs",
            file.display()
        );
    }
}
