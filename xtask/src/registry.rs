//! The check registry, generated from the declarations: every `declare_check!` in the
//! loader (`muster-db`'s `load/structure/`), in `muster.toml`'s reader and the
//! suppression pass (`muster-check`'s `config.rs`, `suppress.rs`), and every check file
//! `checks/<group>/<name>.rs` with a `run` over a file or a scenario. `cargo xtask
//! codegen` writes the result to `crates/muster-check/src/registry.rs`, in order of
//! code; a test keeps the committed file equal to it, so a check is registered by
//! existing and a code is declared in exactly one place.

use std::path::{Path, PathBuf};

/// The generated file, relative to the repository root.
pub const REGISTRY_FILE: &str = "crates/muster-check/src/registry.rs";

/// When a declared code is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    Loader,
    File,
    Scenario,
}

/// One declared code.
#[derive(Debug, Clone)]
pub struct Declared {
    pub code: String,
    /// The Rust path of its `CheckMeta`, from `muster-check`'s root.
    pub meta: String,
    /// The Rust path of its `run`, for checks that run over a context.
    pub run: Option<String>,
    pub runner: Runner,
    /// Where it is declared, relative to the repository root.
    pub file: PathBuf,
}

/// The `pub NAME = ("code", ...)` lines of a file's `declare_check!` blocks.
fn declarations(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("declare_check! {") || trimmed.starts_with("crate::declare_check! {")
        {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("pub ")
            && let Some((name, value)) = rest.split_once(" = (\"")
            && let Some((code, _)) = value.split_once('"')
        {
            out.push((name.trim().to_string(), code.to_string()));
            inside = false;
        }
    }
    out
}

fn read(root: &Path, rel: &Path) -> Result<String, String> {
    std::fs::read_to_string(root.join(rel)).map_err(|e| format!("{}: {e}", rel.display()))
}

fn sorted_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    out.sort();
    Ok(out)
}

/// Every code declared in the workspace, sorted by code. Codes declared twice are kept
/// twice (the test reports them).
pub fn declared(root: &Path) -> Result<Vec<Declared>, String> {
    let mut out = Vec::new();
    // Codes reported while loading, reading muster.toml or applying suppressions.
    let structure = PathBuf::from("crates/muster-db/src/load/structure");
    let mut loader_files: Vec<(PathBuf, String)> = Vec::new();
    for path in sorted_files(&root.join(&structure))? {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if name != "mod.rs" && name.ends_with(".rs") {
            loader_files.push((structure.join(&*name), "muster_db::load::structure".into()));
        }
    }
    loader_files.push((
        "crates/muster-check/src/config.rs".into(),
        "crate::config".into(),
    ));
    loader_files.push((
        "crates/muster-check/src/suppress.rs".into(),
        "crate::suppress".into(),
    ));
    for (rel, module) in loader_files {
        for (name, code) in declarations(&read(root, &rel)?) {
            out.push(Declared {
                code,
                meta: format!("{module}::{name}"),
                run: None,
                runner: Runner::Loader,
                file: rel.clone(),
            });
        }
    }
    // Checks: one file each, declaring its META (or naming the loader's) and a `run`.
    let checks = PathBuf::from("crates/muster-check/src/checks");
    for group_dir in sorted_files(&root.join(&checks))? {
        if !group_dir.is_dir() {
            continue;
        }
        let group = group_dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for path in sorted_files(&group_dir)? {
            let name = path
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if name == "mod" || path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = checks.join(&group).join(format!("{name}.rs"));
            let text = read(root, &rel)?;
            let runner = if text.contains("pub fn run(cx: &ScenarioCx") {
                Runner::Scenario
            } else if text.contains("pub fn run(cx: &FileCx") {
                Runner::File
            } else {
                return Err(format!(
                    "{}: a check file needs `pub fn run(cx: &FileCx, ..)` or \
                     `pub fn run(cx: &ScenarioCx, ..)`",
                    rel.display()
                ));
            };
            let module = format!("crate::checks::{group}::{name}");
            let own = declarations(&text);
            let code = match own.as_slice() {
                [(meta, code)] if meta == "META" => code.clone(),
                [] => reexported_code(root, &text)
                    .ok_or_else(|| format!("{}: declares no META", rel.display()))?,
                _ => return Err(format!("{}: declare exactly one `pub META`", rel.display())),
            };
            out.push(Declared {
                code,
                meta: format!("{module}::META"),
                run: Some(format!("{module}::run")),
                runner,
                file: rel,
            });
        }
    }
    out.sort_by(|a, b| a.code.cmp(&b.code));
    Ok(out)
}

/// The code of a META a check file takes from the loader (`pub use
/// muster_db::project::OUTSIDE_ROOT as META;`): the declaration is read from there.
fn reexported_code(root: &Path, text: &str) -> Option<String> {
    let line = text
        .lines()
        .find(|l| l.starts_with("pub use muster_db::") && l.ends_with(" as META;"))?;
    let path = line
        .strip_prefix("pub use muster_db::")?
        .strip_suffix(" as META;")?;
    let (module, name) = path.rsplit_once("::")?;
    let file = root
        .join("crates/muster-db/src")
        .join(format!("{}.rs", module.replace("::", "/")));
    let source = std::fs::read_to_string(file).ok()?;
    declarations(&source)
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, code)| code)
}

/// The text of [`REGISTRY_FILE`].
pub fn source(root: &Path) -> Result<String, String> {
    let mut out = String::from(
        "//! Every check muster runs, in order of code: generated by `cargo xtask codegen` \
         from the\n//! `declare_check!` declarations and the check files; do not edit.\n\n\
         use muster_db::CheckMeta;\n\n\
         use crate::checks::{Registered, Runner};\n\n\
         /// The registered check with this code.\n\
         pub fn find(code: &str) -> Option<&'static CheckMeta> {\n    \
         REGISTRY.iter().map(|r| r.meta).find(|m| m.code == code)\n}\n\n\
         #[rustfmt::skip]\npub static REGISTRY: &[Registered] = &[\n",
    );
    for d in declared(root)? {
        let runner = match (d.runner, &d.run) {
            (Runner::Loader, _) | (_, None) => "Runner::Loader".to_string(),
            (Runner::File, Some(run)) => format!("Runner::File({run})"),
            (Runner::Scenario, Some(run)) => format!("Runner::Scenario({run})"),
        };
        out.push_str(&format!(
            "    Registered {{ meta: &{}, runner: {runner} }},\n",
            d.meta
        ));
    }
    out.push_str("];\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    #[test]
    fn the_committed_registry_is_the_generated_one() {
        let committed = std::fs::read_to_string(root().join(REGISTRY_FILE)).unwrap();
        assert!(
            committed == source(&root()).unwrap(),
            "{REGISTRY_FILE} is stale: run `cargo xtask codegen`"
        );
    }

    #[test]
    fn every_code_is_declared_once() {
        let all = declared(&root()).unwrap();
        assert!(all.len() > 100, "found only {} codes", all.len());
        let twice: Vec<String> = all
            .windows(2)
            .filter(|w| w[0].code == w[1].code)
            .map(|w| {
                format!(
                    "`{}` in {} and {}",
                    w[0].code,
                    w[0].file.display(),
                    w[1].file.display()
                )
            })
            .collect();
        assert!(
            twice.is_empty(),
            "codes declared twice:\n{}",
            twice.join("\n")
        );
        // Nothing else in the sources declares a code outside the places read above.
        let mut elsewhere = Vec::new();
        for entry in walkdir::WalkDir::new(root().join("crates"))
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        {
            let rel = entry.path().strip_prefix(root()).unwrap().to_path_buf();
            let text = std::fs::read_to_string(entry.path()).unwrap();
            for (_, code) in declarations(&text) {
                if !all.iter().any(|d| d.code == code && d.file == rel)
                    && !rel.ends_with("registry.rs")
                {
                    elsewhere.push(format!("{}: `{code}`", rel.display()));
                }
            }
        }
        // project.rs declares `references::outside-root`, which its check re-exports.
        elsewhere.retain(|e| !e.ends_with("`references::outside-root`"));
        assert!(
            elsewhere.is_empty(),
            "codes declared where the registry does not look:\n{}",
            elsewhere.join("\n")
        );
    }

    #[test]
    fn the_reader_finds_declarations_and_their_codes() {
        let text = "declare_check! {\n    /// doc\n    pub META = (\"a::b\", Error, \"s\");\n}\n";
        assert_eq!(
            declarations(text),
            [("META".to_string(), "a::b".to_string())]
        );
        assert!(declarations("pub META = (\"a::b\", Error, \"s\");").is_empty());
    }
}
