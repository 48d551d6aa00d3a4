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
//! list element repeated up to many thousand times, a line repeated, a bracketed value
//! put inside itself again and again (`AnyOf([AnyOf([..])])`), on top of the mutations
//! above, with inputs up to 4 MiB. The inputs whose CPU time per byte is highest become
//! seeds of their own, so the campaign climbs towards the expensive paths. A mutant
//! scenario goes in turn through the checks, the board (SVG and HTML page) with the
//! summary, and the language server; a mutant map is compiled and checked; any other
//! file is loaded. A run over one second of CPU time (the process's, so that work
//! spread over threads counts) or with a peak RSS above 500 MB (the peak is started
//! again before each run, on Linux) is a finding. The one
//! second is meant for an optimised build: run the campaign as
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

const TARGETS: [&str; 6] = ["loader", "checks", "compile", "render", "lsp", "cost"];
/// The targets `cargo xtask ci` runs: all but `cost`, whose findings on multi-MB inputs
/// (the language server re-analysing on every request, render of large sample
/// deployments) are still open; run it by hand, optimised.
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
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--time" => seconds = it.next().and_then(|s| s.parse().ok()).ok_or("--time S")?,
            "--seed" => seed = it.next().and_then(|s| s.parse().ok()).ok_or("--seed N")?,
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
    println!(
        "fuzz: {} seeds, {seconds} s per target, seed {seed}",
        seeds.len()
    );
    println!("| target | executions | per second | findings |");
    println!("|---|---|---|---|");
    let mut failed = false;
    for target in &targets {
        let outcome = campaign(root, target, &seeds, Duration::from_secs(seconds), seed)?;
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
    if target == "cost" {
        return cost_campaign(root, &pool, time, seed);
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
}

impl Harness {
    fn new(root: &Path, target: &str) -> Result<Harness, String> {
        let mut harness = Harness {
            target: target.to_string(),
            db: None,
            project: PathBuf::new(),
            base: Vec::new(),
            base_len: 0,
            scratch: PathBuf::new(),
            systems: Vec::new(),
            server: None,
        };
        let display = |p: &Path| p.display().to_string();
        match target {
            "checks" | "render" | "lsp" | "cost" => {
                // A copy of the bundled project: mutants are written into it, never
                // into the repository's own data.
                let project = root.join("target/fuzz/project");
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
/// Grown inputs kept as seeds of their own, the costliest per byte.
const COST_POOL: usize = 48;

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

/// The `cost` campaign: growing mutations, the costliest inputs per byte kept as new
/// seeds, every run measured in CPU time and peak memory.
fn cost_campaign(
    root: &Path,
    seeds: &[&(String, Vec<u8>)],
    time: Duration,
    seed: u64,
) -> Result<Outcome, String> {
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x636f_7374);
    let harness = Harness::new(root, "cost")?;
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // Grown inputs with their CPU nanoseconds per byte.
    let mut grown: Vec<(String, Vec<u8>, f64)> = Vec::new();
    let mut outcome = Outcome::default();
    let (mut largest, mut costliest) = (0usize, Duration::ZERO);
    let begin = Instant::now();
    // Up to a hundred findings, each saved: a campaign measures how often runs are slow.
    while begin.elapsed() < time && outcome.findings.len() < 100 {
        let (name, original) = if grown.is_empty() || rng.bool() {
            let (n, b) = seeds[rng.usize(..seeds.len())];
            (n.clone(), b.clone())
        } else {
            let (n, b, _) = &grown[rng.usize(..grown.len())];
            (n.clone(), b.clone())
        };
        let mut bytes = original;
        for _ in 0..rng.usize(1..3) {
            bytes = if rng.u8(..4) == 0 {
                mutate(&mut rng, &bytes)
            } else {
                grow(&mut rng, &bytes, COST_MAX_BYTES)
            };
        }
        bytes.truncate(COST_MAX_BYTES);
        let path = if name.ends_with(".scenario.ron") {
            ["checks", "render", "summary", "lsp"][(outcome.executions % 4) as usize]
        } else if name.ends_with(".map.ron") {
            ["compile", "map-checks"][(outcome.executions % 2) as usize]
        } else {
            "loader"
        };
        reset_peak_rss();
        let cpu_before = process_cpu();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            harness.run_as(path, &name, &bytes)
        }));
        let cpu = process_cpu().saturating_sub(cpu_before);
        outcome.executions += 1;
        largest = largest.max(bytes.len());
        costliest = costliest.max(cpu);
        let problem = match result {
            Err(_) => Some("panic".to_string()),
            Ok(Err(span)) => Some(format!("span outside the file: {span}")),
            Ok(Ok(())) if cpu > SLOW => Some(format!(
                "slow ({} ms of CPU for {} bytes, {path})",
                cpu.as_millis(),
                bytes.len()
            )),
            Ok(Ok(())) => None,
        }
        .or_else(|| (run_peak_rss_kb() > MAX_RSS_KB).then(|| "peak RSS above 500 MB".to_string()));
        if let Some(problem) = problem {
            let saved = save(root, "cost", "finding", &name, &bytes);
            // The peak is each run's own, so the campaign goes on after one.
            outcome.findings.push(format!("{problem}; {saved}"));
            continue;
        }
        // Keep the input if it is among the costliest per byte.
        let score = cpu.as_nanos() as f64 / bytes.len().max(1) as f64;
        if bytes.len() > original_len(seeds, &name) {
            if grown.len() < COST_POOL {
                grown.push((name, bytes, score));
            } else if let Some(low) = grown
                .iter_mut()
                .min_by(|a, b| a.2.total_cmp(&b.2))
                .filter(|low| low.2 < score)
            {
                *low = (name, bytes, score);
            }
        }
    }
    std::panic::set_hook(previous_hook);
    outcome.seconds = begin.elapsed().as_secs_f64();
    println!(
        "cost: largest input {largest} bytes, costliest run {} ms of CPU",
        costliest.as_millis()
    );
    Ok(outcome)
}

/// The size of the seed of that name (grown inputs are kept only when larger).
fn original_len(seeds: &[&(String, Vec<u8>)], name: &str) -> usize {
    seeds
        .iter()
        .find(|(n, _)| n == name)
        .map_or(0, |(_, b)| b.len())
}

/// How many copies a growing mutation makes: mostly a few, sometimes thousands, never
/// more than `room` bytes of `unit`-byte copies.
fn copies(rng: &mut fastrand::Rng, unit: usize, room: usize) -> usize {
    let most = room / unit.max(1);
    // One time in eight a large number, so that most runs stay quick.
    let wanted = if rng.u8(..8) == 0 {
        1usize << rng.u32(6..18)
    } else {
        1usize << rng.u32(1..6)
    };
    wanted.min(most)
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
