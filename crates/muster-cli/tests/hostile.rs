//! Hostile and careless input, end to end: pipes and devices, symlinks out of the
//! project, unreadable folders, oversized maps, and `compile -o` aimed at the sources.
//! Every child runs under a generous kill-timeout, so that a regression that blocks
//! fails the test instead of hanging it; nothing here measures time.

mod common;

use muster_testkit::replace;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

use common::{copy_project, muster};

/// Long enough for any machine, short enough that a blocked muster fails the suite.
const KILL_AFTER: Duration = Duration::from_secs(300);

fn run(dir: &Path, args: &[&str]) -> Output {
    muster()
        .current_dir(dir)
        .args(args)
        .timeout(KILL_AFTER)
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("the `mkfifo` command");
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_being_opened() {
    let dir = copy_project();
    let fifo = dir.path().join("scenarios/lrf/pipe.scenario.ron");
    mkfifo(&fifo);
    // Given on the command line.
    let out = run(
        dir.path(),
        &[
            "validate",
            "--format",
            "short",
            "scenarios/lrf/pipe.scenario.ron",
        ],
    );
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("structure::unreadable"), "{said}");
    assert!(
        said.contains("named pipe (FIFO), not a regular file"),
        "{said}"
    );
    // Met in the project.
    let out = run(dir.path(), &["validate", "--format", "short"]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("pipe.scenario.ron"), "{said}");
    assert!(said.contains("structure::unreadable"), "{said}");
}

#[cfg(unix)]
#[test]
fn a_symlink_to_dev_zero_is_refused_unread() {
    let dir = copy_project();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("scenarios/zero.scenario.ron"))
        .unwrap();
    let out = run(dir.path(), &["validate", "--format", "short"]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("zero.scenario.ron"), "{said}");
    assert!(said.contains("outside the project root"), "{said}");
    // Named directly, with the project root around it, the same.
    let out = run(
        dir.path(),
        &[
            "validate",
            "--format",
            "short",
            "scenarios/zero.scenario.ron",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
}

/// A scenario that takes its map from `map`, a path.
fn use_map(dir: &Path, map: &str) {
    replace(
        &dir.join("scenarios/lrf/jengland.scenario.ron"),
        "map: \"jengland\"",
        &format!("map: \"{map}\""),
    );
}

#[cfg(unix)]
#[test]
fn a_symlink_to_a_file_outside_the_root_is_never_read() {
    let dir = copy_project();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.map.ron");
    std::fs::write(&secret, "root:x:0:0:SECRET-LINE-OF-THE-MACHINE\n").unwrap();
    std::os::unix::fs::symlink(&secret, dir.path().join("scenarios/lrf/evil.map.ron")).unwrap();
    use_map(dir.path(), "evil.map.ron");
    for args in [
        &["validate"][..],
        &["validate", "--format", "json"],
        &[
            "compile",
            "scenarios/lrf/jengland.scenario.ron",
            "-o",
            "out.json",
        ],
    ] {
        let out = run(dir.path(), args);
        let said = text(&out);
        assert_ne!(out.status.code(), Some(0), "{args:?}: {said}");
        assert!(
            !said.contains("SECRET-LINE"),
            "{args:?} printed the target: {said}"
        );
        assert!(
            said.contains("references::outside-root"),
            "{args:?}: {said}"
        );
    }
    assert!(!dir.path().join("out.json").exists());
    // /etc/passwd itself, when the machine has one.
    if Path::new("/etc/passwd").is_file() {
        std::fs::remove_file(dir.path().join("scenarios/lrf/evil.map.ron")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("scenarios/lrf/evil.map.ron"))
            .unwrap();
        let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
        let first = passwd.lines().next().unwrap_or("root:x:0:0").to_string();
        let out = run(
            dir.path(),
            &[
                "compile",
                "scenarios/lrf/jengland.scenario.ron",
                "-o",
                "out.json",
            ],
        );
        let said = text(&out);
        assert!(!said.contains(&first), "{said}");
        assert!(said.contains("references::outside-root"), "{said}");
    }
}

#[cfg(unix)]
#[test]
fn a_symlink_to_a_valid_map_outside_the_root_is_reported_not_used() {
    let dir = copy_project();
    let outside = tempfile::tempdir().unwrap();
    let real = outside.path().join("jengland.map.ron");
    std::fs::copy(dir.path().join("maps/lrf/jengland.map.ron"), &real).unwrap();
    // Elsewhere than `scenarios/` and `maps/`: found only through the reference.
    std::fs::create_dir_all(dir.path().join("extra-maps")).unwrap();
    std::os::unix::fs::symlink(&real, dir.path().join("extra-maps/linked.map.ron")).unwrap();
    use_map(dir.path(), "../../extra-maps/linked.map.ron");
    let out = run(dir.path(), &["validate", "--format", "short"]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("references::outside-root"), "{said}");
    assert!(said.contains("jengland.scenario.ron"), "{said}");
}

#[cfg(unix)]
#[test]
fn an_unreadable_folder_is_a_diagnostic() {
    use std::os::unix::fs::PermissionsExt;
    let dir = copy_project();
    let folder = dir.path().join("scenarios/lrf");
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o000)).unwrap();
    let readable_anyway = std::fs::read_dir(&folder).is_ok();
    let out = if readable_anyway {
        // Root reads any folder: run muster as `nobody` where `setpriv` can.
        as_nobody(dir.path(), &["validate", "--format", "short"])
    } else {
        Ok(run(dir.path(), &["validate", "--format", "short"]))
    };
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = out.unwrap_or_else(|why| {
        panic!(
            "this user reads a folder with mode 000 (root), and muster could not be run as `nobody` to see the folder refused: {why}"
        )
    });
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("structure::unreadable"), "{said}");
    assert!(
        said.contains("cannot read the folder `scenarios/lrf`"),
        "{said}"
    );
}

/// Runs muster as the user `nobody` (uid 65534) through `setpriv`, with the temporary
/// project opened to it and a copy of the binary inside it (the build folder may sit
/// where `nobody` cannot reach); the error says why when that cannot be done.
#[cfg(unix)]
fn as_nobody(dir: &Path, args: &[&str]) -> Result<Output, String> {
    use std::os::unix::fs::PermissionsExt;
    let open = std::fs::Permissions::from_mode(0o755);
    std::fs::set_permissions(dir, open.clone()).map_err(|e| format!("opening the project: {e}"))?;
    for folder in dir.ancestors().skip(1) {
        let mode = std::fs::metadata(folder)
            .map_err(|e| format!("{}: {e}", folder.display()))?
            .permissions()
            .mode();
        if mode & 0o005 != 0o005 {
            return Err(format!(
                "`nobody` cannot reach the temporary folder: `{}` has mode {mode:o}",
                folder.display()
            ));
        }
    }
    let bin = dir.join("muster-as-nobody");
    std::fs::copy(assert_cmd::cargo::cargo_bin("muster"), &bin)
        .map_err(|e| format!("copying the binary: {e}"))?;
    std::fs::set_permissions(&bin, open).map_err(|e| format!("opening the binary: {e}"))?;
    let out = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(&bin)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .map_err(|e| format!("running `setpriv` (util-linux): {e}"))?;
    let said = text(&out);
    if said.contains("checked ") || said.contains("error[") {
        Ok(out)
    } else {
        Err(format!("`setpriv` did not run muster: {said}"))
    }
}

#[test]
fn a_map_beyond_ccrr_is_refused_at_its_size_and_its_scenarios_say_so() {
    let dir = copy_project();
    let map = dir.path().join("maps/lrf/jengland.map.ron");
    let source = std::fs::read_to_string(&map).unwrap();
    let size = source
        .lines()
        .find(|l| l.contains("grid: Hex("))
        .unwrap()
        .to_string();
    let huge = "    grid: Hex(columns: 9999, rows: 9999, layout: EvenColumnsDown),";
    std::fs::write(&map, source.replace(&size, huge)).unwrap();
    let out = run(dir.path(), &["validate", "--format", "json"]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<(String, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        found.contains(&(
            "maps::grid-too-large".to_string(),
            "maps/lrf/jengland.map.ron".to_string()
        )),
        "{found:?}"
    );
    assert!(
        found.contains(&(
            "checks::skipped".to_string(),
            "scenarios/lrf/jengland.scenario.ron".to_string()
        )),
        "{found:?}"
    );
    // Compile refuses too, with the same diagnostic, and writes nothing.
    let out = run(
        dir.path(),
        &["compile", "maps/lrf/jengland.map.ron", "-o", "out.json"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("maps::grid-too-large"));
    assert!(!dir.path().join("out.json").exists());
}

#[test]
fn compile_never_writes_over_what_muster_reads() {
    let dir = copy_project();
    let map = dir.path().join("maps/lrf/jengland.map.ron");
    let before = std::fs::read(&map).unwrap();
    for target in [
        "maps/lrf/jengland.map.ron",
        "scenarios/lrf/lrf.system.ron",
        "scenarios/lrf/compiled.json",
        "maps/new-folder/out.json",
        "maps/lrf/../lrf/./jengland.map.ron",
    ] {
        let out = run(
            dir.path(),
            &["compile", "maps/lrf/jengland.map.ron", "-o", target],
        );
        let said = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{target}: {said}");
        assert_eq!(said.trim().lines().count(), 1, "one line: {said}");
        assert!(said.contains("refusing to write"), "{said}");
        assert!(out.stdout.is_empty());
    }
    assert_eq!(before, std::fs::read(&map).unwrap());
    assert!(!dir.path().join("scenarios/lrf/compiled.json").exists());
    assert!(!dir.path().join("maps/new-folder").exists());
    // A scenario's own file too.
    let out = run(
        dir.path(),
        &[
            "compile",
            "scenarios/lrf/jengland.scenario.ron",
            "-o",
            "scenarios/lrf/jengland.scenario.ron",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // Through a symlink that leads to the source.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&map, dir.path().join("innocent.json")).unwrap();
        let out = run(
            dir.path(),
            &[
                "compile",
                "maps/lrf/jengland.map.ron",
                "-o",
                "innocent.json",
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert_eq!(before, std::fs::read(&map).unwrap());
    }
}

#[test]
fn stale_temp_files_of_dead_writers_are_cleaned() {
    let dir = copy_project();
    let folder = dir.path().join("target/muster");
    std::fs::create_dir_all(&folder).unwrap();
    // The pid of a process that has ended.
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .arg("--list")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = folder.join(format!(".muster-tmp-{dead}-killed"));
    std::fs::write(&stale, "half a table").unwrap();
    let unrelated = folder.join(".not-ours");
    std::fs::write(&unrelated, "keep").unwrap();
    let out = run(dir.path(), &["compile", "maps/lrf/jengland.map.ron"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(!stale.exists(), "the dead writer's temp file is removed");
    assert!(unrelated.exists());
    let left: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    assert!(
        left.iter().all(|n| !n.starts_with(".muster-tmp-")),
        "{left:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_symlinked_folder_is_reported_not_followed() {
    let dir = copy_project();
    let outside = tempfile::tempdir().unwrap();
    std::fs::copy(
        dir.path().join("scenarios/lrf/jengland.scenario.ron"),
        outside.path().join("copy.scenario.ron"),
    )
    .unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("scenarios/elsewhere")).unwrap();
    std::os::unix::fs::symlink(
        dir.path().join("maps/lrf"),
        dir.path().join("scenarios/inside"),
    )
    .unwrap();
    let out = run(dir.path(), &["validate", "--format", "short"]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("scenarios/elsewhere:1:1: error[references::outside-root]"),
        "{said}"
    );
    assert!(said.contains("symlink to a folder"), "{said}");
    assert!(!said.contains("copy.scenario.ron"), "{said}");
}

/// A broken map referenced by path from a folder other than `scenarios/` and `maps/` is
/// loaded and checked itself, once, however many scenarios use it and whether the whole
/// project or only one of them is validated.
#[test]
fn a_file_referenced_from_outside_the_data_folders_is_checked() {
    let dir = copy_project();
    let extra = dir.path().join("extra");
    std::fs::create_dir_all(&extra).unwrap();
    let map = std::fs::read_to_string(dir.path().join("maps/lrf/jengland.map.ron")).unwrap();
    let broken = map
        .replacen("id: \"jengland\"", "id: \"jengland-extra\"", 1)
        .replacen("columns: 15", "columns: \"x\"", 1);
    assert_ne!(broken, map);
    std::fs::write(extra.join("broken.map.ron"), broken).unwrap();
    let scenario =
        std::fs::read_to_string(dir.path().join("scenarios/lrf/jengland.scenario.ron")).unwrap();
    for n in 1..=2 {
        let copy = scenario
            .replacen(
                "map: \"jengland\"",
                "map: \"../../extra/broken.map.ron\"",
                1,
            )
            .replacen("id: \"jengland\"", &format!("id: \"jengland-{n}\""), 1);
        std::fs::write(
            dir.path().join(format!("scenarios/lrf/j{n}.scenario.ron")),
            copy,
        )
        .unwrap();
    }
    for args in [
        vec!["validate", "--format", "json"],
        vec![
            "validate",
            "--format",
            "json",
            "scenarios/lrf/j1.scenario.ron",
        ],
    ] {
        let out = run(dir.path(), &args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(1), "{said}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let on_map: Vec<&serde_json::Value> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["file"] == "extra/broken.map.ron")
            .collect();
        assert_eq!(on_map.len(), 1, "{args:?}: {said}");
        assert_eq!(on_map[0]["code"], "structure::wrong-type", "{said}");
        assert_eq!(on_map[0]["line"], 15, "{said}");
    }
}

/// Strings from data and file names that must never reach a terminal or a CI log as
/// they are, each with the form every text format prints instead.
const HOSTILE: [(&str, &str); 7] = [
    (
        "x\n::error file=evil.rs,line=1::pwned",
        "x\\n::error file=evil.rs,line=1::pwned",
    ),
    ("cr\roverwrite", "cr\\roverwrite"),
    ("\x1b[31mred", "\\u{1b}[31mred"),
    ("\x1b]8;;http://x\x07link", "\\u{1b}]8;;http://x\\u{7}link"),
    ("nul\0byte", "nul\\u{0}byte"),
    ("rlo\u{202e}txt", "rlo\\u{202e}txt"),
    ("non\u{fffe}char", "non\\u{fffe}char"),
];

/// Characters of [`HOSTILE`] that no text format may print raw (a line break is
/// checked by counting lines).
const RAW: [char; 6] = ['\r', '\x1b', '\x07', '\0', '\u{202e}', '\u{fffe}'];

/// The scenarios whose `map:` reference gets one hostile string each.
const INJECTED: [&str; 7] = [
    "scenarios/lrf/brissarthe.scenario.ron",
    "scenarios/lrf/fontenoy.scenario.ron",
    "scenarios/lrf/jengland.scenario.ron",
    "scenarios/lrf/montfaucon.scenario.ron",
    "scenarios/cdg/arsuf.scenario.ron",
    "scenarios/cdg/courtrai.scenario.ron",
    "scenarios/raid/raid-example.scenario.ron",
];

/// A file whose name holds a line break and a workflow command, and how it is shown.
const EVIL_NAME: (&str, &str) = (
    "evil\n::error file=evil.rs,line=1::pwned.scenario.ron",
    "scenarios/lrf/evil\\n::error file=evil.rs,line=1::pwned.scenario.ron",
);

/// A file whose name is not UTF-8, shown byte for byte.
const BYTES_NAME: (&[u8], &str) = (
    b"bad\xff.scenario.ron",
    "scenarios/lrf/bad\\xff.scenario.ron",
);

/// Standard output, which must be UTF-8 (a name that is not is shown escaped).
fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("output is UTF-8")
}

fn assert_no_raw(format: &str, text: &str) {
    for c in RAW {
        assert!(
            !text.contains(c),
            "{format}: raw U+{:04X} in:\n{text}",
            c as u32
        );
    }
}

#[cfg(unix)]
#[test]
fn every_format_escapes_hostile_strings_and_file_names() {
    use std::os::unix::ffi::OsStrExt;
    let dir = copy_project();
    for ((raw, _), file) in HOSTILE.iter().zip(INJECTED) {
        replace(&dir.path().join(file), "map: \"", &format!("map: \"{raw}"));
    }
    let lrf = dir.path().join("scenarios/lrf");
    std::fs::write(lrf.join(EVIL_NAME.0), "Scenario(").unwrap();
    std::fs::write(
        lrf.join(std::ffi::OsStr::from_bytes(BYTES_NAME.0)),
        "Scenario(",
    )
    .unwrap();
    // Drawn: the title and a side's name carry every hostile string.
    let all: Vec<&str> = HOSTILE.iter().map(|(raw, _)| *raw).collect();
    let hastings = dir
        .path()
        .join("scenarios/prestags/5-7-hastings.scenario.ron");
    replace(
        &hastings,
        "name: \"Hastings\"",
        &format!("name: \"{}\"", all.join("|")),
    );
    replace(
        &hastings,
        "name: \"Normans\"",
        &format!("name: \"{}\"", all.join("|")),
    );

    // JSON: the data exactly as written, the names in their shown form.
    let json = run(dir.path(), &["validate", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let diagnostics = report["diagnostics"].as_array().unwrap();
    let count = diagnostics.len();
    for (raw, _) in HOSTILE {
        assert!(
            diagnostics
                .iter()
                .any(|d| d["message"].as_str().unwrap().contains(raw)),
            "json: no message holds {raw:?}"
        );
    }
    for name in [EVIL_NAME.1, BYTES_NAME.1] {
        assert!(
            diagnostics.iter().any(|d| d["file"] == name),
            "json: no diagnostic names {name}"
        );
    }
    assert!(!stdout(&json).contains(|c: char| c < ' ' && c != '\n'));

    // SARIF: the same results, the same names.
    let sarif = run(dir.path(), &["validate", "--format", "sarif"]);
    let log: serde_json::Value = serde_json::from_str(&stdout(&sarif)).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), count);
    let uri = |r: &serde_json::Value| {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(
        results.iter().any(|r| uri(r) == BYTES_NAME.1),
        "sarif names"
    );
    assert!(results.iter().any(|r| uri(r) == EVIL_NAME.1), "sarif names");

    // short and github: one line per diagnostic, nothing raw, the escapes there.
    for format in ["short", "github", "human"] {
        let out = run(dir.path(), &["validate", "--format", format]);
        assert_eq!(out.status.code(), Some(1), "{format}");
        let text = stdout(&out);
        assert_no_raw(format, &text);
        assert!(
            !text
                .lines()
                .any(|l| l.starts_with("::") && format != "github"),
            "{format}: a line is a workflow command:\n{text}"
        );
        for (_, shown) in HOSTILE {
            assert!(text.contains(shown), "{format}: no `{shown}` in:\n{text}");
        }
        match format {
            "short" => {
                assert_eq!(text.lines().count(), count, "{text}");
                assert!(text.lines().all(|l| l.starts_with("scenarios/")), "{text}");
                assert!(text.contains(EVIL_NAME.1) && text.contains(BYTES_NAME.1));
            }
            "github" => {
                assert_eq!(text.lines().count(), count, "{text}");
                assert!(
                    text.lines().all(|l| ["::error ", "::warning ", "::notice "]
                        .iter()
                        .any(|c| l.starts_with(c))),
                    "{text}"
                );
                // Workflow properties escape `:` and `,` besides.
                assert!(text.contains("file=scenarios/lrf/bad\\xff.scenario.ron,"));
                assert!(text.contains("evil\\n%3A%3Aerror file=evil.rs%2Cline=1"));
            }
            _ => assert!(text.contains(EVIL_NAME.1) && text.contains(BYTES_NAME.1)),
        }
    }

    // summary: the names from the data escaped, none on a line of its own.
    let out = run(
        dir.path(),
        &["summary", "scenarios/prestags/5-7-hastings.scenario.ron"],
    );
    let summary = stdout(&out);
    assert_no_raw("summary", &summary);
    assert!(
        !summary.lines().any(|l| l.starts_with("::")),
        "summary: a line is a workflow command:\n{summary}"
    );
    for (_, shown) in HOSTILE {
        assert!(
            summary.contains(shown),
            "summary: no `{shown}` in:\n{summary}"
        );
    }

    // The picture and the page: well-formed, nothing raw, the same escapes.
    let svg = run(
        dir.path(),
        &[
            "render",
            "scenarios/prestags/5-7-hastings.scenario.ron",
            "-o",
            "-",
        ],
    );
    let svg = stdout(&svg);
    roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
    assert_no_raw("svg", &svg);
    for (_, shown) in HOSTILE {
        assert!(svg.contains(shown), "svg: no `{shown}`");
    }
    let page = dir.path().join("h.html");
    let out = run(
        dir.path(),
        &[
            "render",
            "scenarios/prestags/5-7-hastings.scenario.ron",
            "-o",
            page.to_str().unwrap(),
        ],
    );
    assert_no_raw("render's report", &text(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert_no_raw("html", &html);
    for (_, shown) in HOSTILE {
        assert!(html.contains(shown), "html: no `{shown}`");
    }
    let board = &html[html.find("<svg ").unwrap()..html.rfind("</svg>").unwrap() + 6];
    roxmltree::Document::parse(board).expect("the page's board is well-formed XML");
}
