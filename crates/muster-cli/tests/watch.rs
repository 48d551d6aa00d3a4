//! `muster watch` driven by real file changes in a temporary project. Waits are
//! generous and nothing asserts on timing: each step waits for the next report.

mod common;

use common::{copy_dir, repo};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

struct Watch {
    child: Child,
    lines: Receiver<String>,
    dir: tempfile::TempDir,
}

/// One round of output: every line up to and including the `[watch] checked` line.
struct Round {
    lines: Vec<String>,
}

impl Round {
    fn rechecked(&self) -> Vec<String> {
        let line = self
            .lines
            .iter()
            .find(|l| l.starts_with("re-checked: "))
            .expect("re-checked line");
        let mut files: Vec<String> = line["re-checked: ".len()..]
            .split(", ")
            .map(str::to_string)
            .collect();
        files.sort();
        files
    }

    fn summary(&self) -> &str {
        self.lines.last().unwrap()
    }

    fn has(&self, text: &str) -> bool {
        self.lines.iter().any(|l| l.contains(text))
    }
}

impl Watch {
    fn start() -> Watch {
        Watch::start_with(|_| {})
    }

    /// Starts on a copy of the bundled project, changed by `prepare` first.
    fn start_with(prepare: impl FnOnce(&Path)) -> Watch {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["scenarios", "maps"] {
            copy_dir(&repo().join(sub), &dir.path().join(sub));
        }
        prepare(dir.path());
        let mut child = Command::new(env!("CARGO_BIN_EXE_muster"))
            .args(["watch", "--no-clear", "--debounce-ms", "150"])
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Watch { child, lines, dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn next_round(&self) -> Round {
        let mut lines = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no report within 30 s; got so far: {lines:#?}"));
            let done = line.starts_with("[watch] checked");
            lines.push(line);
            if done {
                return Round { lines };
            }
        }
    }

    /// Lets the watcher settle so that the next change is a batch of its own: waits
    /// until it has printed nothing for 400 ms. A late round of the last change (a new
    /// folder and its file seen as two batches, on a busy machine) is drained here
    /// instead of being read as the next change's.
    fn settle(&self) {
        while self.lines.recv_timeout(Duration::from_millis(400)).is_ok() {}
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

fn edit(path: &Path, from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "`{from}` not in {}", path.display());
    text.replacen(from, to, 1)
}

#[test]
fn watch_follows_edits_renames_deletes_and_new_folders() {
    let w = Watch::start();
    let first = w.next_round();
    assert!(
        first.summary().contains(&format!(
            "checked {} files: 0 errors",
            muster_db::project::project_files(&repo()).len()
        )),
        "{:#?}",
        first.lines
    );
    w.settle();

    // A plain write to a map re-checks the map and its one scenario, no others.
    let map = w.path("maps/lrf/jengland.map.ron");
    std::fs::write(&map, edit(&map, "\"0811\"", "\"0812\"")).unwrap();
    let round = w.next_round();
    assert_eq!(
        round.rechecked(),
        [
            "maps/lrf/jengland.map.ron",
            "scenarios/lrf/jengland.scenario.ron"
        ]
    );
    w.settle();

    // An editor that writes a temp file and renames it over the original.
    let scenario = w.path("scenarios/lrf/fontenoy.scenario.ron");
    let tmp = w.path("scenarios/lrf/.fontenoy.scenario.ron.tmp");
    std::fs::write(&tmp, edit(&scenario, "turn: 3,", "turn: 9,")).unwrap();
    std::fs::rename(&tmp, &scenario).unwrap();
    let round = w.next_round();
    assert_eq!(round.rechecked(), ["scenarios/lrf/fontenoy.scenario.ron"]);
    assert!(
        round.has("reinforcements::turn-out-of-range"),
        "{:#?}",
        round.lines
    );
    assert!(round.summary().contains("1 error"), "{}", round.summary());
    w.settle();

    // vim: rename the original to a backup, write the file anew, delete the backup.
    let backup = w.path("scenarios/lrf/fontenoy.scenario.ron~");
    let fixed = edit(&scenario, "turn: 9,", "turn: 3,");
    std::fs::rename(&scenario, &backup).unwrap();
    std::fs::write(&scenario, fixed).unwrap();
    std::fs::remove_file(&backup).unwrap();
    let round = w.next_round();
    assert!(
        round
            .rechecked()
            .contains(&"scenarios/lrf/fontenoy.scenario.ron".to_string())
    );
    assert!(round.summary().contains("0 errors"), "{:#?}", round.lines);
    w.settle();

    // A file broken mid-edit gives diagnostics, and watching goes on.
    let brissarthe = w.path("scenarios/lrf/brissarthe.scenario.ron");
    let whole = std::fs::read_to_string(&brissarthe).unwrap();
    std::fs::write(&brissarthe, &whole[..whole.len() / 3]).unwrap();
    let round = w.next_round();
    assert!(round.has("structure::syntax"), "{:#?}", round.lines);
    w.settle();
    std::fs::write(&brissarthe, &whole).unwrap();
    let round = w.next_round();
    assert!(round.summary().contains("0 errors"), "{:#?}", round.lines);
    w.settle();

    // A deleted map becomes a diagnostic on the scenario that uses it.
    std::fs::remove_file(w.path("maps/lrf/montfaucon.map.ron")).unwrap();
    let round = w.next_round();
    assert_eq!(round.rechecked(), ["scenarios/lrf/montfaucon.scenario.ron"]);
    assert!(round.has("references::unknown-file"), "{:#?}", round.lines);
    w.settle();

    // A new folder with a file in it is picked up.
    let extra = w.path("scenarios/extra");
    std::fs::create_dir(&extra).unwrap();
    let text = std::fs::read_to_string(w.path("scenarios/lrf/jengland.scenario.ron")).unwrap();
    std::fs::write(
        extra.join("copy.scenario.ron"),
        text.replace("id: \"jengland\"", "id: \"jengland-copy\""),
    )
    .unwrap();
    let mut round = w.next_round();
    // The folder and the file may arrive as one batch or two.
    if !round
        .rechecked()
        .contains(&"scenarios/extra/copy.scenario.ron".to_string())
    {
        round = w.next_round();
    }
    assert!(
        round
            .rechecked()
            .contains(&"scenarios/extra/copy.scenario.ron".to_string()),
        "{:#?}",
        round.lines
    );
    w.settle();

    // A folder deleted at once (`rm -rf`) takes its files' diagnostics with it.
    let copy = extra.join("copy.scenario.ron");
    std::fs::write(&copy, edit(&copy, "turns: 7,", "turns: 0,")).unwrap();
    // (The deleted Montfaucon map above still gives its scenario one error.)
    let round = w.next_round();
    assert!(round.summary().contains("2 errors"), "{:#?}", round.lines);
    w.settle();
    std::fs::remove_dir_all(&extra).unwrap();
    let round = w.next_round();
    assert!(round.summary().contains("1 error,"), "{:#?}", round.lines);
    assert!(!round.has("copy.scenario.ron:"), "{:#?}", round.lines);
}

#[test]
fn ctrl_c_ends_cleanly() {
    let mut w = Watch::start();
    w.next_round();
    let status = Command::new("kill")
        .args(["-INT", &w.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let mut stopped = false;
    while let Ok(line) = w.lines.recv_timeout(Duration::from_secs(30)) {
        if line == "[watch] stopped" {
            stopped = true;
            break;
        }
    }
    assert!(stopped, "no clean stop");
    let code = w.child.wait().unwrap();
    assert!(code.success(), "{code:?}");
}

/// `--compile` never writes where muster reads data, as `compile -o` does not.
#[test]
fn compile_folder_under_the_data_is_refused() {
    let project = common::copy_project();
    for dir in ["maps/out", "scenarios", "./maps/../maps/lrf"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_muster"))
            .current_dir(project.path())
            .args(["watch", "--no-clear", "--compile", dir])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{dir}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("refusing to compile into"), "{stderr}");
    }
}

/// A map referenced by path from a folder outside `scenarios/` and `maps/` is checked
/// with the project, and its folder is watched: fixing it clears its error.
#[test]
fn a_map_referenced_from_another_folder_is_checked_and_watched() {
    let w = Watch::start_with(|root| {
        std::fs::create_dir_all(root.join("extra")).unwrap();
        let map = edit(
            &root.join("maps/lrf/jengland.map.ron"),
            "id: \"jengland\"",
            "id: \"jengland-extra\"",
        );
        std::fs::write(
            root.join("extra/j.map.ron"),
            map.replacen("columns: 15", "columns: \"x\"", 1),
        )
        .unwrap();
        let scenario = edit(
            &root.join("scenarios/lrf/jengland.scenario.ron"),
            "map: \"jengland\"",
            "map: \"../../extra/j.map.ron\"",
        );
        std::fs::write(root.join("scenarios/lrf/jengland.scenario.ron"), scenario).unwrap();
    });
    let first = w.next_round();
    assert!(
        first.has("structure::wrong-type") && first.has("[extra/j.map.ron:15:24]"),
        "{:#?}",
        first.lines
    );
    w.settle();
    let fixed = edit(&w.path("extra/j.map.ron"), "columns: \"x\"", "columns: 15");
    std::fs::write(w.path("extra/j.map.ron"), fixed).unwrap();
    let round = w.next_round();
    assert!(
        round.rechecked().contains(&"extra/j.map.ron".to_string()),
        "{:#?}",
        round.lines
    );
    assert!(round.summary().contains(" 0 errors"), "{:#?}", round.lines);
}

/// An edit that keeps the file's size and puts its modification time back (`cp -p`,
/// `rsync -a`, `tar x`, `touch -r`) is seen: watch reads the file again on every event
/// instead of trusting its size and time.
#[test]
fn a_same_size_edit_with_its_time_put_back_is_seen() {
    let w = Watch::start();
    let first = w.next_round();
    assert!(first.summary().contains(" 0 errors"), "{:#?}", first.lines);
    w.settle();
    let scenario = w.path("scenarios/lrf/fontenoy.scenario.ron");
    let stamp = std::fs::metadata(&scenario).unwrap().modified().unwrap();
    let before = std::fs::metadata(&scenario).unwrap().len();
    std::fs::write(&scenario, edit(&scenario, "turn: 3,", "turn: 9,")).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&scenario)
        .unwrap()
        .set_modified(stamp)
        .unwrap();
    let meta = std::fs::metadata(&scenario).unwrap();
    assert_eq!((meta.len(), meta.modified().unwrap()), (before, stamp));
    let mut round = w.next_round();
    // The write and the time put back may arrive as one batch or two.
    if !round.has("reinforcements::turn-out-of-range") {
        round = w.next_round();
    }
    assert!(
        round.has("reinforcements::turn-out-of-range"),
        "{:#?}",
        round.lines
    );
    assert!(round.summary().contains("1 error"), "{}", round.summary());
}

/// The first round of `watch` and `validate` count the same files: the data files
/// checked, without `muster.toml` (whose mistakes are still reported).
#[test]
fn watch_and_validate_count_the_same_data_files() {
    let w = Watch::start_with(|root| {
        std::fs::write(root.join("muster.toml"), "[checks]\n").unwrap();
    });
    let first = w.next_round();
    let validate = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_muster"))
            .args(args)
            .current_dir(w.dir.path())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let data = muster_db::project::project_files(w.dir.path()).len();
    let counted = format!("checked {data} files:");
    assert!(first.summary().contains(&counted), "{:#?}", first.lines);
    let whole = validate(&["validate"]);
    assert!(whole.contains(&counted), "{whole}");
    let one = validate(&["validate", "scenarios/lrf/jengland.scenario.ron"]);
    assert!(one.contains("checked 1 file:"), "{one}");
}
