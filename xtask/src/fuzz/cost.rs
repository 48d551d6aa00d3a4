//! The `cost` target: inputs grown toward 4 MiB, kept by CPU time per byte, each run
//! measured in a worker process for its CPU time and peak RSS (see the parent module).

use super::*;

/// The largest input of the `cost` target: the size muster promises to handle in time.
pub(super) const COST_MAX_BYTES: usize = if cfg!(debug_assertions) {
    1024 * 1024
} else {
    4 * 1024 * 1024
};
/// Sizes are counted by octave: an input of `n` bytes is in octave `ilog2(n)` (4 MiB is
/// octave 22).
pub(super) const OCTAVES: usize = 23;
/// The smallest size an execution grows its input to: 1 KiB (octave 10).
pub(super) const COST_MIN_OCTAVE: u32 = 10;
/// How much less often each octave of target size is drawn than the one below it: the
/// runs of 2–4 MiB are about one in 350, the runs under 64 KiB more than half.
pub(super) const COST_OCTAVE_RATIO: f64 = 0.7;
/// Grown inputs kept as seeds of their own per octave, the costliest per byte.
pub(super) const COST_POOL_PER_OCTAVE: usize = 6;
/// The line a `cost` worker prints its report on.
pub(super) const COST_REPORT: &str = "cost-worker: ";
/// A run longer than this (wall clock) stops its worker: a hang, saved as a reproducer.
pub(super) const COST_HANG: Duration =
    Duration::from_secs(if cfg!(debug_assertions) { 300 } else { 30 });

/// A worker that still holds more than this after a run (kB of `VmRSS`: memory the
/// allocator kept, not memory in use) ends and is replaced by a fresh one. Otherwise
/// every later run's peak would start from what an earlier, large run left behind, and
/// small inputs would be reported over the limit.
pub(super) const COST_RETAINED_KB: i64 = 150 * 1024;

/// The resident set now, in kB (`VmRSS`), or 0 where it cannot be read.
pub(super) fn rss_now_kb() -> i64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Starts the count of the peak resident set again (Linux: `5` in `clear_refs`), so that
/// the peak read after a run is that run's and not the campaign's.
pub(super) fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The peak resident set since [`reset_peak_rss`], in kB (`VmHWM`), or the process's
/// peak where that cannot be read.
pub(super) fn run_peak_rss_kb() -> i64 {
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
pub(super) fn process_cpu() -> Duration {
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
pub(super) struct CostReport {
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
    /// Whether the worker ended early because it held more than [`COST_RETAINED_KB`]
    /// after a run (the campaign starts another for the time left), and how many
    /// workers did so in all.
    #[serde(default)]
    retired: u64,
}

impl CostReport {
    fn merge(&mut self, other: CostReport) {
        self.executions += other.executions;
        self.retired += other.retired;
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
pub(super) fn replay(root: &Path, file: &Path, command: &str) -> Result<(), String> {
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
pub(super) fn cost_pool(seeds: &[(String, Vec<u8>)]) -> Vec<&(String, Vec<u8>)> {
    seeds.iter().collect()
}

/// The `cost` campaign: one worker process per core (`--workers N`), each running
/// [`cost_worker`] for the whole time with a seed of its own; their reports summed.
pub(super) fn cost_campaign(seconds: u64, seed: u64, workers: usize) -> Result<Outcome, String> {
    let exe = std::env::current_exe().map_err(|e| format!("the fuzzer's own path: {e}"))?;
    let begin = Instant::now();
    let deadline = begin + Duration::from_secs(seconds);
    let spawn = |k: usize, generation: u64| {
        let left = deadline
            .saturating_duration_since(Instant::now())
            .as_secs()
            .max(1);
        let seed = seed
            .wrapping_add((k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_add(generation.wrapping_mul(0xd1b5_4a32_d192_ed03));
        std::process::Command::new(&exe)
            .arg("fuzz")
            .args(["--time", &left.to_string()])
            .args(["--seed", &seed.to_string()])
            .args(["--worker", &k.to_string(), "cost"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("starting cost worker {k}: {e}"))
    };
    let mut slots: Vec<(usize, u64, Option<std::process::Child>)> = (0..workers)
        .map(|k| Ok((k, 0, Some(spawn(k, 0)?))))
        .collect::<Result<_, String>>()?;
    let mut total = CostReport::default();
    while slots.iter().any(|(_, _, c)| c.is_some()) {
        std::thread::sleep(Duration::from_millis(100));
        for (k, generation, slot) in &mut slots {
            let Some(child) = slot else { continue };
            if child
                .try_wait()
                .map_err(|e| format!("cost worker {k}: {e}"))?
                .is_none()
            {
                continue;
            }
            let out = slot
                .take()
                .expect("a running worker")
                .wait_with_output()
                .map_err(|e| format!("cost worker {k}: {e}"))?;
            let text = String::from_utf8_lossy(&out.stdout);
            let report = text
                .lines()
                .find_map(|l| l.strip_prefix(COST_REPORT))
                .and_then(|json| serde_json::from_str::<CostReport>(json).ok());
            let retired = report.as_ref().is_some_and(|r| r.retired > 0);
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
            if retired && out.status.success() && Instant::now() + Duration::from_secs(1) < deadline
            {
                *generation += 1;
                *slot = Some(spawn(*k, *generation)?);
            }
        }
    }
    println!(
        "cost: {workers} workers ({} replaced after holding over {} MB); largest input {} bytes; costliest run {} ms of CPU ({}); highest peak RSS {} MB ({})",
        total.retired,
        COST_RETAINED_KB / 1024,
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
pub(super) fn octave_name(k: usize) -> String {
    match k {
        0..10 => format!("{} B", 1u64 << k),
        10..20 => format!("{} KiB", 1u64 << (k - 10)),
        _ => format!("{} MiB", 1u64 << (k - 20)),
    }
}

pub(super) fn octave_of(len: usize) -> usize {
    (len.max(1).ilog2() as usize).min(OCTAVES - 1)
}

/// The size one execution grows its input to: an octave from 1 KiB to
/// [`COST_MAX_BYTES`], each [`COST_OCTAVE_RATIO`] times as likely as the one below, and
/// a size in it.
pub(super) fn target_size(rng: &mut fastrand::Rng) -> usize {
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
pub(super) fn cost_commands(name: &str) -> &'static [&'static str] {
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
pub(super) fn cost_worker(
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
    let previous_hook = quiet_inside_runs();
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
        let result = in_run(|| harness.run_as(command, &name, &bytes));
        let cpu = process_cpu().saturating_sub(cpu_before);
        started.store(0, Ordering::Relaxed);
        let rss = run_peak_rss_kb();
        // The drawn SVG is checked after the measurement: its parse is the fuzzer's cost.
        let result = match result {
            Ok(Ok(())) => in_run(|| harness.check_drawn()),
            other => other,
        };
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
        let retire = rss_now_kb() > COST_RETAINED_KB;
        if let Some(problem) = problem {
            let saved = save(root, "cost", "finding", &name, &bytes);
            // The peak is each run's own, so the campaign goes on after one.
            report.findings.push(format!("{problem}; {saved}"));
            if retire {
                report.retired = 1;
                break;
            }
            continue;
        }
        if retire {
            report.retired = 1;
            break;
        }
        if bytes.len() > from {
            let score = cpu.as_nanos() as f64 / bytes.len().max(1) as f64;
            keep_if_costly(&mut grown[octave_of(bytes.len())], name, bytes, score);
        }
    }
    std::panic::set_hook(previous_hook);
    let _ = std::fs::remove_dir_all(&project);
    Ok(report)
}

/// Keeps a grown input in its octave's pool if it is among the costliest per byte there.
fn keep_if_costly(
    pool: &mut Vec<(String, Vec<u8>, f64)>,
    name: String,
    bytes: Vec<u8>,
    score: f64,
) {
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

/// How many copies a growing mutation makes: from one to as many as fill `room` bytes
/// with `unit`-byte copies, spread evenly over the powers of two, and the whole room one
/// time in four (the execution's target size is drawn beforehand, so filling the room
/// reaches it).
pub(super) fn copies(rng: &mut fastrand::Rng, unit: usize, room: usize) -> usize {
    let most = room / unit.max(1);
    if most == 0 || rng.u8(..4) == 0 {
        return most;
    }
    let bits = usize::BITS - most.leading_zeros();
    (1usize << rng.u32(0..bits)).min(most)
}

/// A mutation that grows the text: a list element repeated, a line repeated, or a
/// bracketed value put inside itself. The result is at most `max` bytes.
pub(super) fn grow(rng: &mut fastrand::Rng, bytes: &[u8], max: usize) -> Vec<u8> {
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
    let splice = |at: std::ops::Range<usize>, with: &str| splice(text, at, with);
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
            // A list that starts with a comma has no first element to repeat.
            if last <= open + 1 {
                return bytes.to_vec();
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
