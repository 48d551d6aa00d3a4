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

/// Runs `cargo xtask new-check` with its arguments.
pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
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
    // The docs are generated from the compiled registry: a fresh xtask writes them.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    crate::run(
        "cargo xtask codegen",
        &cargo,
        &["run", "--quiet", "-p", "xtask", "--", "codegen"],
    )?;
    println!(
        "new check `{code}`: {CHECKS}/{group_mod}/{name_mod}.rs, fixture {FIXTURES}/{group}/{name}/, \
         snapshot stub {SNAPSHOTS}/{group}__{name}__invalid.snap"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::is_code_part;

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
