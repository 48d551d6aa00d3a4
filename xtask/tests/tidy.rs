//! Tidy: the rules of muster's codebase that the compiler does not enforce, read from
//! the sources themselves (after rust-analyzer's `tidy.rs`). Each test is the proof of
//! one invariant that ARCHITECTURE.md states and names:
//!
//! - [`crates_depend_only_downwards`]: the crates' dependency table;
//! - [`modules_import_only_downwards`]: the layers inside the crates that have them;
//! - [`no_crate_holds_more_than_a_third`]: no crate is over 35% of the non-test lines;
//! - [`functions_and_files_stay_short`]: the function ceiling and its allow-list, and the
//!   file ceiling;
//! - [`every_module_says_what_it_is_for`]: module docs;
//! - [`no_test_helper_is_defined_twice`]: shared test helpers live in `muster-testkit`.
//!
//! Sources are parsed with `syn` (spans with line numbers), so a brace in a string or a
//! comment never miscounts a function, and `#[cfg(test)]` code is told apart exactly.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::spanned::Spanned;
use syn::visit::Visit;

/// The workspace's crates and the muster crates each may depend on (normal
/// dependencies). A crate's row lists only crates of lower rows, so the table is the
/// layering, bottom first.
const CRATES: &[(&str, &[&str])] = &[
    ("muster-hex", &[]),
    ("muster-syntax", &[]),
    ("muster-model", &["muster-hex"]),
    ("muster-map", &["muster-hex", "muster-model"]),
    (
        "muster-db",
        &["muster-map", "muster-model", "muster-syntax"],
    ),
    ("muster-testkit", &["muster-db"]),
    (
        "muster-semantic",
        &[
            "muster-db",
            "muster-hex",
            "muster-map",
            "muster-model",
            "muster-syntax",
        ],
    ),
    (
        "muster-tiled",
        &[
            "muster-db",
            "muster-hex",
            "muster-map",
            "muster-model",
            "muster-semantic",
        ],
    ),
    (
        "muster-engine",
        &[
            "muster-db",
            "muster-hex",
            "muster-map",
            "muster-model",
            "muster-semantic",
        ],
    ),
    (
        "muster-check",
        &[
            "muster-db",
            "muster-engine",
            "muster-hex",
            "muster-map",
            "muster-model",
            "muster-semantic",
            "muster-syntax",
            "muster-tiled",
        ],
    ),
    (
        "muster-render",
        &[
            "muster-db",
            "muster-hex",
            "muster-map",
            "muster-model",
            "muster-semantic",
        ],
    ),
    (
        "muster-vassal",
        &[
            "muster-db",
            "muster-hex",
            "muster-map",
            "muster-model",
            "muster-render",
            "muster-semantic",
        ],
    ),
    (
        "muster-ide",
        &[
            "muster-check",
            "muster-db",
            "muster-engine",
            "muster-hex",
            "muster-map",
            "muster-model",
            "muster-semantic",
        ],
    ),
    (
        "muster-lsp",
        &[
            "muster-check",
            "muster-db",
            "muster-hex",
            "muster-ide",
            "muster-map",
            "muster-model",
            "muster-semantic",
            "muster-syntax",
        ],
    ),
    (
        "muster-cli",
        &[
            "muster-check",
            "muster-db",
            "muster-engine",
            "muster-hex",
            "muster-ide",
            "muster-lsp",
            "muster-map",
            "muster-model",
            "muster-render",
            "muster-semantic",
            "muster-tiled",
            "muster-vassal",
        ],
    ),
    (
        "xtask",
        &[
            "muster-check",
            "muster-db",
            "muster-engine",
            "muster-hex",
            "muster-ide",
            "muster-lsp",
            "muster-map",
            "muster-model",
            "muster-render",
            "muster-semantic",
            "muster-syntax",
            "muster-testkit",
            "muster-vassal",
        ],
    ),
];

/// The layers inside crates that have them, bottom first: a module may import from its
/// own layer and the layers below, never from one above. Every top-level module of the
/// crate is in exactly one layer.
const LAYERS: &[(&str, &[&[&str]])] = &[
    (
        "crates/muster-db",
        &[
            &["place", "suggest", "text"],
            &["source"],
            &["diagnostic"],
            &["registry"],
            &["report"],
            &["limits", "load", "schema"],
            &["project"],
        ],
    ),
    (
        "crates/muster-semantic",
        &[
            &["hooks", "placeholder", "victory"],
            &["context"],
            &[
                "board",
                "derived",
                "entry",
                "features",
                "morale",
                "references",
                "rules",
                "setup",
                "stacking",
                "table",
            ],
        ],
    ),
    (
        "crates/muster-check",
        &[
            &["checks"],
            // The registry lists the codes `config` and `suppress` declare, and they
            // look codes up in it: one layer.
            &["config", "registry", "suppress"],
            &["docs", "drive"],
            &["batch"],
        ],
    ),
    (
        "crates/muster-ide",
        &[
            &["output", "provenance", "rule_words", "watch"],
            &["catalog", "schema", "summary"],
            &["template"],
        ],
    ),
];

/// Functions allowed over [`MAX_FN_LINES`], as (file, function name). The list may only
/// shrink: an entry whose function is gone or now fits fails the test until it is
/// removed.
const LONG_FUNCTIONS: &[(&str, &str)] = &[
    // The balance sheet's two big walks: one block per part of a scenario, and one per
    // rule family (to be split into files per family).
    ("crates/muster-ide/src/summary.rs", "summarize"),
    ("crates/muster-ide/src/summary/rule_lines.rs", "rule_lines"),
];

const MAX_FN_LINES: usize = 150;
const MAX_FILE_LINES: usize = 1200;
const MAX_CRATE_SHARE: f64 = 0.35;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.rs` file under `dir`, sorted, as (path relative to the workspace, path).
fn rust_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let root = root();
    let mut out: Vec<(String, PathBuf)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| {
            let rel = e.path().strip_prefix(&root).unwrap_or(e.path());
            (rel.to_string_lossy().replace('\\', "/"), e.into_path())
        })
        .collect();
    out.sort();
    out
}

/// The workspace's package folders (`crates/*` and `xtask`).
fn packages() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    out.push(root().join("xtask"));
    out.sort();
    out
}

fn parse(path: &Path) -> syn::File {
    let text = std::fs::read_to_string(path).unwrap();
    syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether an item is test code: `#[cfg(test)]` or `#[test]`.
fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("test")
            || (a.path().is_ident("cfg")
                && quote::ToTokens::to_token_stream(&a.meta).to_string() == "cfg (test)")
    })
}

#[test]
fn crates_depend_only_downwards() {
    let table: BTreeMap<&str, &[&str]> = CRATES.iter().copied().collect();
    // The table itself is layered: each row names only crates of earlier rows.
    for (i, (name, deps)) in CRATES.iter().enumerate() {
        for dep in *deps {
            let row = CRATES.iter().position(|(n, _)| n == dep);
            assert!(
                row.is_some_and(|r| r < i),
                "{name} may depend on {dep}, which is not below it in the table"
            );
        }
    }
    let mut seen = BTreeSet::new();
    for package in packages() {
        let manifest: toml::Table =
            toml::from_str(&std::fs::read_to_string(package.join("Cargo.toml")).unwrap()).unwrap();
        let name = manifest["package"]["name"].as_str().unwrap().to_string();
        let deps: BTreeSet<String> = manifest
            .get("dependencies")
            .and_then(|d| d.as_table())
            .map(|d| {
                d.keys()
                    .filter(|k| k.starts_with("muster"))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        let allowed = table
            .get(name.as_str())
            .unwrap_or_else(|| panic!("{name} is not in the tidy table of crates"));
        let wrong: Vec<&String> = deps
            .iter()
            .filter(|d| !allowed.contains(&d.as_str()))
            .collect();
        assert!(
            wrong.is_empty(),
            "{name} depends on {wrong:?}, which its row of the table does not allow"
        );
        seen.insert(name);
    }
    let missing: Vec<&&str> = table.keys().filter(|n| !seen.contains(**n)).collect();
    assert!(missing.is_empty(), "no package for {missing:?}");
}

/// The crate-root modules a file's non-test code names through `crate::` (or through
/// `super::` from a module just under the root).
struct Imports {
    depth_one: bool,
    found: BTreeSet<String>,
}

impl Imports {
    fn note(&mut self, first: &syn::Ident, second: Option<&syn::Ident>) {
        let head = first.to_string();
        if (head == "crate" || (head == "super" && self.depth_one))
            && let Some(second) = second
        {
            self.found.insert(second.to_string());
        }
    }
}

impl<'ast> Visit<'ast> for Imports {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_cfg_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_cfg_test(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }
    fn visit_path(&mut self, p: &'ast syn::Path) {
        let mut segments = p.segments.iter().map(|s| &s.ident);
        if let Some(first) = segments.next() {
            self.note(first, segments.next());
        }
        syn::visit::visit_path(self, p);
    }
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if is_cfg_test(&u.attrs) {
            return;
        }
        if let syn::UseTree::Path(p) = &u.tree {
            let mut seconds = Vec::new();
            match &*p.tree {
                syn::UseTree::Path(q) => seconds.push(q.ident.clone()),
                syn::UseTree::Name(n) => seconds.push(n.ident.clone()),
                syn::UseTree::Rename(r) => seconds.push(r.ident.clone()),
                syn::UseTree::Group(g) => {
                    for t in &g.items {
                        match t {
                            syn::UseTree::Path(q) => seconds.push(q.ident.clone()),
                            syn::UseTree::Name(n) => seconds.push(n.ident.clone()),
                            syn::UseTree::Rename(r) => seconds.push(r.ident.clone()),
                            _ => {}
                        }
                    }
                }
                syn::UseTree::Glob(_) => {}
            }
            for second in &seconds {
                self.note(&p.ident, Some(second));
            }
        }
    }
}

/// The top-level module a source file belongs to (`None` for the crate root).
fn top_module(src: &Path, file: &Path) -> Option<(String, bool)> {
    let rel = file.strip_prefix(src).ok()?;
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let first = parts.first()?.trim_end_matches(".rs").to_string();
    if first == "lib" || first == "main" {
        return None;
    }
    // src/foo.rs and src/foo/mod.rs sit just under the root.
    let depth_one = parts.len() == 1 || (parts.len() == 2 && parts[1] == "mod.rs");
    Some((first, depth_one))
}

#[test]
fn modules_import_only_downwards() {
    let mut wrong = Vec::new();
    for (krate, layers) in LAYERS {
        let src = root().join(krate).join("src");
        let layer_of = |m: &str| layers.iter().position(|l| l.contains(&m));
        for (rel, path) in rust_files(&src) {
            let Some((module, depth_one)) = top_module(&src, &path) else {
                continue;
            };
            let Some(own) = layer_of(&module) else {
                wrong.push(format!(
                    "{rel}: module `{module}` is in no layer of {krate}"
                ));
                continue;
            };
            let mut imports = Imports {
                depth_one,
                found: BTreeSet::new(),
            };
            imports.visit_file(&parse(&path));
            for used in imports.found {
                if let Some(layer) = layer_of(&used)
                    && layer > own
                {
                    wrong.push(format!(
                        "{rel}: `{module}` (layer {own}) imports `{used}` (layer {layer})"
                    ));
                }
            }
        }
        // Every listed module exists, so the table cannot go stale.
        for module in layers.iter().flat_map(|l| l.iter()) {
            assert!(
                src.join(format!("{module}.rs")).is_file() || src.join(module).is_dir(),
                "{krate}: the layer table names `{module}`, which is not a module"
            );
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

/// Non-blank lines of a file outside `#[cfg(test)]` modules.
fn non_test_lines(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let mut test_lines = BTreeSet::new();
    for item in parse(path).items {
        if let syn::Item::Mod(m) = &item
            && is_cfg_test(&m.attrs)
        {
            let span = m.span();
            test_lines.extend(span.start().line..=span.end().line);
        }
    }
    text.lines()
        .enumerate()
        .filter(|(i, l)| !l.trim().is_empty() && !test_lines.contains(&(i + 1)))
        .count()
}

#[test]
fn no_crate_holds_more_than_a_third() {
    let sizes: Vec<(String, usize)> = packages()
        .iter()
        .map(|p| {
            let lines = rust_files(&p.join("src"))
                .iter()
                .map(|(_, f)| non_test_lines(f))
                .sum();
            (p.file_name().unwrap().to_string_lossy().into_owned(), lines)
        })
        .collect();
    let total: usize = sizes.iter().map(|(_, n)| n).sum();
    assert!(total > 20_000, "read only {total} lines");
    for (name, lines) in &sizes {
        let share = *lines as f64 / total as f64;
        assert!(
            share <= MAX_CRATE_SHARE,
            "{name} holds {lines} of {total} non-test lines ({:.0}%)",
            share * 100.0
        );
    }
}

/// Every function with a body, outside test code, as (name, first line, last line).
struct Functions(Vec<(String, usize, usize)>);

impl Functions {
    fn note(&mut self, name: &syn::Ident, start: proc_macro2::Span, block: &syn::Block) {
        let end = block.brace_token.span.close().end().line;
        self.0.push((name.to_string(), start.start().line, end));
    }
}

impl<'ast> Visit<'ast> for Functions {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_cfg_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_cfg_test(&f.attrs) {
            self.note(&f.sig.ident, f.sig.fn_token.span, &f.block);
            syn::visit::visit_item_fn(self, f);
        }
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_cfg_test(&f.attrs) {
            self.note(&f.sig.ident, f.sig.fn_token.span, &f.block);
            syn::visit::visit_impl_item_fn(self, f);
        }
    }
    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            self.note(&f.sig.ident, f.sig.fn_token.span, block);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }
}

#[test]
fn functions_and_files_stay_short() {
    let mut long = Vec::new();
    let mut allowed_seen = BTreeSet::new();
    let mut big_files = Vec::new();
    let mut functions = 0;
    for package in packages() {
        for (rel, path) in rust_files(&package) {
            if rel.contains("/target/") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
            if lines > MAX_FILE_LINES {
                big_files.push(format!("{rel}: {lines} non-blank lines"));
            }
            if !rel.contains("/src/") {
                continue;
            }
            let mut found = Functions(Vec::new());
            found.visit_file(&parse(&path));
            functions += found.0.len();
            for (name, start, end) in found.0 {
                let length = end - start + 1;
                if length <= MAX_FN_LINES {
                    continue;
                }
                if LONG_FUNCTIONS.contains(&(rel.as_str(), name.as_str())) {
                    allowed_seen.insert((rel.clone(), name));
                } else {
                    long.push(format!("{rel}:{start}: `{name}` is {length} lines"));
                }
            }
        }
    }
    assert!(functions > 1000, "read only {functions} functions");
    assert!(
        LONG_FUNCTIONS.len() <= 5,
        "the allow-list may hold at most 5"
    );
    for (file, name) in LONG_FUNCTIONS {
        assert!(
            allowed_seen.contains(&(file.to_string(), name.to_string())),
            "{file}: `{name}` is allowed to be long but is gone or fits now: \
             remove it from LONG_FUNCTIONS"
        );
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines (split them):\n{}",
        long.join("\n")
    );
    assert!(
        big_files.is_empty(),
        "files over {MAX_FILE_LINES} non-blank lines:\n{}",
        big_files.join("\n")
    );
}

#[test]
fn every_module_says_what_it_is_for() {
    let mut missing = Vec::new();
    for package in packages() {
        for (rel, path) in rust_files(&package.join("src")) {
            let text = std::fs::read_to_string(&path).unwrap();
            let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            // A check's file is documented by its declaration: the page `muster explain`
            // prints.
            let documented = first.starts_with("//!")
                || (text.contains("declare_check!") && text.contains("## What it does"));
            if !documented {
                missing.push(rel);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "files with no `//!` module doc:\n{}",
        missing.join("\n")
    );
}

#[test]
fn no_test_helper_is_defined_twice() {
    // Helper functions (not tests) of every test folder, by their whole text.
    let mut by_body: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut helpers = 0;
    for package in packages() {
        for (rel, path) in rust_files(&package.join("tests")) {
            for item in parse(&path).items {
                let syn::Item::Fn(f) = item else { continue };
                if is_cfg_test(&f.attrs) {
                    continue;
                }
                let lines = f.block.span().end().line - f.block.span().start().line;
                if lines < 3 {
                    continue;
                }
                helpers += 1;
                let body = quote::ToTokens::to_token_stream(&f).to_string();
                by_body
                    .entry(body)
                    .or_default()
                    .push(format!("{rel}: `{}`", f.sig.ident));
            }
        }
    }
    assert!(helpers > 20, "read only {helpers} helpers");
    let twice: Vec<String> = by_body
        .into_values()
        .filter(|places| places.len() > 1)
        .map(|places| places.join(" = "))
        .collect();
    assert!(
        twice.is_empty(),
        "test helpers defined more than once (share them through muster-testkit):\n{}",
        twice.join("\n")
    );
}

#[test]
fn the_architecture_is_short_and_names_real_tests() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    assert!(
        text.len() <= 12 * 1024,
        "ARCHITECTURE.md is {} bytes",
        text.len()
    );
    let invariants = text
        .split("\n## Invariants")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("an Invariants section");
    // Every source file of the workspace, to find the tests the invariants name.
    let sources: String = packages()
        .iter()
        .flat_map(|p| rust_files(p))
        .filter(|(rel, _)| !rel.contains("/target/"))
        .map(|(_, path)| std::fs::read_to_string(path).unwrap())
        .collect();
    let bullets: Vec<&str> = invariants.split("\n- ").skip(1).collect();
    assert!(bullets.len() >= 10, "{} invariants", bullets.len());
    let mut wrong = Vec::new();
    for bullet in &bullets {
        let quoted: Vec<&str> = bullet.split('`').skip(1).step_by(2).collect();
        let names_a_test = quoted.iter().any(|q| q.ends_with(".rs") || q.contains('_'));
        if !names_a_test {
            wrong.push(format!(
                "names no test: {}",
                bullet.lines().next().unwrap_or("")
            ));
        }
        for q in quoted {
            let is_test_name = q.matches('_').count() >= 2
                && q.chars().all(|c| c.is_ascii_lowercase() || c == '_');
            if is_test_name && !sources.contains(&format!("fn {q}(")) {
                wrong.push(format!("no test `{q}`"));
            }
            if q.ends_with(".rs") && !q.contains('<') {
                let found = packages().iter().any(|p| {
                    rust_files(p)
                        .iter()
                        .any(|(rel, _)| rel.ends_with(q.trim_start_matches("muster-")))
                });
                if !found {
                    wrong.push(format!("no file `{q}`"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md invariants:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn contributing_says_how_to_add_a_check_a_hook_and_a_file_kind() {
    let text = std::fs::read_to_string(root().join("CONTRIBUTING.md")).unwrap();
    for section in [
        "## Adding a check",
        "## Adding a hook",
        "## Adding a file kind",
    ] {
        assert!(text.contains(section), "CONTRIBUTING.md lacks {section}");
    }
    // The steps name the scaffolder and the tests that keep them true: those exist.
    let main = std::fs::read_to_string(root().join("xtask/src/main.rs")).unwrap();
    assert!(text.contains("cargo xtask new-check") && main.contains("\"new-check\""));
    let sources: String = packages()
        .iter()
        .flat_map(|p| rust_files(p))
        .map(|(_, path)| std::fs::read_to_string(path).unwrap())
        .collect();
    for q in text.split('`').skip(1).step_by(2) {
        let is_test_name =
            q.matches('_').count() >= 2 && q.chars().all(|c| c.is_ascii_lowercase() || c == '_');
        assert!(
            !is_test_name || sources.contains(&format!("fn {q}(")),
            "CONTRIBUTING.md names `{q}`, which is no function"
        );
    }
}
