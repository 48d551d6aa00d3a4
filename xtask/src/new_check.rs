//! `cargo xtask new-check GROUP::NAME --file|--scenario`: the start of a new check.
//!
//! Writes `crates/muster-check/src/checks/<group>/<name>.rs` (its declaration with the
//! documentation sections to fill in, and a `run` that flags only the scenario whose id
//! is `<group>-<name>`, so that nothing else changes), declares the module (and the
//! group's, for a new group), adds the fixture folder
//! `crates/muster-check/tests/fixtures/<group>/<name>/` with an `invalid` scenario, and a
//! snapshot stub that the fixture test fails on until the expected diagnostics are
//! written. It then regenerates the registry and `docs/checks.md` (`cargo xtask
//! codegen`). `git checkout -- . && git clean -fd` undoes all of it.

use std::path::Path;

use crate::registry;

const CHECKS: &str = "crates/muster-check/src/checks";
const FIXTURES: &str = "crates/muster-check/tests/fixtures";
const SNAPSHOTS: &str = "crates/muster-check/tests/snapshots";

/// Whether `part` is a code part: lowercase words joined by `-`.
fn is_code_part(part: &str) -> bool {
    !part.is_empty()
        && part.split('-').all(|w| {
            !w.is_empty()
                && w.starts_with(|c: char| c.is_ascii_lowercase())
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

fn write_new(path: &Path, text: &str) -> Result<(), String> {
    if path.exists() {
        return Err(format!("{} exists already", path.display()));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    muster_map::write_atomic(path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Adds `pub mod name;` to the module file at `path`, after its other module lines.
fn declare_module(path: &Path, name: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let line = format!("pub mod {name};");
    let mut lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .rposition(|l| l.starts_with("pub mod ") || l.starts_with("mod "))
        .map_or(lines.len(), |i| i + 1);
    lines.insert(at, &line);
    let mut out = lines.join("\n");
    out.push('\n');
    muster_map::write_atomic(path, out.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

fn check_source(code: &str, trigger: &str, scenario: bool) -> String {
    let (cx, import, id) = if scenario {
        (
            "ScenarioCx",
            "use muster_semantic::ScenarioCx;",
            "cx.scenario.id",
        )
    } else {
        ("FileCx", "use muster_semantic::FileCx;", "cx.doc.id()")
    };
    format!(
        r#"use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{{Report, Sink}};
{import}

declare_check! {{
    /// ## What it does
    /// (Say what `{code}` looks for.) As scaffolded, it flags the scenario whose id is
    /// `{trigger}`.
    ///
    /// ## Why is this bad?
    /// (Say what goes wrong at the table when this is in a file.)
    ///
    /// ## Example
    /// ```ron
    ///     id: "{trigger}",
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///     id: "fixture",
    /// ```
    pub META = ("{code}", Warning, "(what it flags, in one line)");
}}

pub fn run(cx: &{cx}, sink: &mut Sink) {{
    if {id} == "{trigger}" {{
        sink.push(Report::new(
            &META,
            Place::root().field("id"),
            format!("scenario `{{}}` is the scaffold's example", {id}),
        ));
    }}
}}
"#
    )
}

/// Runs `cargo xtask new-check` with its arguments: [`scaffold`], then `cargo xtask
/// codegen` in `root` for the docs, which are generated from the compiled registry.
pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let written = scaffold(root, args)?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    println!("==> cargo xtask codegen");
    let status = std::process::Command::new(&cargo)
        .args(["run", "--quiet", "-p", "xtask", "--", "codegen"])
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot start `{cargo}`: {e}"))?;
    if !status.success() {
        return Err("cargo xtask codegen failed".to_string());
    }
    println!("{written}");
    Ok(())
}

/// Writes the check, its module lines, its fixture and snapshot stub under `root`, and
/// the registry with the check in it; says what it wrote. Writes nothing when the code
/// is malformed or taken.
fn scaffold(root: &Path, args: &[String]) -> Result<String, String> {
    let usage = "usage: cargo xtask new-check GROUP::NAME --file|--scenario";
    let (code, scenario) = match args {
        [code, kind] if kind == "--scenario" => (code, true),
        [code, kind] if kind == "--file" => (code, false),
        _ => return Err(usage.to_string()),
    };
    let Some((group, name)) = code
        .split_once("::")
        .filter(|(g, n)| is_code_part(g) && is_code_part(n))
    else {
        return Err(format!(
            "`{code}` is not GROUP::NAME in lowercase words joined by `-`\n{usage}"
        ));
    };
    if let Some(d) = registry::declared(root)?.iter().find(|d| &d.code == code) {
        return Err(format!("`{code}` exists already, in {}", d.file.display()));
    }
    let (group_mod, name_mod) = (group.replace('-', "_"), name.replace('-', "_"));
    let group_dir = root.join(CHECKS).join(&group_mod);
    if !group_dir.join("mod.rs").exists() {
        write_new(
            &group_dir.join("mod.rs"),
            &format!("//! `{group}::*`: (say what this group of checks looks at).\n\n"),
        )?;
        declare_module(&root.join(CHECKS).join("mod.rs"), &group_mod)?;
    }
    let trigger = format!("{group}-{name}");
    write_new(
        &group_dir.join(format!("{name_mod}.rs")),
        &check_source(code, &trigger, scenario),
    )?;
    declare_module(&group_dir.join("mod.rs"), &name_mod)?;
    let valid = std::fs::read_to_string(root.join(FIXTURES).join("_valid/valid.scenario.ron"))
        .map_err(|e| format!("the valid fixture: {e}"))?;
    let invalid = valid.replacen("id: \"fixture\",", &format!("id: \"{trigger}\","), 1);
    write_new(
        &root
            .join(FIXTURES)
            .join(group)
            .join(name)
            .join("invalid.scenario.ron"),
        &invalid,
    )?;
    write_new(
        &root
            .join(SNAPSHOTS)
            .join(format!("{group}__{name}__invalid.snap")),
        &format!(
            "---\nsource: crates/muster-check/tests/fixtures.rs\n---\n\
             (a stub: write the diagnostics `{code}` should give on this fixture, or run \
             `INSTA_UPDATE=always cargo test -p muster-check --test fixtures` and review \
             what it wrote)\n"
        ),
    )?;
    let registry_file = root.join(registry::REGISTRY_FILE);
    muster_map::write_atomic(&registry_file, registry::source(root)?.as_bytes())
        .map_err(|e| format!("{}: {e}", registry_file.display()))?;
    Ok(format!(
        "new check `{code}`: {CHECKS}/{group_mod}/{name_mod}.rs, fixture {FIXTURES}/{group}/{name}/, \
         snapshot stub {SNAPSHOTS}/{group}__{name}__invalid.snap"
    ))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{CHECKS, FIXTURES, SNAPSHOTS, is_code_part, scaffold};
    use crate::registry;

    /// A copy of what the scaffolder reads and writes: the declarations the registry is
    /// made from, the check folders and the valid fixture.
    fn workspace_copy(into: &Path) {
        let root = crate::root();
        for dir in [CHECKS, "crates/muster-db/src/load/structure"] {
            crate::copy_dir(&root.join(dir), &into.join(dir)).unwrap();
        }
        for file in [
            "crates/muster-check/src/config.rs",
            "crates/muster-check/src/suppress.rs",
            // A check that reports a loader code takes its META from here.
            "crates/muster-db/src/project.rs",
            registry::REGISTRY_FILE,
        ] {
            std::fs::copy(root.join(file), into.join(file)).unwrap();
        }
        let valid = format!("{FIXTURES}/_valid/valid.scenario.ron");
        std::fs::create_dir_all(into.join(FIXTURES).join("_valid")).unwrap();
        std::fs::copy(root.join(&valid), into.join(&valid)).unwrap();
    }

    fn read(root: &Path, rel: &str) -> String {
        std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// The scaffold in a temporary copy: the check file with its run and docs, the module
    /// lines of a new group, a fixture that differs from the valid one only in the id the
    /// scaffold flags, a stub snapshot, and a registry that lists the check in code
    /// order. The whole suite on the result (only the stub's snapshot fails) is run by
    /// `cargo xtask fresh-clone`, in CI. That run scaffolds `demo::example` first and
    /// then runs this test in the result, so this test scaffolds another code.
    #[test]
    fn new_check_writes_the_check_its_fixture_a_stub_and_the_registry() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        workspace_copy(root);
        let before = read(root, registry::REGISTRY_FILE);
        let said = scaffold(root, &args(&["decoy::probe", "--scenario"])).unwrap();
        assert!(said.contains("decoy/probe.rs"), "{said}");

        let check = read(root, &format!("{CHECKS}/decoy/probe.rs"));
        assert!(
            check.contains(r#"pub META = ("decoy::probe", Warning,"#),
            "{check}"
        );
        assert!(check.contains("pub fn run(cx: &ScenarioCx, sink: &mut Sink)"));
        for section in ["## What it does", "## Why is this bad?", "## Example"] {
            assert!(check.contains(section), "{section}");
        }
        assert!(read(root, &format!("{CHECKS}/mod.rs")).contains("pub mod decoy;"));
        assert!(read(root, &format!("{CHECKS}/decoy/mod.rs")).contains("pub mod probe;"));

        let valid = read(root, &format!("{FIXTURES}/_valid/valid.scenario.ron"));
        let fixture = read(
            root,
            &format!("{FIXTURES}/decoy/probe/invalid.scenario.ron"),
        );
        assert_eq!(
            fixture,
            valid.replacen(r#"id: "fixture","#, r#"id: "decoy-probe","#, 1)
        );
        assert_ne!(fixture, valid, "the fixture must differ from the valid one");
        let stub = read(root, &format!("{SNAPSHOTS}/decoy__probe__invalid.snap"));
        assert!(stub.contains("(a stub:"), "{stub}");

        let after = read(root, registry::REGISTRY_FILE);
        let line = "Runner::Scenario(crate::checks::decoy::probe::run)";
        assert!(!before.contains(line) && after.contains(line));
        assert_eq!(after.lines().count(), before.lines().count() + 1);
        // In code order: `decoy::probe` sorts between its neighbours (the `derived::*`
        // checks follow it in this tree, `demo::example` too where that was scaffolded).
        let lines: Vec<&str> = after.lines().collect();
        let at = lines.iter().position(|l| l.contains(line)).unwrap();
        let module = |l: &str| {
            l.split("crate::checks::")
                .nth(1)
                .and_then(|rest| rest.split("::META").next())
                .unwrap_or_else(|| panic!("not a registry entry: {l}"))
                .to_string()
        };
        assert_eq!(module(lines[at]), "decoy::probe");
        assert!(
            module(lines[at - 1]).as_str() < "decoy::probe",
            "{}",
            lines[at - 1]
        );
        assert!(
            module(lines[at + 1]).as_str() > "decoy::probe",
            "{}",
            lines[at + 1]
        );

        // A second run names the check that exists and writes nothing more.
        let again = scaffold(root, &args(&["decoy::probe", "--file"])).unwrap_err();
        assert!(again.contains("exists already"), "{again}");
        assert_eq!(read(root, registry::REGISTRY_FILE), after);
        // A check in an existing group is declared beside the others, with a file run.
        scaffold(root, &args(&["setup::decoy-file", "--file"])).unwrap();
        let group = read(root, &format!("{CHECKS}/setup/mod.rs"));
        assert_eq!(group.matches("pub mod decoy_file;").count(), 1);
        assert!(
            read(root, &format!("{CHECKS}/setup/decoy_file.rs"))
                .contains("pub fn run(cx: &FileCx, sink: &mut Sink)")
        );
        assert!(
            read(root, registry::REGISTRY_FILE)
                .contains("Runner::File(crate::checks::setup::decoy_file::run)")
        );
    }

    #[test]
    fn a_malformed_or_taken_code_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        workspace_copy(root);
        let listing = |root: &Path| -> Vec<std::path::PathBuf> {
            walkdir::WalkDir::new(root)
                .sort_by_file_name()
                .into_iter()
                .map(|e| e.unwrap().into_path())
                .collect()
        };
        let before = listing(root);
        let registry_before = read(root, registry::REGISTRY_FILE);
        for bad in [
            &["Decoy::probe", "--scenario"][..],
            &["decoy", "--scenario"],
            &["decoy::probe"],
            &["decoy::probe", "--scenarios"],
            &["setup::isolated", "--scenario"],
        ] {
            let err = scaffold(root, &args(bad)).unwrap_err();
            assert!(!err.is_empty(), "{bad:?}");
        }
        assert_eq!(listing(root), before);
        assert_eq!(read(root, registry::REGISTRY_FILE), registry_before);
    }

    #[test]
    fn code_parts_are_lowercase_words() {
        for good in ["demo", "example", "over-stacked", "turn2"] {
            assert!(is_code_part(good), "{good}");
        }
        for bad in ["", "Demo", "over_stacked", "-a", "a-", "a--b", "2a", "a b"] {
            assert!(!is_code_part(bad), "{bad}");
        }
    }
}
