//! `cargo xtask soak [--events N] [--seed S]`: `muster watch` under a long run of random
//! file changes, as an author's week of editing would give it.
//!
//! A copy of the bundled project is watched. Each step makes one change or a burst of
//! several: a scenario edited into an error and back, a file renamed over another
//! (editors' atomic save), a file deleted and written again, a folder of copies created,
//! moved and deleted. After every round the watch prints, the diagnostics it shows are
//! compared with a fresh `muster validate` of the same folder (file, line, column and
//! code of each); they must be equal. The watch process's RSS is read from `/proc`
//! after every round: the last reading must stay within 10% of the largest reading of
//! the first minute (or of the first tenth of the run, when shorter).
//!
//! The test suite runs a short soak from this same file (`muster-cli`'s `tests/soak.rs`).

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

pub fn run(root: &Path, muster: &Path, args: &[String]) -> Result<(), String> {
    let mut events = 10_000usize;
    let mut seed = 7u64;
    let mut dir = root.join("target/soak/project");
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--events" => events = it.next().and_then(|n| n.parse().ok()).ok_or("--events N")?,
            "--seed" => seed = it.next().and_then(|n| n.parse().ok()).ok_or("--seed S")?,
            "--dir" => dir = it.next().map(PathBuf::from).ok_or("--dir DIR")?,
            other => return Err(format!("unknown soak option `{other}`")),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["scenarios", "maps"] {
        crate::copy_dir(&root.join(sub), &dir.join(sub)).map_err(|e| format!("copy: {e}"))?;
    }
    let mut child = Command::new(muster)
        .args(["watch", "--no-clear", "--debounce-ms", "60"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start muster watch: {e}"))?;
    let pid = child.id();
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let result = soak(&dir, muster, &rx, pid, events, seed);
    let _ = child.kill();
    let _ = child.wait();
    result
}

/// Every line of one round, up to its `[watch] checked` line.
fn round(rx: &Receiver<String>) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .map_err(|_| format!("no report from muster watch within 30 s after {lines:?}"))?;
        let done = line.starts_with("[watch] checked");
        lines.push(line);
        if done {
            return Ok(lines);
        }
    }
}

/// How long no line from the watch counts as quiet after a round.
const QUIET_MS: u64 = 250;

/// Rounds until none comes for a while: a burst may give one round or several.
fn rounds_until_quiet(rx: &Receiver<String>) -> Result<Option<Vec<String>>, String> {
    let mut last = None;
    let mut lines = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_millis(
            if last.is_none() && lines.is_empty() {
                5_000
            } else {
                QUIET_MS
            },
        )) {
            Ok(line) => {
                let done = line.starts_with("[watch] checked");
                lines.push(line);
                if done {
                    last = Some(std::mem::take(&mut lines));
                }
            }
            Err(_) if lines.is_empty() => return Ok(last),
            Err(_) => {
                // A round half printed: wait for its end.
                let mut rest = round(rx)?;
                lines.append(&mut rest);
                last = Some(std::mem::take(&mut lines));
            }
        }
    }
}

/// `(file, line, column, code)` of every diagnostic a human report shows.
fn shown(lines: &[String]) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    let mut code = String::new();
    for line in lines {
        let t = line.trim();
        if !t.is_empty() && !t.contains(' ') && t.contains("::") {
            code = t.to_string();
        } else if let Some(at) = t.split("─[").nth(1) {
            out.insert((at.trim_end_matches(']').to_string(), code.clone()));
        } else if let Some(short) = line.strip_prefix("  ").filter(|l| l.contains("]: ")) {
            // A diagnostic listed in one line after `N more on FILE:LINE:`.
            if let Some((place, rest)) = short.split_once(": ")
                && let Some(code) = rest.split('[').nth(1).and_then(|r| r.split(']').next())
            {
                out.insert((place.to_string(), code.to_string()));
            }
        }
    }
    out
}

fn fresh(dir: &Path, muster: &Path) -> Result<BTreeSet<(String, String)>, String> {
    let out = Command::new(muster)
        .args(["validate", "--format", "short"])
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run muster validate: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text
        .lines()
        .filter_map(|l| {
            let (place, rest) = l.split_once(": ")?;
            let code = rest.split('[').nth(1)?.split(']').next()?;
            Some((place.to_string(), code.to_string()))
        })
        .collect())
}

fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn soak(
    dir: &Path,
    muster: &Path,
    rx: &Receiver<String>,
    pid: u32,
    events: usize,
    seed: u64,
) -> Result<(), String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    round(rx)?;
    let scenarios: Vec<PathBuf> = muster_db::project::project_files(dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".scenario.ron"))
        .collect();
    let originals: Vec<String> = scenarios
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect();
    let start = Instant::now();
    let early_window = Duration::from_secs(60);
    let mut early_peak = 0u64;
    let mut last_rss = 0u64;
    let (mut done, mut rounds, mut compared, mut late_rounds) = (0usize, 0usize, 0usize, 0usize);
    while done < events {
        let burst = if rng.u8(..10) == 0 {
            rng.usize(2..6)
        } else {
            1
        };
        for _ in 0..burst {
            change(&mut rng, dir, &scenarios, &originals)?;
            done += 1;
        }
        let Some(lines) = rounds_until_quiet(rx)? else {
            continue;
        };
        rounds += 1;
        let expected = fresh(dir, muster)?;
        let mut lines = lines;
        let mut got = shown(&lines);
        // On a busy machine the last round of a burst can come after the quiet window:
        // a mismatch is a failure only when no further round arrives to settle it.
        let mut late = 0;
        while got != expected && late < 3 {
            match rx.recv_timeout(Duration::from_secs(5)) {
                Ok(first) => {
                    let mut more = vec![first];
                    if !more[0].starts_with("[watch] checked") {
                        more.append(&mut round(rx)?);
                    }
                    rounds += 1;
                    late_rounds += 1;
                    got = shown(&more);
                    lines = more;
                    late += 1;
                }
                Err(_) => break,
            }
        }
        if got != expected {
            return Err(format!(
                "after {done} events the watch shows {got:?} but a fresh validate gives {expected:?}; the watch's last round:\n{}",
                lines.join("\n")
            ));
        }
        compared += 1;
        if let Some(rss) = rss_kb(pid) {
            last_rss = rss;
            if start.elapsed() < early_window || done <= events / 10 {
                early_peak = early_peak.max(rss);
            }
        }
    }
    println!(
        "soak: {done} events, {rounds} rounds ({late_rounds} arrived after the quiet window), each compared with a fresh validate ({compared} equal) in {:.0} s",
        start.elapsed().as_secs_f64()
    );
    println!(
        "soak: watch RSS {:.1} MB at the end, {:.1} MB at most early on",
        last_rss as f64 / 1024.0,
        early_peak as f64 / 1024.0
    );
    if early_peak > 0 && last_rss as f64 > early_peak as f64 * 1.10 {
        return Err("the watch's memory grew by more than 10%".to_string());
    }
    Ok(())
}

/// One random change to the watched project.
fn change(
    rng: &mut fastrand::Rng,
    dir: &Path,
    scenarios: &[PathBuf],
    originals: &[String],
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let k = rng.usize(..scenarios.len());
    let (path, original) = (&scenarios[k], &originals[k]);
    let extra = dir.join("scenarios/soak");
    let what = rng.u8(..8);
    if std::env::var_os("MUSTER_SOAK_TRACE").is_some() {
        eprintln!("soak: change {what} on {}", path.display());
    }
    match what {
        // An error and its fix.
        0 | 1 => {
            let broken = original.replacen("turns: ", "turns: 0, // ", 1);
            std::fs::write(path, broken).map_err(io)
        }
        2 | 3 => std::fs::write(path, original).map_err(io),
        // An editor's atomic save: a temp file renamed over the original.
        4 => {
            let tmp = path.with_extension("ron.tmp~");
            std::fs::write(&tmp, original).map_err(io)?;
            std::fs::rename(&tmp, path).map_err(io)
        }
        // Deleted, then written again.
        5 => {
            let _ = std::fs::remove_file(path);
            std::fs::write(path, original).map_err(io)
        }
        // A folder of copies appears (with unique ids), is moved, or is deleted.
        6 => {
            std::fs::create_dir_all(&extra).map_err(io)?;
            let n = rng.u32(..1_000_000);
            let copy = original.replacen("    id: \"", &format!("    id: \"soak-{n}-"), 1);
            std::fs::write(extra.join(format!("copy-{n}.scenario.ron")), copy).map_err(io)
        }
        _ => {
            if !extra.exists() {
                return Ok(());
            }
            if rng.bool() {
                let moved = dir.join(format!("scenarios/soak-moved-{}", rng.u32(..1_000_000)));
                std::fs::rename(&extra, &moved).map_err(io)?;
                std::fs::remove_dir_all(&moved).map_err(io)
            } else {
                std::fs::remove_dir_all(&extra).map_err(io)
            }
        }
    }
}
