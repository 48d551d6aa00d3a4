//! `cargo xtask <task>`: repository chores as Rust code.
//!
//! - `codegen`: writes `schema/*.json` and `docs/checks.md` from the code;
//! - `ci`: fmt check, clippy with warnings denied, the whole test suite, then
//!   `muster validate` on the bundled data;
//! - `bench [N]`: validates the bundled corpus N times (default 20) and prints a table
//!   of the median, fastest and slowest run.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("codegen") => codegen(),
        Some("ci") => ci(),
        Some("bench") => bench(args.get(1).and_then(|n| n.parse().ok()).unwrap_or(20)),
        _ => Err("usage: cargo xtask <codegen | ci | bench [N]>".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Every generated file: path relative to the repository root, and its contents.
fn generated() -> Vec<(PathBuf, String)> {
    let mut out: Vec<(PathBuf, String)> = muster_check::schema::generated_schemas()
        .into_iter()
        .map(|(name, text)| (PathBuf::from("schema").join(name), text))
        .collect();
    out.push((
        PathBuf::from("docs/checks.md"),
        muster_check::docs::checks_markdown(),
    ));
    out
}

fn codegen() -> Result<(), String> {
    let root = root();
    for (path, text) in generated() {
        let target = root.join(&path);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        muster_map::write_atomic(&target, text.as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn run(step: &str, program: &str, args: &[&str]) -> Result<(), String> {
    println!("==> {step}");
    let status = Command::new(program)
        .args(args)
        .current_dir(root())
        .status()
        .map_err(|e| format!("{step}: cannot start `{program}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{step} failed"))
    }
}

fn ci() -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    run("format", &cargo, &["fmt", "--all", "--", "--check"])?;
    run(
        "clippy",
        &cargo,
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
    )?;
    run("tests", &cargo, &["test", "--workspace"])?;
    run(
        "validate bundled data",
        &cargo,
        &["run", "--quiet", "-p", "muster-cli", "--", "validate"],
    )?;
    Ok(())
}

fn bench(runs: usize) -> Result<(), String> {
    let root = root();
    let display = |p: &Path| p.display().to_string();
    let mut times = Vec::new();
    let mut files = 0;
    let mut diagnostics = 0;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let (_db, indexes, diags) = muster_check::validate_paths(&root, &[], &display);
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        files = indexes.len();
        diagnostics = diags.len();
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    println!("| benchmark | files | runs | median ms | fastest ms | slowest ms |");
    println!("|---|---|---|---|---|---|");
    println!(
        "| validate bundled corpus (load, parse, compile maps, all checks; {diagnostics} diagnostics) | {files} | {} | {median:.2} | {:.2} | {:.2} |",
        times.len(),
        times[0],
        times[times.len() - 1]
    );
    Ok(())
}
