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
//! Linux). A run over one second of CPU or with a peak RSS above 500 MB is a finding;
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

use muster_check::load::{Document, load_bytes};
use muster_check::project::{Db, project_files};
use muster_syntax::{Dialect, TokenKind};

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
    paths.extend(muster_check::project::data_files_under(
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
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
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
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| harness.run(name, &bytes)));
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
            let loaded = muster_check::load::load_path(&p, &display(&p));
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
                    &muster_check::project::Overlay::new(),
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
                                let name_of = |d: &muster_check::Diagnostic| d.file.name.clone();
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
                    &muster_check::project::Overlay::new(),
                    |db, at| {
                        let config = muster_check::Config::default();
                        let diagnostics = muster_check::validate(db, at, &config);
                        spans_inside(&diagnostics)?;
                        let turn = if target == "render-svg" { 1 } else { 4 };
                        for &index in at {
                            let options = muster_render::Options { turn, units: true };
                            let drawn = muster_render::render(db, index, &diagnostics, &options);
                            if target == "render-page" {
                                let name_of = |d: &muster_check::Diagnostic| d.file.name.clone();
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
                    &muster_check::project::Overlay::new(),
                    |db, at| {
                        for &index in at {
                            let cx = muster_check::semantic::FileCx::new(db, index)
                                .and_then(muster_check::semantic::ScenarioCx::new);
                            if let Some(cx) = cx {
                                let summary = muster_check::summary::summarize(&cx);
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

fn spans_inside(diagnostics: &[muster_check::Diagnostic]) -> Result<(), String> {
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
    let replace = |range: std::ops::Range<usize>, with: &str| {
        let mut out = String::with_capacity(text.len() + with.len());
        out.push_str(&text[..range.start]);
        out.push_str(with);
        out.push_str(&text[range.end..]);
        out.into_bytes()
    };
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

/// The largest input of the `cost` target: the size muster promises to handle in time.
const COST_MAX_BYTES: usize = if cfg!(debug_assertions) {
    1024 * 1024
} else {
    4 * 1024 * 1024
};
/// Sizes are counted by octave: an input of `n` bytes is in octave `ilog2(n)` (4 MiB is
/// octave 22).
const OCTAVES: usize = 23;
/// The smallest size an execution grows its input to: 1 KiB (octave 10).
const COST_MIN_OCTAVE: u32 = 10;
/// How much less often each octave of target size is drawn than the one below it: the
/// runs of 2–4 MiB are about one in 350, the runs under 64 KiB more than half.
const COST_OCTAVE_RATIO: f64 = 0.7;
/// Grown inputs kept as seeds of their own per octave, the costliest per byte.
const COST_POOL_PER_OCTAVE: usize = 6;
/// The line a `cost` worker prints its report on.
const COST_REPORT: &str = "cost-worker: ";
/// A run longer than this (wall clock) stops its worker: a hang, saved as a reproducer.
const COST_HANG: Duration = Duration::from_secs(if cfg!(debug_assertions) { 300 } else { 30 });

/// Starts the count of the peak resident set again (Linux: `5` in `clear_refs`), so that
/// the peak read after a run is that run's and not the campaign's.
fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The peak resident set since [`reset_peak_rss`], in kB (`VmHWM`), or the process's
/// peak where that cannot be read.
fn run_peak_rss_kb() -> i64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or_else(max_rss_kb)
}

/// CPU time of the whole process so far (every thread: checks may run in parallel).
fn process_cpu() -> Duration {
    use nix::sys::resource::{UsageWho, getrusage};
    getrusage(UsageWho::RUSAGE_SELF).map_or(Duration::ZERO, |u| {
        let t = |tv: nix::sys::time::TimeVal| {
            Duration::from_secs(tv.tv_sec().max(0) as u64)
                + Duration::from_micros(tv.tv_usec().max(0) as u64)
        };
        t(u.user_time()) + t(u.system_time())
    })
}

/// What one worker of the `cost` campaign measured (printed as JSON on one line).
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct CostReport {
    executions: u64,
    findings: Vec<String>,
    /// Executions by the octave of their input's size (`by_size[k]`: 2^k to 2^(k+1)
    /// bytes).
    by_size: Vec<u64>,
    /// Executions by command.
    by_command: std::collections::BTreeMap<String, u64>,
    largest: usize,
    /// The costliest run: CPU milliseconds, its input's size and its command.
    max_cpu_ms: u64,
    max_cpu_at: String,
    /// The highest peak resident set of a run, in kB, and that run.
    max_rss_kb: i64,
    max_rss_at: String,
}

impl CostReport {
    fn merge(&mut self, other: CostReport) {
        self.executions += other.executions;
        self.findings.extend(other.findings);
        self.by_size.resize(OCTAVES, 0);
        for (k, n) in other.by_size.iter().enumerate().take(OCTAVES) {
            self.by_size[k] += n;
        }
        for (c, n) in other.by_command {
            *self.by_command.entry(c).or_default() += n;
        }
        self.largest = self.largest.max(other.largest);
        if other.max_cpu_ms > self.max_cpu_ms || self.max_cpu_at.is_empty() {
            self.max_cpu_ms = other.max_cpu_ms;
            self.max_cpu_at = other.max_cpu_at;
        }
        if other.max_rss_kb > self.max_rss_kb || self.max_rss_at.is_empty() {
            self.max_rss_kb = other.max_rss_kb;
            self.max_rss_at = other.max_rss_at;
        }
    }
}

/// Runs a saved input (`finding-<hash>-<name>`) once through `command` (one of the
/// `cost` target's) and prints its CPU time and peak RSS.
fn replay(root: &Path, file: &Path, command: &str) -> Result<(), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let saved = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    // The seed's name after the kind of finding and the hash.
    let name = saved.splitn(3, '-').nth(2).unwrap_or(saved);
    let project = root.join("target/fuzz/project-replay");
    let harness = Harness::new_in(root, "cost", &project)?;
    reset_peak_rss();
    let before = process_cpu();
    let result = harness.run_as(command, name, &bytes);
    let cpu = process_cpu().saturating_sub(before);
    let result = result.and_then(|()| harness.check_drawn());
    println!(
        "{command} on {} bytes ({name}): {} ms of CPU, peak RSS {} MB, {result:?}",
        bytes.len(),
        cpu.as_millis(),
        run_peak_rss_kb() / 1024
    );
    let _ = std::fs::remove_dir_all(&project);
    Ok(())
}

/// The seeds of the `cost` target: every seed.
fn cost_pool(seeds: &[(String, Vec<u8>)]) -> Vec<&(String, Vec<u8>)> {
    seeds.iter().collect()
}

/// The `cost` campaign: one worker process per core (`--workers N`), each running
/// [`cost_worker`] for the whole time with a seed of its own; their reports summed.
fn cost_campaign(seconds: u64, seed: u64, workers: usize) -> Result<Outcome, String> {
    let exe = std::env::current_exe().map_err(|e| format!("the fuzzer's own path: {e}"))?;
    let begin = Instant::now();
    let children: Vec<(usize, std::process::Child)> = (0..workers)
        .map(|k| {
            let child = std::process::Command::new(&exe)
                .arg("fuzz")
                .args(["--time", &seconds.to_string()])
                .args([
                    "--seed",
                    &seed
                        .wrapping_add((k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
                        .to_string(),
                ])
                .args(["--worker", &k.to_string(), "cost"])
                .stdout(std::process::Stdio::piped())
                .spawn()
                .map_err(|e| format!("starting cost worker {k}: {e}"))?;
            Ok((k, child))
        })
        .collect::<Result<_, String>>()?;
    let mut total = CostReport::default();
    for (k, child) in children {
        let out = child
            .wait_with_output()
            .map_err(|e| format!("cost worker {k}: {e}"))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let report = text
            .lines()
            .find_map(|l| l.strip_prefix(COST_REPORT))
            .and_then(|json| serde_json::from_str::<CostReport>(json).ok());
        match report {
            Some(report) if out.status.success() => total.merge(report),
            Some(report) => {
                total.merge(report);
                total
                    .findings
                    .push(format!("cost worker {k} failed: {}", out.status));
            }
            None => total.findings.push(format!(
                "cost worker {k} stopped without a report ({}); see its message above",
                out.status
            )),
        }
    }
    println!(
        "cost: {workers} workers; largest input {} bytes; costliest run {} ms of CPU ({}); highest peak RSS {} MB ({})",
        total.largest,
        total.max_cpu_ms,
        total.max_cpu_at,
        total.max_rss_kb / 1024,
        total.max_rss_at
    );
    let sizes: Vec<String> = total
        .by_size
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(k, n)| format!("{}: {n}", octave_name(k)))
        .collect();
    println!("cost: executions by input size: {}", sizes.join(", "));
    let commands: Vec<String> = total
        .by_command
        .iter()
        .map(|(c, n)| format!("{c}: {n}"))
        .collect();
    println!("cost: executions by command: {}", commands.join(", "));
    Ok(Outcome {
        executions: total.executions,
        seconds: begin.elapsed().as_secs_f64(),
        findings: total.findings,
    })
}

/// `2^k` bytes in words: `4 KiB`, `2 MiB`.
fn octave_name(k: usize) -> String {
    match k {
        0..10 => format!("{} B", 1u64 << k),
        10..20 => format!("{} KiB", 1u64 << (k - 10)),
        _ => format!("{} MiB", 1u64 << (k - 20)),
    }
}

fn octave_of(len: usize) -> usize {
    (len.max(1).ilog2() as usize).min(OCTAVES - 1)
}

/// The size one execution grows its input to: an octave from 1 KiB to
/// [`COST_MAX_BYTES`], each [`COST_OCTAVE_RATIO`] times as likely as the one below, and
/// a size in it.
fn target_size(rng: &mut fastrand::Rng) -> usize {
    let top = COST_MAX_BYTES.ilog2();
    let weights: Vec<f64> = (COST_MIN_OCTAVE..=top)
        .map(|k| COST_OCTAVE_RATIO.powi((k - COST_MIN_OCTAVE) as i32))
        .collect();
    let mut x = rng.f64() * weights.iter().sum::<f64>();
    let mut octave = top;
    for (k, w) in (COST_MIN_OCTAVE..=top).zip(&weights) {
        if x < *w {
            octave = k;
            break;
        }
        x -= w;
    }
    let low = 1usize << (octave - 1);
    let high = 1usize << octave;
    rng.usize(low..=high).min(COST_MAX_BYTES)
}

/// The commands a mutant of that file name goes through, one per execution.
fn cost_commands(name: &str) -> &'static [&'static str] {
    if name.ends_with(".scenario.ron") || name.ends_with(".scenario.json") {
        &["checks", "render-svg", "render-page", "summary", "lsp"]
    } else if name.ends_with(".map.ron") || name.ends_with(".map.json") {
        &["compile", "map-checks"]
    } else {
        &["loader"]
    }
}

/// One worker of the `cost` campaign: growing mutations up to a size drawn per
/// execution, the costliest inputs per byte of each size kept as new seeds, every run
/// measured in CPU time and peak memory.
fn cost_worker(
    root: &Path,
    seeds: &[&(String, Vec<u8>)],
    time: Duration,
    seed: u64,
    worker: usize,
) -> Result<CostReport, String> {
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x636f_7374);
    let project = root.join("target/fuzz").join(format!("project-{worker}"));
    let harness = Harness::new_in(root, "cost", &project)?;
    // The watchdog: a run that does not end is saved and stops the worker (a thread
    // cannot be stopped from outside).
    let current = Arc::new(Mutex::new(Current {
        name: String::new(),
        bytes: Vec::new(),
    }));
    let started = Arc::new(AtomicU64::new(0));
    let epoch = Instant::now();
    {
        let (current, started, root) = (
            Arc::clone(&current),
            Arc::clone(&started),
            root.to_path_buf(),
        );
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(200));
                let since = started.load(Ordering::Relaxed);
                let now = epoch.elapsed().as_millis() as u64;
                if since != 0 && now.saturating_sub(since) > COST_HANG.as_millis() as u64 {
                    let c = current.lock().unwrap_or_else(|p| p.into_inner());
                    let saved = save(&root, "cost", "timeout", &c.name, &c.bytes);
                    eprintln!(
                        "fuzz: a run of `cost` took over {} s; {saved}",
                        COST_HANG.as_secs()
                    );
                    std::process::exit(2);
                }
            }
        });
    }
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // Grown inputs by octave, with their CPU nanoseconds per byte.
    let mut grown: Vec<Vec<(String, Vec<u8>, f64)>> = vec![Vec::new(); OCTAVES];
    let mut report = CostReport {
        by_size: vec![0; OCTAVES],
        ..CostReport::default()
    };
    let begin = Instant::now();
    // Up to a hundred findings, each saved: a campaign measures how often runs are slow.
    while begin.elapsed() < time && report.findings.len() < 100 {
        let target = target_size(&mut rng);
        // A seed or, half the time, a grown input no larger than the target.
        let kept: Vec<&(String, Vec<u8>, f64)> = grown[..=octave_of(target)]
            .iter()
            .flatten()
            .filter(|(_, b, _)| b.len() <= target)
            .collect();
        let (name, mut bytes) = if kept.is_empty() || rng.bool() {
            let (n, b) = seeds[rng.usize(..seeds.len())];
            (n.clone(), b.clone())
        } else {
            let (n, b, _) = kept[rng.usize(..kept.len())];
            (n.clone(), b.clone())
        };
        let from = bytes.len();
        for _ in 0..rng.usize(1..3) {
            bytes = if rng.u8(..4) == 0 {
                mutate(&mut rng, &bytes)
            } else {
                grow(&mut rng, &bytes, target)
            };
        }
        bytes.truncate(COST_MAX_BYTES);
        let commands = cost_commands(&name);
        let command = commands[rng.usize(..commands.len())];
        {
            let mut c = current.lock().unwrap_or_else(|p| p.into_inner());
            c.name.clone_from(&name);
            c.bytes.clone_from(&bytes);
        }
        reset_peak_rss();
        started.store(epoch.elapsed().as_millis().max(1) as u64, Ordering::Relaxed);
        let cpu_before = process_cpu();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            harness.run_as(command, &name, &bytes)
        }));
        let cpu = process_cpu().saturating_sub(cpu_before);
        started.store(0, Ordering::Relaxed);
        let rss = run_peak_rss_kb();
        let result = result.map(|r| r.and_then(|()| harness.check_drawn()));
        report.executions += 1;
        report.by_size[octave_of(bytes.len())] += 1;
        *report.by_command.entry(command.to_string()).or_default() += 1;
        report.largest = report.largest.max(bytes.len());
        let at = || format!("{} bytes, {command}, from {name}", bytes.len());
        if cpu.as_millis() as u64 >= report.max_cpu_ms {
            report.max_cpu_ms = cpu.as_millis() as u64;
            report.max_cpu_at = at();
        }
        if rss >= report.max_rss_kb {
            report.max_rss_kb = rss;
            report.max_rss_at = at();
        }
        let problem = match result {
            Err(_) => Some("panic".to_string()),
            Ok(Err(span)) => Some(format!("span outside the file: {span}")),
            Ok(Ok(())) if cpu > SLOW => Some(format!(
                "slow ({} ms of CPU for {} bytes, {command})",
                cpu.as_millis(),
                bytes.len()
            )),
            Ok(Ok(())) => None,
        }
        .or_else(|| {
            (rss > MAX_RSS_KB).then(|| {
                format!(
                    "peak RSS {} MB, above 500 MB ({} bytes, {command})",
                    rss / 1024,
                    bytes.len()
                )
            })
        });
        if let Some(problem) = problem {
            let saved = save(root, "cost", "finding", &name, &bytes);
            // The peak is each run's own, so the campaign goes on after one.
            report.findings.push(format!("{problem}; {saved}"));
            continue;
        }
        // Keep the input if it is among the costliest per byte of its size.
        let score = cpu.as_nanos() as f64 / bytes.len().max(1) as f64;
        if bytes.len() > from {
            let pool = &mut grown[octave_of(bytes.len())];
            if pool.len() < COST_POOL_PER_OCTAVE {
                pool.push((name, bytes, score));
            } else if let Some(low) = pool
                .iter_mut()
                .min_by(|a, b| a.2.total_cmp(&b.2))
                .filter(|low| low.2 < score)
            {
                *low = (name, bytes, score);
            }
        }
    }
    std::panic::set_hook(previous_hook);
    let _ = std::fs::remove_dir_all(&project);
    Ok(report)
}

/// How many copies a growing mutation makes: from one to as many as fill `room` bytes
/// with `unit`-byte copies, spread evenly over the powers of two, and the whole room one
/// time in four (the execution's target size is drawn beforehand, so filling the room
/// reaches it).
fn copies(rng: &mut fastrand::Rng, unit: usize, room: usize) -> usize {
    let most = room / unit.max(1);
    if most == 0 || rng.u8(..4) == 0 {
        return most;
    }
    let bits = usize::BITS - most.leading_zeros();
    (1usize << rng.u32(0..bits)).min(most)
}

/// A mutation that grows the text: a list element repeated, a line repeated, or a
/// bracketed value put inside itself. The result is at most `max` bytes.
fn grow(rng: &mut fastrand::Rng, bytes: &[u8], max: usize) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return bytes.to_vec();
    };
    let room = max.saturating_sub(text.len());
    let tree = muster_syntax::parse(text, Dialect::Ron);
    let tokens: Vec<(TokenKind, std::ops::Range<usize>)> = tree
        .tokens()
        .filter(|t| !t.kind.is_trivia())
        .map(|t| (t.kind, t.range()))
        .collect();
    // Matching brackets: for each opening token, the index of its closing one.
    let mut close = vec![None; tokens.len()];
    let mut stack = Vec::new();
    for (i, (_, r)) in tokens.iter().enumerate() {
        match &text[r.clone()] {
            "(" | "[" | "{" => stack.push(i),
            ")" | "]" | "}" => {
                if let Some(open) = stack.pop() {
                    close[open] = Some(i);
                }
            }
            _ => {}
        }
    }
    let groups: Vec<(usize, usize)> = close
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.map(|c| (i, c)))
        .collect();
    if groups.is_empty() || room == 0 {
        return bytes.to_vec();
    }
    let splice = |at: std::ops::Range<usize>, with: &str| {
        let mut out = String::with_capacity(text.len() + with.len());
        out.push_str(&text[..at.start]);
        out.push_str(with);
        out.push_str(&text[at.end..]);
        out.into_bytes()
    };
    match rng.u8(..3) {
        0 => {
            // A list's first element, repeated.
            let lists: Vec<&(usize, usize)> = groups
                .iter()
                .filter(|(o, c)| &text[tokens[*o].1.clone()] == "[" && c > &(o + 1))
                .collect();
            let Some(&&(open, end)) = lists.get(rng.usize(..lists.len().max(1))) else {
                return bytes.to_vec();
            };
            // The element runs to the first comma at its own depth, or the list's end.
            let mut depth = 0;
            let mut last = end;
            for (k, (_, r)) in tokens.iter().enumerate().take(end).skip(open + 1) {
                match &text[r.clone()] {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth -= 1,
                    "," if depth == 0 => {
                        last = k;
                        break;
                    }
                    _ => {}
                }
            }
            let element = &text[tokens[open + 1].1.start..tokens[last - 1].1.end];
            let unit = format!("{element}, ");
            let n = copies(rng, unit.len(), room);
            let at = tokens[open + 1].1.start;
            splice(at..at, &unit.repeat(n))
        }
        1 => {
            // A line, repeated.
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            let k = rng.usize(..lines.len().max(1));
            let line = lines.get(k).copied().unwrap_or_default();
            let n = copies(rng, line.len(), room);
            let mut out = String::with_capacity(text.len() + line.len() * n);
            for (i, l) in lines.iter().enumerate() {
                out.push_str(l);
                if i == k {
                    for _ in 0..n {
                        out.push_str(line);
                    }
                }
            }
            out.into_bytes()
        }
        _ => {
            // A bracketed value put in place of a bracketed value inside it, again and
            // again: the text between them nests one level deeper each time.
            let (outer_open, outer_close) = groups[rng.usize(..groups.len())];
            let inner: Vec<&(usize, usize)> = groups
                .iter()
                .filter(|(o, c)| *o > outer_open && *c < outer_close)
                .collect();
            let Some(&&(inner_open, inner_close)) = inner.get(rng.usize(..inner.len().max(1)))
            else {
                return bytes.to_vec();
            };
            // The value is the name before the bracket, when there is one (`AnyOf(..)`).
            let start = if outer_open > 0 && tokens[outer_open - 1].0 == TokenKind::Ident {
                tokens[outer_open - 1].1.start
            } else {
                tokens[outer_open].1.start
            };
            let inner_start = if inner_open > 0 && tokens[inner_open - 1].0 == TokenKind::Ident {
                tokens[inner_open - 1].1.start
            } else {
                tokens[inner_open].1.start
            };
            let prefix = &text[start..inner_start];
            let suffix = &text[tokens[inner_close].1.end..tokens[outer_close].1.end];
            let inner_text = &text[inner_start..tokens[inner_close].1.end];
            let n = copies(rng, prefix.len() + suffix.len(), room).min(200);
            let mut nested = String::new();
            for _ in 0..n {
                nested.push_str(prefix);
            }
            nested.push_str(inner_text);
            for _ in 0..n {
                nested.push_str(suffix);
            }
            splice(inner_start..tokens[inner_close].1.end, &nested)
        }
    }
}
