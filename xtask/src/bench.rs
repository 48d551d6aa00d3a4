//! `cargo xtask bench`: muster against floors timed in the same run, on the same files.
//!
//! The floors are what a validator cannot beat: parsing the corpus into the typed model
//! with `ron` (or `serde_json` for the JSON twins) on one thread, and validating the JSON
//! twins against the generated schemas with `jsonschema` alone on one thread. muster's
//! figures are whole processes (`target/release/muster`), measured through
//! `xtask rusage`, which runs one command as its only child and reads the kernel's
//! accounting of that child: wall time, CPU time (user + system) and peak RSS.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use muster_model::FileKind;

use crate::corpus::{Corpus, write_corpus};

/// One round of the corpus measures: muster on each corpus and the floors, timed back
/// to back.
struct Round {
    ron: Usage,
    json: Usage,
    ron_floor: f64,
    json_floor: f64,
    schema_only: f64,
}

/// One whole-process measurement.
#[derive(Clone, Copy, Default)]
pub struct Usage {
    pub wall_ms: f64,
    pub cpu_ms: f64,
    pub max_rss_kb: i64,
    pub exit: i32,
}

/// `xtask rusage CMD ARGS..`: runs the command with its output discarded and prints
/// `wall_ms cpu_ms max_rss_kb exit` on one line.
pub fn rusage(args: &[String]) -> Result<(), String> {
    use nix::sys::resource::{UsageWho, getrusage};
    let (program, rest) = args.split_first().ok_or("usage: xtask rusage CMD ARGS..")?;
    let start = Instant::now();
    let status = Command::new(program)
        .args(rest)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let wall = start.elapsed().as_secs_f64() * 1000.0;
    let usage = getrusage(UsageWho::RUSAGE_CHILDREN).map_err(|e| e.to_string())?;
    let ms = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 * 1000.0 + t.tv_usec() as f64 / 1000.0;
    println!(
        "{wall:.3} {:.3} {} {}",
        ms(usage.user_time()) + ms(usage.system_time()),
        usage.max_rss(),
        status.code().unwrap_or(-1)
    );
    Ok(())
}

fn measure(xtask: &Path, dir: &Path, command: &[&str]) -> Result<Usage, String> {
    let out = Command::new(xtask)
        .arg("rusage")
        .args(command)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run xtask rusage: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let fields: Vec<&str> = text.split_whitespace().collect();
    let parse = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (parse(0), parse(1), parse(2), parse(3)) {
        (Some(wall_ms), Some(cpu_ms), Some(rss), Some(exit)) => Ok(Usage {
            wall_ms,
            cpu_ms,
            max_rss_kb: rss as i64,
            exit: exit as i32,
        }),
        _ => Err(format!(
            "xtask rusage printed `{text}` ({})",
            String::from_utf8_lossy(&out.stderr)
        )),
    }
}

/// The run with the median wall time of `runs` measurements.
fn median_of(runs: usize, mut f: impl FnMut() -> Result<Usage, String>) -> Result<Usage, String> {
    let mut all = Vec::new();
    for _ in 0..runs.max(1) {
        all.push(f()?);
    }
    all.sort_by(|a, b| a.wall_ms.total_cmp(&b.wall_ms));
    Ok(all[all.len() / 2])
}

fn median_ms(runs: usize, mut f: impl FnMut() -> Result<(), String>) -> Result<f64, String> {
    let mut all = Vec::new();
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        f()?;
        all.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    all.sort_by(f64::total_cmp);
    Ok(all[all.len() / 2])
}

fn data_files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(extension)))
        .collect();
    out.sort();
    out
}

fn kind_of(path: &Path) -> Option<FileKind> {
    let name = path.file_name()?.to_str()?;
    let stem = name
        .strip_suffix(".ron")
        .or_else(|| name.strip_suffix(".json"))?;
    FileKind::ALL
        .into_iter()
        .find(|k| stem.ends_with(&format!(".{}", k.name())))
}

/// The typed parse floor: read and parse every file into its model type, one thread.
fn typed_floor(files: &[PathBuf], json: bool) -> Result<(), String> {
    use muster_model::counters::CounterSheet;
    use muster_model::map::MapSource;
    use muster_model::scenario::Scenario;
    use muster_model::system::RulesSystem;
    fn parse<T: serde::de::DeserializeOwned>(text: &str, json: bool) -> bool {
        if json {
            serde_json::from_str::<T>(text).is_ok()
        } else {
            ron::Options::default()
                .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
                .from_str::<T>(text)
                .is_ok()
        }
    }
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let ok = match kind_of(path) {
            Some(FileKind::System) => parse::<RulesSystem>(&text, json),
            Some(FileKind::Counters) => parse::<CounterSheet>(&text, json),
            Some(FileKind::Map) => parse::<MapSource>(&text, json),
            Some(FileKind::Scenario) => parse::<Scenario>(&text, json),
            None => continue,
        };
        if !ok {
            return Err(format!("{} does not parse", path.display()));
        }
    }
    Ok(())
}

/// The schema-only floor: read, parse to a JSON value and validate against the kind's
/// generated schema, one thread. Validators are built before timing starts.
fn schema_floor(
    files: &[PathBuf],
    validators: &[(FileKind, jsonschema::Validator)],
) -> Result<(), String> {
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let Some(kind) = kind_of(path) else { continue };
        if let Some((_, v)) = validators.iter().find(|(k, _)| *k == kind)
            && !v.is_valid(&value)
        {
            return Err(format!("{} fails its schema", path.display()));
        }
    }
    Ok(())
}

fn mb(kb: i64) -> f64 {
    kb as f64 / 1024.0
}

/// A project with one 99x99 map carrying 1,000 terrain overlays, and one map with
/// 2,000 labels on hexes off the map (2,000 diagnostics in one file).
fn stress_project(root: &Path, dir: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(dir);
    crate::copy_dir(&root.join("scenarios/lrf"), &dir.join("scenarios/lrf"))
        .map_err(|e| e.to_string())?;
    let maps = dir.join("maps");
    std::fs::create_dir_all(&maps).map_err(|e| e.to_string())?;
    let mut big = String::from(
        "Map(\n    id: \"big\",\n    name: \"Big\",\n    system: \"lrf\",\n    grid: Hex(columns: 99, rows: 99, layout: EvenColumnsDown),\n    base: \"clear\",\n    overlays: [\n",
    );
    for i in 0..1000usize {
        let (c, r) = (i % 97 + 1, (i * 7) % 97 + 1);
        big += &format!(
            "        Terrain(terrain: \"woods\", area: List([\"{c:02}{r:02}\", \"{:02}{r:02}\", \"{c:02}{:02}\"])),\n",
            c + 1,
            r + 1
        );
    }
    big += "    ],\n)\n";
    std::fs::write(maps.join("big.map.ron"), big).map_err(|e| e.to_string())?;
    let mut noisy = String::from(
        "Map(\n    id: \"noisy\",\n    name: \"Noisy\",\n    system: \"lrf\",\n    grid: Hex(columns: 15, rows: 12, layout: EvenColumnsDown),\n    base: \"clear\",\n    overlays: [\n",
    );
    for i in 0..2000usize {
        noisy += &format!(
            "        Label(hex: \"{:02}99\", text: \"off the map {i}\"),\n",
            i % 15 + 1
        );
    }
    noisy += "    ],\n)\n";
    std::fs::write(maps.join("noisy.map.ron"), noisy).map_err(|e| e.to_string())?;
    Ok(())
}

/// Content-Length framing of one JSON-RPC message.
fn lsp_send(stdin: &mut impl std::io::Write, message: &serde_json::Value) -> Result<(), String> {
    let body = message.to_string();
    write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len())
        .and_then(|()| stdin.flush())
        .map_err(|e| format!("writing to muster lsp: {e}"))
}

fn lsp_read(stdout: &mut impl std::io::BufRead) -> Result<serde_json::Value, String> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if stdout.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            return Err("muster lsp closed its output".to_string());
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length.ok_or("a message without Content-Length")?];
    stdout.read_exact(&mut body).map_err(|e| e.to_string())?;
    serde_json::from_slice(&body).map_err(|e| e.to_string())
}

/// `muster lsp` (the release binary) with jengland open: the time from sending each
/// `didChange` (the whole text, alternately edited and restored) to receiving the
/// `publishDiagnostics` of that version, in ms, median of `changes`.
fn lsp_round_trip(muster: &Path, root: &Path, changes: usize) -> Result<f64, String> {
    use serde_json::json;
    use std::io::BufReader;
    let path = root.join("scenarios/lrf/jengland.scenario.ron");
    let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let edited = text.replacen("name: \"Jengland\"", "name: \"Jengland (edited)\"", 1);
    let mut uri = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    let mut child = Command::new(muster)
        .arg("lsp")
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", muster.display()))?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("muster lsp has no pipes".to_string());
    };
    let mut stdout = BufReader::new(stdout);
    let published = |m: &serde_json::Value, version: usize| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri.as_str()
            && m["params"]["version"] == version
    };
    let root_uri = uri.replace("/scenarios/lrf/jengland.scenario.ron", "");
    lsp_send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": null, "rootUri": root_uri, "capabilities": {}}}),
    )?;
    while lsp_read(&mut stdout)?.get("id") != Some(&json!(1)) {}
    lsp_send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    )?;
    lsp_send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
            {"uri": uri, "languageId": "ron", "version": 1, "text": text}}}),
    )?;
    while !published(&lsp_read(&mut stdout)?, 1) {}
    let mut times = Vec::with_capacity(changes);
    for k in 0..changes {
        let version = k + 2;
        let body = if k % 2 == 0 { &edited } else { &text };
        let start = Instant::now();
        lsp_send(
            &mut stdin,
            &json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": body}]}}),
        )?;
        loop {
            let m = lsp_read(&mut stdout)?;
            if published(&m, version) {
                if m["params"]["diagnostics"]
                    .as_array()
                    .is_none_or(|d| !d.is_empty())
                {
                    return Err(format!("jengland has diagnostics in muster lsp: {m}"));
                }
                break;
            }
        }
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    lsp_send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
    )?;
    while lsp_read(&mut stdout)?.get("id") != Some(&json!(2)) {}
    lsp_send(&mut stdin, &json!({"jsonrpc": "2.0", "method": "exit"}))?;
    drop(stdin);
    let status = child.wait().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("muster lsp exited with {status}"));
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

pub fn run(root: &Path, files: usize, runs: usize, scaling: bool) -> Result<(), String> {
    let release = crate::target_dir().join("release");
    let (muster, xtask) = (release.join("muster"), release.join("xtask"));
    let work = root.join("target/bench");
    println!(
        "writing a corpus of {files} scenarios under {}",
        work.display()
    );
    let corpus: Corpus = write_corpus(root, files, &work.join("corpus"))?;
    println!(
        "corpus: {} scenarios; RON {:.0} MB, JSON {:.0} MB",
        corpus.scenarios,
        corpus.ron_bytes as f64 / 1e6,
        corpus.json_bytes as f64 / 1e6
    );
    let program = muster.to_str().unwrap_or("muster");
    let validate = [program, "validate", "--format", "short"];
    let ron_files = data_files(&corpus.ron, ".ron");
    let json_files = data_files(&corpus.json, ".json");
    let rounds = corpus_rounds(&xtask, &corpus, &validate, &ron_files, &json_files, runs)?;
    let single = Single::measure(root, &work, &muster, &xtask, runs)?;

    println!();
    println!(
        "Corpus figures are medians of {} rounds; each round times muster and the floors back to back, and each ratio is the median of the rounds' own ratios.",
        rounds.len()
    );
    println!();
    println!("| measure | wall ms | CPU ms | peak RSS MB | muster / floor (wall) |");
    println!("|---|---|---|---|---|");
    print_corpus(&rounds, ron_files.len(), json_files.len());
    single.print();
    if scaling {
        print_scaling(root, &work, &xtask, &validate, runs)?;
    }
    Ok(())
}

/// Rounds: muster and the floors it is held against are timed back to back, and each
/// ratio is taken within a round, so that the machine's speed drifting between rounds
/// does not move it.
fn corpus_rounds(
    xtask: &Path,
    corpus: &Corpus,
    validate: &[&str],
    ron_files: &[PathBuf],
    json_files: &[PathBuf],
    runs: usize,
) -> Result<Vec<Round>, String> {
    let validators: Vec<(FileKind, jsonschema::Validator)> = FileKind::ALL
        .into_iter()
        .filter_map(|k| {
            jsonschema::validator_for(&muster_db::schema::schema_of(k))
                .ok()
                .map(|v| (k, v))
        })
        .collect();
    let mut rounds = Vec::new();
    for _ in 0..runs.max(1) {
        let ron = measure(xtask, &corpus.ron, validate)?;
        let ron_floor = median_ms(1, || typed_floor(ron_files, false))?;
        let json = measure(xtask, &corpus.json, validate)?;
        let schema_only = median_ms(1, || schema_floor(json_files, &validators))?;
        let json_floor = median_ms(1, || typed_floor(json_files, true))?;
        for (what, m) in [("RON", ron), ("JSON", json)] {
            if m.exit != 0 {
                return Err(format!(
                    "muster found errors in the {what} corpus (exit {})",
                    m.exit
                ));
            }
        }
        rounds.push(Round {
            ron,
            json,
            ron_floor,
            json_floor,
            schema_only,
        });
    }
    Ok(rounds)
}

/// The corpus rows: muster's figures and the floors, medians over the rounds.
fn print_corpus(rounds: &[Round], ron_files: usize, json_files: usize) {
    let median = |f: &dyn Fn(&Round) -> f64| {
        let mut all: Vec<f64> = rounds.iter().map(f).collect();
        all.sort_by(f64::total_cmp);
        all[all.len() / 2]
    };
    let by_wall = |f: &dyn Fn(&Round) -> Usage| {
        let mut all: Vec<Usage> = rounds.iter().map(f).collect();
        all.sort_by(|a, b| a.wall_ms.total_cmp(&b.wall_ms));
        all[all.len() / 2]
    };
    let (m_ron, m_json) = (by_wall(&|r| r.ron), by_wall(&|r| r.json));
    let ron_floor = median(&|r| r.ron_floor);
    let json_floor = median(&|r| r.json_floor);
    let schema_only = median(&|r| r.schema_only);
    let ron_ratio = median(&|r| r.ron.wall_ms / r.ron_floor);
    let json_ratio = median(&|r| r.json.wall_ms / r.schema_only);
    let json_typed_ratio = median(&|r| r.json.wall_ms / r.json_floor);
    row(
        &format!("muster validate, {ron_files} RON files"),
        &m_ron,
        Some(ron_ratio),
    );
    floor("floor: typed `ron` parse, 1 thread", ron_floor);
    row(
        &format!("muster validate, {json_files} JSON twins"),
        &m_json,
        Some(json_ratio),
    );
    floor("floor: schema-only `jsonschema`, 1 thread", schema_only);
    floor("floor: typed `serde_json` parse, 1 thread", json_floor);
    println!("| (JSON twins against the typed serde_json floor) | | | | {json_typed_ratio:.2}x |");
}

/// A row of muster's figures, with its ratio to a floor if it has one.
fn row(name: &str, m: &Usage, ratio: Option<f64>) {
    println!(
        "| {name} | {:.0} | {:.0} | {:.1} | {} |",
        m.wall_ms,
        m.cpu_ms,
        mb(m.max_rss_kb),
        ratio.map_or("".to_string(), |r| format!("{r:.2}x"))
    )
}

/// A row of a floor: in process, so its CPU time is its wall time.
fn floor(name: &str, ms: f64) {
    println!("| {name} | {ms:.0} | {ms:.0} | | |");
}

const LSP_CHANGES: usize = 25;
/// Drawing the PRESTAGS mapsheet (36 x 56) with Hastings' sample deployment.
const DRAWN: &str = "scenarios/prestags/5-7-hastings.scenario.ron";

/// The figures of single commands on the bundled project and on the stress project.
struct Single {
    one: Usage,
    lsp_ms: f64,
    render: Usage,
    draw_ms: f64,
    big: Usage,
    noisy: Usage,
    noisy_short: Usage,
    hastings: Usage,
    engine: EngineFigures,
}

/// The engine on Hastings, in this process.
struct EngineFigures {
    units: usize,
    reach_all_ms: f64,
    /// One `muster validate` of the same scenario, in process.
    validate_ms: f64,
    combat_us: f64,
}

impl Single {
    fn measure(
        root: &Path,
        work: &Path,
        muster: &Path,
        xtask: &Path,
        runs: usize,
    ) -> Result<Single, String> {
        let program = muster.to_str().unwrap_or("muster");
        let one = [program, "validate", "scenarios/lrf/jengland.scenario.ron"];
        let m_one = median_of(runs.max(15), || measure(xtask, root, &one))?;
        let lsp_ms = lsp_round_trip(muster, root, LSP_CHANGES)?;
        // The whole command (load, validate, draw, write), and the drawing alone in this
        // process.
        let drawn_svg = work.join("hastings.svg");
        let render = [
            program,
            "render",
            DRAWN,
            "-o",
            drawn_svg.to_str().unwrap_or("hastings.svg"),
        ];
        let m_render = median_of(runs.max(5), || measure(xtask, root, &render))?;
        let draw_ms = draw_ms(root)?;
        let stress = work.join("stress");
        stress_project(root, &stress)?;
        let big = [program, "validate", "maps/big.map.ron"];
        let m_big = median_of(runs, || measure(xtask, &stress, &big))?;
        let noisy_human = [program, "validate", "maps/noisy.map.ron"];
        let noisy_short = [
            program,
            "validate",
            "--format",
            "short",
            "maps/noisy.map.ron",
        ];
        let m_noisy = median_of(runs, || measure(xtask, &stress, &noisy_human))?;
        let m_noisy_short = median_of(runs, || measure(xtask, &stress, &noisy_short))?;
        let hastings = [program, "validate", DRAWN];
        let m_hastings = median_of(runs.max(5), || measure(xtask, root, &hastings))?;
        let engine = engine_figures(root)?;
        Ok(Single {
            one: m_one,
            lsp_ms,
            render: m_render,
            draw_ms,
            big: m_big,
            noisy: m_noisy,
            noisy_short: m_noisy_short,
            hastings: m_hastings,
            engine,
        })
    }

    fn print(&self) {
        println!(
            "| one file: jengland in the bundled project | {:.1} | {:.1} | {:.1} | target 5 ms |",
            self.one.wall_ms,
            self.one.cpu_ms,
            mb(self.one.max_rss_kb)
        );
        println!(
            "| lsp: didChange to publishDiagnostics (median of {LSP_CHANGES}) | {:.1} | | | target 20 ms |",
            self.lsp_ms
        );
        row(
            "`muster render` Hastings (36x56 mapsheet, sample deployment), whole command",
            &self.render,
            None,
        );
        println!(
            "| drawing the Hastings board alone (in process, median of 20) | {:.1} | | | target 50 ms |",
            self.draw_ms
        );
        row("99x99 map with 1,000 overlays", &self.big, None);
        row(
            "2,000 diagnostics in one file, human format",
            &self.noisy,
            None,
        );
        row(
            "2,000 diagnostics in one file, short format",
            &self.noisy_short,
            None,
        );
        println!(
            "| human rendering of 2,000 diagnostics (difference) | {:.0} | | | |",
            self.noisy.wall_ms - self.noisy_short.wall_ms
        );
        row(
            "`muster validate` Hastings, whole command",
            &self.hastings,
            None,
        );
        println!(
            "| engine: `reach` for each of Hastings' {} units (in process, median of 20) | {:.1} | | | target: below `muster validate` Hastings |",
            self.engine.units, self.engine.reach_all_ms
        );
        println!(
            "| engine: one validate of Hastings (in process, median of 20) | {:.1} | | | reach-all / validate = {:.2} (target below 1) |",
            self.engine.validate_ms,
            self.engine.reach_all_ms / self.engine.validate_ms
        );
        println!(
            "| engine: one `combat` (median of 20 runs of 1,000 calls) | {:.4} | | | target 0.010 ms |",
            self.engine.combat_us / 1000.0
        );
    }
}

/// Drawing the Hastings board alone, in this process: the median of 20.
fn draw_ms(root: &Path) -> Result<f64, String> {
    let name = |p: &Path| p.display().to_string();
    let config = muster_check::Config::default();
    let (db, indexes, diagnostics) =
        muster_check::validate_paths(root, &[root.join(DRAWN)], &config, &name);
    let index = *indexes
        .first()
        .ok_or("the Hastings scenario did not load")?;
    let options = muster_render::Options::default();
    median_ms(20, || {
        let drawn = muster_render::render(&db, index, &diagnostics, &options);
        if drawn.unavailable.is_some() || drawn.svg.len() < 100_000 {
            return Err("the Hastings board was not drawn".to_string());
        }
        Ok(())
    })
}

/// The engine on Hastings' set-up: `reach` for every unit, then one attack by a unit on
/// an enemy moved next to it, called 1,000 times a run.
fn engine_figures(root: &Path) -> Result<EngineFigures, String> {
    let name = |p: &Path| p.display().to_string();
    let config = muster_check::Config::default();
    let (db, indexes, _) = muster_check::validate_paths(root, &[root.join(DRAWN)], &config, &name);
    let index = *indexes
        .first()
        .ok_or("the Hastings scenario did not load")?;
    let cx = muster_semantic::FileCx::new(&db, index)
        .and_then(muster_semantic::ScenarioCx::new)
        .ok_or("the Hastings scenario did not resolve")?;
    let (system, map) = cx
        .system
        .zip(cx.map)
        .ok_or("Hastings has no system or map")?;
    let mut position = muster_engine::from_scenario(&cx, 1);
    let ids: Vec<String> = position.units.iter().map(|u| u.id.clone()).collect();
    let reach_all_ms = median_ms(20, || {
        let engine = muster_engine::Engine::new(system, map, &position);
        for id in &ids {
            engine.reach(id).map_err(|e| e.to_string())?;
        }
        Ok(())
    })?;
    let validate_ms = median_ms(20, || {
        muster_check::validate_paths(root, &[root.join(DRAWN)], &config, &name);
        Ok(())
    })?;
    let first = position
        .units
        .first()
        .ok_or("Hastings has no units")?
        .clone();
    let enemy = position
        .units
        .iter()
        .position(|u| u.side != first.side && u.kind != "2L" && u.kind != "1L")
        .ok_or("Hastings has one side")?;
    let next = muster_hex::HexId::parse(&first.hex)
        .map(|h| map.neighbours(h))
        .map_err(|_| "a bad hex")?;
    let free = next
        .iter()
        .find(|h| !position.units.iter().any(|u| u.hex == h.to_string()))
        .ok_or("no free hex beside the first unit")?;
    position.units[enemy].hex = free.to_string();
    let defender = position.units[enemy].id.clone();
    let engine = muster_engine::Engine::new(system, map, &position);
    let paths = std::collections::BTreeMap::new();
    let combat_ms = median_ms(20, || {
        for _ in 0..1000 {
            engine
                .combat(&[first.id.as_str()], &defender, &paths)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    })?;
    Ok(EngineFigures {
        units: ids.len(),
        reach_all_ms,
        validate_ms,
        combat_us: combat_ms,
    })
}

/// `--scaling`: muster on corpora of 5,000 to 20,000 scenarios, each removed after.
fn print_scaling(
    root: &Path,
    work: &Path,
    xtask: &Path,
    validate: &[&str],
    runs: usize,
) -> Result<(), String> {
    println!();
    println!("| scenarios | wall ms | CPU ms | peak RSS MB |");
    println!("|---|---|---|---|");
    for n in [5_000, 10_000, 20_000] {
        let c = write_corpus(root, n, &work.join(format!("scale-{n}")))?;
        let m = median_of(runs, || measure(xtask, &c.ron, validate))?;
        println!(
            "| {n} | {:.0} | {:.0} | {:.1} |",
            m.wall_ms,
            m.cpu_ms,
            mb(m.max_rss_kb)
        );
        let _ = std::fs::remove_dir_all(work.join(format!("scale-{n}")));
    }
    Ok(())
}
