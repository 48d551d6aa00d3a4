//! `cargo xtask fuzz [--time S] [--seed N] [TARGET..]`: structure-aware mutation fuzzing
//! on stable Rust, in process.
//!
//! Seeds are the bundled data and the check fixtures. A mutation works on the tokens of
//! `muster-syntax`'s lexer, so most mutants still parse and reach the checks: a token
//! deleted, duplicated or swapped with another; a number made extreme (0, -1, 65535,
//! 1e308, NaN); a string replaced by a hex id, an empty string or multi-byte text; a
//! value wrapped in brackets; a line duplicated; the text cut short. Each execution is
//! watched: a panic, a run over one second (ten in an unoptimised build), a span
//! outside the file or a peak RSS above 500 MB is a finding, saved under `target/fuzz/<target>/` as a reproducer with what
//! went wrong; the run then fails.
//!
//! Targets: `loader` (syntax tree, typed read, loader diagnostics), `checks` (a mutated
//! scenario checked against the bundled project), `compile` (a mutated map compiled to
//! its terrain table or open table), `render` (a mutated scenario drawn on the bundled
//! project as SVG and as an HTML page; the SVG must stay well-formed XML), `lsp` (a
//! mutated scenario opened in the language server, then hover, completion, definition,
//! references, code actions, symbols and folding at places in it; a request that fails
//! inside the server, where its panics are caught, is a finding), `cost` (below).
//!
//! `cost` looks for inputs that cost more than their size. Its mutations grow a file: a
//! list element repeated, a line repeated, a bracketed value put inside itself again
//! and again (`AnyOf([AnyOf([..])])`), on top of the mutations above, with inputs up to
//! 4 MiB. One *execution* of `cost` is: draw a target size (in one of the octaves from
//! 512 B–1 KiB up to 2–4 MiB, each 0.7 times as likely as the one below: about one
//! target in 230 is of 2–4 MiB, one in 100 over 1 MiB, and most are small and quick;
//! the campaign prints how many inputs of each size it ran), take a seed or a grown input no larger than
//! that, apply one or two mutations (three in four growing, up to the target size), and
//! run the result once through one command chosen at random for its kind, in process:
//! a scenario through the checks (`checks`), the board as SVG at turns 1 and 4 and as an
//! HTML page after a full validation (`render`), the summary (`summary`), or an editor
//! visit in the language server (`lsp`: open, hover, completion, definition, references
//! and code actions at three places, symbols, folding, close); a map through the
//! compiler (`compile`) or the checks (`map-checks`); any other file through the
//! loader. The run is measured in the CPU time of its process (so that work spread over
//! threads counts) and its peak RSS (started again before each run: `clear_refs`, on
//! Linux; a worker that still holds over 150 MB after a run, memory its allocator kept,
//! is replaced by a fresh one for the time left, so that later runs' peaks are their
//! own). A run over one second of CPU or with a peak RSS above 500 MB is a finding;
//! so are a panic and a span outside the file, and a run that does not end within 30 s
//! (300 s unoptimised; saved, and its worker stops). The grown inputs whose CPU time per byte is highest
//! in their octave of size become seeds of their own, so the campaign climbs towards
//! the expensive paths at every size.
//!
//! The campaign runs one worker process per core (`--workers N` to choose), each the
//! xtask binary itself with `--worker K` and a seed of its own, for the whole time; a
//! worker prints its report as one JSON line, and the campaign sums them: executions,
//! findings, executions by size and by command, the costliest run and the highest
//! peak. The one second is meant for an optimised build: run the campaign as
//! `cargo run --release -p xtask -- fuzz --time 600 cost`. In an unoptimised build
//! (`cargo xtask fuzz cost`, `cargo xtask ci`) the limit is ten seconds, as for the
//! other targets, and inputs stay under 1 MiB.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use muster_db::load::{Document, load_bytes};
use muster_db::project::{Db, project_files};
use muster_syntax::{Dialect, TokenKind};

mod cost;
use cost::*;

const TARGETS: [&str; 6] = ["loader", "checks", "compile", "render", "lsp", "cost"];
/// The targets `cargo xtask ci` runs: all but `cost`, whose 600 s campaign still finds
/// runs over the limit on inputs of one to four MiB (checks, render, compile and the
/// language server); run it by hand, optimised.
pub const CI_TARGETS: [&str; 5] = ["loader", "checks", "compile", "render", "lsp"];
/// A run slower than this is a finding: one second for an optimised build, as the
/// limit says; an unoptimised build (`cargo xtask`, which CI runs) is about ten times
/// slower, so it gets ten.
const SLOW: Duration = Duration::from_secs(if cfg!(debug_assertions) { 10 } else { 1 });
const MAX_RSS_KB: i64 = 500 * 1024;

thread_local! {
    /// Whether this thread is inside an execution, whose panics are findings.
    static IN_RUN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Installs a panic hook that is silent inside an execution (its panic is a finding,
/// reported with the reproducer) and prints the message and place anywhere else, so
/// that a panic of the fuzzer itself is never a silent exit; returns the hook it
/// replaced.
fn quiet_inside_runs() -> Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        if !IN_RUN.with(std::cell::Cell::get) {
            eprintln!("fuzz: the fuzzer itself panicked: {info}");
        }
    }));
    previous
}

/// Runs one execution with its panics caught (and not printed).
fn in_run<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    IN_RUN.with(|r| r.set(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    IN_RUN.with(|r| r.set(false));
    result
}

/// What one target found in one campaign.
#[derive(Default)]
pub struct Outcome {
    pub executions: u64,
    pub seconds: f64,
    pub findings: Vec<String>,
}

pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let mut seconds = 10u64;
    let mut seed = 0x6d75_7374_6572u64;
    let mut targets: Vec<String> = Vec::new();
    let mut workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut worker = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--time" => seconds = it.next().and_then(|s| s.parse().ok()).ok_or("--time S")?,
            "--seed" => seed = it.next().and_then(|s| s.parse().ok()).ok_or("--seed N")?,
            "--workers" => {
                workers = it
                    .next()
                    .and_then(|s| s.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--workers N")?;
            }
            // A saved input run once through one command, measured: for profiling a
            // finding (`--replay FILE COMMAND`).
            "--replay" => {
                let (Some(file), Some(command)) = (it.next(), it.next()) else {
                    return Err("--replay FILE COMMAND".to_string());
                };
                return replay(root, Path::new(file), command);
            }
            // One worker process of the `cost` campaign, started by the campaign itself:
            // it prints its report as one JSON line.
            "--worker" => {
                worker = Some(it.next().and_then(|s| s.parse().ok()).ok_or("--worker K")?);
            }
            t if TARGETS.contains(&t) => targets.push(t.to_string()),
            other => {
                return Err(format!(
                    "unknown fuzz target or option `{other}` (targets: {})",
                    TARGETS.join(", ")
                ));
            }
        }
    }
    if targets.is_empty() {
        targets = TARGETS.iter().map(|t| t.to_string()).collect();
    }
    let seeds = seeds(root)?;
    if let Some(k) = worker {
        let pool = cost_pool(&seeds);
        let report = cost_worker(root, &pool, Duration::from_secs(seconds), seed, k)?;
        println!(
            "{COST_REPORT}{}",
            serde_json::to_string(&report).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    println!(
        "fuzz: {} seeds, {seconds} s per target, seed {seed}",
        seeds.len()
    );
    println!("| target | executions | per second | findings |");
    println!("|---|---|---|---|");
    let mut failed = false;
    for target in &targets {
        let outcome = if target == "cost" {
            cost_campaign(seconds, seed, workers)?
        } else {
            campaign(root, target, &seeds, Duration::from_secs(seconds), seed)?
        };
        println!(
            "| {target} | {} | {:.0} | {} |",
            outcome.executions,
            outcome.executions as f64 / outcome.seconds.max(1e-9),
            outcome.findings.len()
        );
        for f in &outcome.findings {
            println!("  {f}");
        }
        failed |= !outcome.findings.is_empty();
    }
    if failed {
        Err("the fuzzer found problems; reproducers are under target/fuzz/".to_string())
    } else {
        Ok(())
    }
}

/// The bundled data and every fixture, with their file names (the name decides the
/// kind of a file without a top-level struct name).
fn seeds(root: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut paths = project_files(root);
    paths.extend(muster_db::project::data_files_under(
        &root.join("crates/muster-check/tests/fixtures"),
    ));
    let mut out = Vec::new();
    for p in paths {
        let name = p
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let bytes = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        if bytes.len() <= 256 * 1024 {
            out.push((name, bytes));
        }
    }
    if out.is_empty() {
        return Err("no seeds found".to_string());
    }
    Ok(out)
}

/// The current input, for the watchdog to save when a run takes too long.
struct Current {
    name: String,
    bytes: Vec<u8>,
}

fn save(root: &Path, target: &str, what: &str, name: &str, bytes: &[u8]) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    let dir = root.join("target/fuzz").join(target);
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join(format!("{what}-{:016x}-{name}", h.finish()));
    let _ = std::fs::write(&file, bytes);
    format!("{what}: {}", file.display())
}

fn campaign(
    root: &Path,
    target: &str,
    seeds: &[(String, Vec<u8>)],
    time: Duration,
    seed: u64,
) -> Result<Outcome, String> {
    let mut rng = fastrand::Rng::with_seed(seed ^ target.len() as u64);
    let pool: Vec<&(String, Vec<u8>)> = seeds
        .iter()
        .filter(|(name, _)| match target {
            "checks" | "render" | "lsp" => name.ends_with(".scenario.ron"),
            "compile" => name.ends_with(".map.ron"),
            _ => true,
        })
        .collect();
    if pool.is_empty() {
        return Err(format!("no seeds for `{target}`"));
    }
    let harness = Harness::new(root, target)?;
    // The watchdog: a run that takes longer than `SLOW` is saved and ends the campaign
    // (a thread cannot be stopped from outside, so the process exits).
    let current = Arc::new(Mutex::new(Current {
        name: String::new(),
        bytes: Vec::new(),
    }));
    let started = Arc::new(AtomicU64::new(0));
    let epoch = Instant::now();
    {
        let (current, started, root, target) = (
            Arc::clone(&current),
            Arc::clone(&started),
            root.to_path_buf(),
            target.to_string(),
        );
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(100));
                let since = started.load(Ordering::Relaxed);
                if since == 0 {
                    continue;
                }
                let now = epoch.elapsed().as_millis() as u64;
                if now.saturating_sub(since) > SLOW.as_millis() as u64 * 5 {
                    let c = current.lock().unwrap_or_else(|p| p.into_inner());
                    let saved = save(&root, &target, "timeout", &c.name, &c.bytes);
                    eprintln!(
                        "fuzz: a run of `{target}` took over {} s; {saved}",
                        SLOW.as_secs() * 5
                    );
                    std::process::exit(1);
                }
            }
        });
    }
    let previous_hook = quiet_inside_runs();
    let mut outcome = Outcome::default();
    let begin = Instant::now();
    while begin.elapsed() < time && outcome.findings.len() < 10 {
        let (name, original) = pool[rng.usize(..pool.len())];
        let mut bytes = original.clone();
        for _ in 0..rng.usize(1..4) {
            bytes = mutate(&mut rng, &bytes);
        }
        {
            let mut c = current.lock().unwrap_or_else(|p| p.into_inner());
            c.name.clone_from(name);
            c.bytes.clone_from(&bytes);
        }
        started.store(epoch.elapsed().as_millis().max(1) as u64, Ordering::Relaxed);
        let run_start = Instant::now();
        let result = in_run(|| harness.run(name, &bytes));
        let took = run_start.elapsed();
        started.store(0, Ordering::Relaxed);
        outcome.executions += 1;
        let problem = match result {
            Err(_) => Some("panic".to_string()),
            Ok(Err(span)) => Some(format!("span outside the file: {span}")),
            Ok(Ok(())) if took > SLOW => Some(format!("slow ({} ms)", took.as_millis())),
            Ok(Ok(())) => None,
        }
        .or_else(|| (max_rss_kb() > MAX_RSS_KB).then(|| "peak RSS above 500 MB".to_string()));
        if let Some(problem) = problem {
            let saved = save(root, target, "finding", name, &bytes);
            outcome.findings.push(format!("{problem}; {saved}"));
            if problem.starts_with("peak RSS") {
                break;
            }
        }
    }
    std::panic::set_hook(previous_hook);
    outcome.seconds = begin.elapsed().as_secs_f64();
    Ok(outcome)
}

fn max_rss_kb() -> i64 {
    nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_SELF)
        .map_or(0, |u| u.max_rss())
}

/// The bundled rules systems, for compiling maps.
fn bundled_systems(root: &Path) -> Vec<muster_model::system::RulesSystem> {
    let display = |p: &Path| p.display().to_string();
    let mut systems = Vec::new();
    for p in project_files(root) {
        if p.to_string_lossy().ends_with(".system.ron") {
            let loaded = muster_db::load::load_path(&p, &display(&p));
            if let Some(Document::System(s)) = loaded.doc {
                systems.push(s);
            }
        }
    }
    systems
}

/// What a target needs between runs: for `checks`, the bundled project loaded once and
/// a scratch folder inside it; for `compile`, the rules systems.
struct Harness {
    target: String,
    db: Option<Mutex<Db>>,
    /// The project copy and the files loaded into `db`, to load it again after a run
    /// that panicked half-way through (its scenario was never dropped).
    project: PathBuf,
    base: Vec<PathBuf>,
    base_len: usize,
    scratch: PathBuf,
    systems: Vec<muster_model::system::RulesSystem>,
    /// The language server of the `lsp` target, kept across executions as an editor
    /// session would be.
    server: Option<Mutex<muster_lsp::Server>>,
    /// SVGs drawn by the `cost` target's render commands, to check once the run is over.
    drawn: Mutex<Vec<String>>,
}

impl Harness {
    fn new(root: &Path, target: &str) -> Result<Harness, String> {
        Self::new_in(root, target, &root.join("target/fuzz/project"))
    }

    /// [`Harness::new`] with the project copy at `project` (each worker of the `cost`
    /// campaign has its own).
    fn new_in(root: &Path, target: &str, project: &Path) -> Result<Harness, String> {
        let mut harness = Harness {
            target: target.to_string(),
            db: None,
            project: PathBuf::new(),
            base: Vec::new(),
            base_len: 0,
            scratch: PathBuf::new(),
            systems: Vec::new(),
            server: None,
            drawn: Mutex::new(Vec::new()),
        };
        let display = |p: &Path| p.display().to_string();
        match target {
            "checks" | "render" | "lsp" | "cost" => {
                // A copy of the bundled project: mutants are written into it, never
                // into the repository's own data.
                let project = project.to_path_buf();
                let _ = std::fs::remove_dir_all(&project);
                for sub in ["scenarios", "maps"] {
                    crate::copy_dir(&root.join(sub), &project.join(sub))
                        .map_err(|e| format!("copying the project: {e}"))?;
                }
                let base: Vec<PathBuf> = project_files(&project)
                    .into_iter()
                    .filter(|p| !p.to_string_lossy().ends_with(".scenario.ron"))
                    .collect();
                let db = Db::load(&project, &base, &display);
                harness.base_len = db.files.len();
                harness.db = Some(Mutex::new(db));
                harness.scratch = project.join("scenarios/lrf/fuzz-case.scenario.ron");
                harness.project = project;
                harness.base = base;
                if target == "lsp" || target == "cost" {
                    harness.server = Some(Mutex::new(muster_lsp::Server::default()));
                }
                if target == "cost" {
                    harness.systems = bundled_systems(root);
                }
            }
            "compile" => harness.systems = bundled_systems(root),
            _ => {}
        }
        Ok(harness)
    }

    /// Whether the SVGs drawn since the last call are well-formed XML.
    fn check_drawn(&self) -> Result<(), String> {
        let drawn = std::mem::take(&mut *self.drawn.lock().unwrap_or_else(|p| p.into_inner()));
        for svg in drawn {
            roxmltree::Document::parse(&svg)
                .map_err(|e| format!("the SVG is not well-formed: {e}"))?;
        }
        Ok(())
    }

    /// One execution; `Err` describes a span outside the file.
    fn run(&self, name: &str, bytes: &[u8]) -> Result<(), String> {
        self.run_as(&self.target, name, bytes)
    }

    /// Runs `f` on the bundled project with `bytes` written at `scratch` inside it: the
    /// project loaded again first if a run that panicked left a file in it, the scratch
    /// file removed after. Nothing runs when there is no project or the file can't be
    /// written.
    fn in_project(
        &self,
        scratch: &Path,
        bytes: &[u8],
        f: impl FnOnce(&mut Db, &(dyn Fn(&Path) -> String + Sync)) -> Result<(), String>,
    ) -> Result<(), String> {
        let Some(db) = &self.db else { return Ok(()) };
        let mut db = db.lock().unwrap_or_else(|p| p.into_inner());
        let display = |p: &Path| p.display().to_string();
        if db.files.len() != self.base_len {
            *db = Db::load(&self.project, &self.base, &display);
        }
        if std::fs::write(scratch, bytes).is_err() {
            return Ok(());
        }
        let result = f(&mut db, &display);
        let _ = std::fs::remove_file(scratch);
        result
    }

    /// One execution of `target`'s path (the `cost` target takes the others' in turn).
    fn run_as(&self, target: &str, name: &str, bytes: &[u8]) -> Result<(), String> {
        match target {
            "loader" => {
                let loaded = load_bytes(Path::new(name), name, bytes.to_vec());
                spans_inside(&loaded.diagnostics)
            }
            "checks" => self.in_project(&self.scratch, bytes, |db, display| {
                let (_, diagnostics) = muster_check::check_leaves(
                    db,
                    std::slice::from_ref(&self.scratch),
                    display,
                    &muster_check::Config::default(),
                );
                spans_inside(&diagnostics)
            }),
            "render" => self.in_project(&self.scratch, bytes, |db, display| {
                db.with_leaves(
                    std::slice::from_ref(&self.scratch),
                    display,
                    &muster_db::project::Overlay::new(),
                    |db, at| {
                        let config = muster_check::Config::default();
                        let diagnostics = muster_check::validate(db, at, &config);
                        spans_inside(&diagnostics)?;
                        for &index in at {
                            for turn in [1, 4] {
                                let options = muster_render::Options { turn, units: true };
                                let drawn =
                                    muster_render::render(db, index, &diagnostics, &options);
                                roxmltree::Document::parse(&drawn.svg)
                                    .map_err(|e| format!("the SVG is not well-formed: {e}"))?;
                                let name_of = |d: &muster_db::Diagnostic| d.file.name.clone();
                                let _ =
                                    muster_render::html::page(&drawn, &diagnostics, &name_of, None);
                            }
                        }
                        Ok(())
                    },
                )
            }),
            // `muster render` (turn 1, SVG) and `muster render --turn 4 -o page.html`:
            // drawn within the run, their SVG checked after it (`check_drawn`), outside
            // what the run is measured on.
            "render-svg" | "render-page" => self.in_project(&self.scratch, bytes, |db, display| {
                db.with_leaves(
                    std::slice::from_ref(&self.scratch),
                    display,
                    &muster_db::project::Overlay::new(),
                    |db, at| {
                        let config = muster_check::Config::default();
                        let diagnostics = muster_check::validate(db, at, &config);
                        spans_inside(&diagnostics)?;
                        let turn = if target == "render-svg" { 1 } else { 4 };
                        for &index in at {
                            let options = muster_render::Options { turn, units: true };
                            let drawn = muster_render::render(db, index, &diagnostics, &options);
                            if target == "render-page" {
                                let name_of = |d: &muster_db::Diagnostic| d.file.name.clone();
                                let page =
                                    muster_render::html::page(&drawn, &diagnostics, &name_of, None);
                                std::hint::black_box(page);
                            }
                            self.drawn
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .push(drawn.svg);
                        }
                        Ok(())
                    },
                )
            }),
            "lsp" => {
                let Some(server) = &self.server else {
                    return Ok(());
                };
                let mut server = server.lock().unwrap_or_else(|p| p.into_inner());
                lsp_session(&mut server, &self.scratch, bytes)
            }
            "map-checks" => {
                let scratch = self.project.join("maps/lrf/fuzz-case.map.ron");
                self.in_project(&scratch, bytes, |db, display| {
                    let (_, diagnostics) = muster_check::check_leaves(
                        db,
                        std::slice::from_ref(&scratch),
                        display,
                        &muster_check::Config::default(),
                    );
                    spans_inside(&diagnostics)
                })
            }
            "summary" => self.in_project(&self.scratch, bytes, |db, display| {
                db.with_leaves(
                    std::slice::from_ref(&self.scratch),
                    display,
                    &muster_db::project::Overlay::new(),
                    |db, at| {
                        for &index in at {
                            let cx = muster_semantic::FileCx::new(db, index)
                                .and_then(muster_semantic::ScenarioCx::new);
                            if let Some(cx) = cx {
                                let summary = muster_ide::summary::summarize(&cx);
                                let _ = serde_json::to_string(&summary);
                            }
                        }
                    },
                );
                Ok(())
            }),
            "compile" => {
                let loaded = load_bytes(Path::new(name), name, bytes.to_vec());
                if let Some(Document::Map(map)) = &loaded.doc
                    && let Some(system) = self.systems.iter().find(|s| s.id == map.system)
                {
                    if muster_map::grid_of(map).is_some() {
                        let table = muster_map::compile(map, system, "fuzz");
                        let _ = muster_map::to_json(&table);
                    } else if let Some(table) = muster_map::compile_table(map, system, "fuzz") {
                        let _ = muster_map::to_json(&table);
                    }
                }
                spans_inside(&loaded.diagnostics)
            }
            _ => Ok(()),
        }
    }
}

/// One editor visit: open the mutant, ask about places in it, close it. `Err` when the
/// server answers with an internal error or logs a failure (its panics are caught).
fn lsp_session(server: &mut muster_lsp::Server, path: &Path, bytes: &[u8]) -> Result<(), String> {
    use lsp_server::{Message, Notification, Request, RequestId};
    use serde_json::json;
    let text = String::from_utf8_lossy(bytes).into_owned();
    let Some(uri) = muster_lsp::uri::from_path(path) else {
        return Ok(());
    };
    let uri = uri.as_str().to_string();
    let mut out = Vec::new();
    let mut send = |server: &mut muster_lsp::Server, message: Message| {
        let (answers, _) = server.handle(message);
        out.extend(answers);
    };
    send(
        server,
        Message::Notification(Notification::new(
            "textDocument/didOpen".into(),
            json!({"textDocument": {"uri": uri, "languageId": "ron", "version": 1, "text": text}}),
        )),
    );
    let published = server.publish();
    let lines = muster_lsp::pos::Lines::new(&text);
    let doc = json!({"uri": uri});
    let mut id = 0;
    for k in 1..4 {
        let position = lines.position(text.len() * k / 4);
        for method in [
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/definition",
            "textDocument/references",
        ] {
            id += 1;
            let params = json!({
                "textDocument": doc, "position": position,
                "context": {"includeDeclaration": true},
            });
            send(
                server,
                Message::Request(Request::new(RequestId::from(id), method.into(), params)),
            );
        }
        id += 1;
        let params = json!({
            "textDocument": doc,
            "range": {"start": position, "end": position},
            "context": {"diagnostics": []},
        });
        send(
            server,
            Message::Request(Request::new(
                RequestId::from(id),
                "textDocument/codeAction".into(),
                params,
            )),
        );
    }
    for method in ["textDocument/documentSymbol", "textDocument/foldingRange"] {
        id += 1;
        send(
            server,
            Message::Request(Request::new(
                RequestId::from(id),
                method.into(),
                json!({"textDocument": doc}),
            )),
        );
    }
    send(
        server,
        Message::Notification(Notification::new(
            "textDocument/didClose".into(),
            json!({"textDocument": doc}),
        )),
    );
    let _ = server.publish();
    for message in out.iter().chain(&published) {
        match message {
            Message::Response(r) => {
                if let Err(e) = &r.response_result
                    && e.code == lsp_server::ErrorCode::InternalError as i32
                {
                    return Err(format!("the server failed: {}", e.message));
                }
            }
            Message::Notification(n) if n.method == "window/logMessage" => {
                let said = n.params["message"].as_str().unwrap_or_default();
                if said.contains("failed") {
                    return Err(format!("the server logged: {said}"));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn spans_inside(diagnostics: &[muster_db::Diagnostic]) -> Result<(), String> {
    for d in diagnostics {
        let text = &d.file.text;
        let spans = std::iter::once(&d.span).chain(d.labels.iter().map(|l| &l.span));
        for span in spans {
            if span.start > span.end
                || span.end > text.len()
                || !text.is_char_boundary(span.start)
                || !text.is_char_boundary(span.end)
            {
                return Err(format!(
                    "{} {}..{} in a file of {} bytes",
                    d.code,
                    span.start,
                    span.end,
                    text.len()
                ));
            }
        }
    }
    Ok(())
}

/// Extreme numbers, odd strings and stray tokens that mutations put in.
const NUMBERS: [&str; 9] = [
    "0",
    "-1",
    "255",
    "256",
    "65535",
    "4294967296",
    "1e308",
    "NaN",
    "-0.0",
];
const STRINGS: [&str; 10] = [
    "\"\"",
    "\"9999\"",
    "\"0000\"",
    "\"0101\"",
    "\"é漢\"",
    "\"\\u{0}\"",
    "\"a\\\"b\"",
    "\"x\"",
    // Characters no output may show raw (and XML forbids in part), written raw and
    // as RON escapes.
    "\"\u{fffe}\u{202e}\x1b[31m\n::error::x\u{7}\"",
    "\"\\u{fffe}\\u{ffff}\\u{1b}\"",
];
const INSERTS: [&str; 10] = ["(", ")", "[", "]", "{", "}", ",", ":", "\u{feff}", "// c\n"];

/// One structure-aware mutation of `bytes`.
fn mutate(rng: &mut fastrand::Rng, bytes: &[u8]) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return byte_mutation(rng, bytes);
    };
    let tree = muster_syntax::parse(text, Dialect::Ron);
    let tokens: Vec<(TokenKind, std::ops::Range<usize>)> = tree
        .tokens()
        .filter(|t| !t.kind.is_trivia())
        .map(|t| (t.kind, t.range()))
        .collect();
    if tokens.is_empty() || rng.u8(..20) == 0 {
        return byte_mutation(rng, bytes);
    }
    let pick = |rng: &mut fastrand::Rng| tokens[rng.usize(..tokens.len())].clone();
    let replace = |range: std::ops::Range<usize>, with: &str| splice(text, range, with);
    match rng.u8(..9) {
        0 => {
            let (_, r) = pick(rng);
            replace(r, "")
        }
        1 => {
            let (_, r) = pick(rng);
            let token = text[r.clone()].to_string();
            replace(r.start..r.start, &format!("{token} "))
        }
        2 => {
            let (_, a) = pick(rng);
            let (_, b) = pick(rng);
            let (first, second) = if a.start <= b.start { (a, b) } else { (b, a) };
            if first.end > second.start {
                return bytes.to_vec();
            }
            let mut out = String::new();
            out.push_str(&text[..first.start]);
            out.push_str(&text[second.clone()]);
            out.push_str(&text[first.end..second.start]);
            out.push_str(&text[first.clone()]);
            out.push_str(&text[second.end..]);
            out.into_bytes()
        }
        3 | 4 => {
            let numbers: Vec<_> = tokens.iter().filter(|t| t.0 == TokenKind::Number).collect();
            match numbers.get(rng.usize(..numbers.len().max(1))) {
                Some((_, r)) => replace(r.clone(), NUMBERS[rng.usize(..NUMBERS.len())]),
                None => byte_mutation(rng, bytes),
            }
        }
        5 => {
            let strings: Vec<_> = tokens.iter().filter(|t| t.0 == TokenKind::String).collect();
            match strings.get(rng.usize(..strings.len().max(1))) {
                Some((_, r)) => replace(r.clone(), STRINGS[rng.usize(..STRINGS.len())]),
                None => byte_mutation(rng, bytes),
            }
        }
        6 => {
            let (_, r) = pick(rng);
            replace(r.start..r.start, INSERTS[rng.usize(..INSERTS.len())])
        }
        7 => {
            // Duplicate a whole line.
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            let k = rng.usize(..lines.len().max(1));
            let mut out = String::new();
            for (i, line) in lines.iter().enumerate() {
                out.push_str(line);
                if i == k {
                    out.push_str(line);
                }
            }
            out.into_bytes()
        }
        _ => {
            // Cut the text short at a token boundary.
            let (_, r) = pick(rng);
            text.as_bytes()[..r.start].to_vec()
        }
    }
}

/// `text` with the bytes of `range` replaced by `with`.
fn splice(text: &str, range: std::ops::Range<usize>, with: &str) -> Vec<u8> {
    let mut out = String::with_capacity(text.len() + with.len());
    out.push_str(&text[..range.start]);
    out.push_str(with);
    out.push_str(&text[range.end..]);
    out.into_bytes()
}

fn byte_mutation(rng: &mut fastrand::Rng, bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if out.is_empty() {
        out.push(rng.u8(..));
        return out;
    }
    let at = rng.usize(..out.len());
    match rng.u8(..3) {
        0 => {
            out.remove(at);
        }
        1 => out.insert(at, rng.u8(..)),
        _ => out[at] = rng.u8(..),
    }
    out
}
