//! Helpers shared by the CLI test binaries: the binary with colour off, a committed
//! schema, a file read with `ron`, a board rendered and the elements of its SVG; the
//! repository, temporary copies of the bundled project and the check fixtures' project
//! come from `muster-testkit`.

#![allow(dead_code, unused_imports)]

use assert_cmd::Command;

pub use muster_testkit::{
    FIXTURE_SCENARIO, FIXTURES, add_fixture_project, copy_dir, copy_project, fixture_project, repo,
};

/// The `muster` binary with colour off.
pub fn muster() -> Command {
    let mut cmd = Command::cargo_bin("muster").unwrap();
    cmd.env("NO_COLOR", "1");
    cmd
}

/// The validator of a committed schema under `schema/`.
pub fn schema(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(repo().join("schema").join(name)).unwrap();
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
}

/// Read with `ron` itself (implicit `Some`, as muster's files are written), from a path
/// in the repository.
pub fn read_ron<T: serde::de::DeserializeOwned>(path: &str) -> T {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(&std::fs::read_to_string(repo().join(path)).unwrap())
        .unwrap()
}

/// One SVG element's attributes.
pub type Attrs = std::collections::BTreeMap<String, String>;

/// `muster render FILE -o board.svg EXTRA...` run in `root`: the SVG written.
pub fn render_svg(root: &std::path::Path, file: &str, extra: &[&str]) -> String {
    let out = tempfile::tempdir().unwrap();
    let svg = out.path().join("board.svg");
    let mut args = vec!["render", file, "-o", svg.to_str().unwrap()];
    args.extend_from_slice(extra);
    let assert = muster().current_dir(root).args(&args).assert();
    let output = assert.get_output();
    assert!(
        svg.is_file(),
        "no SVG for {file}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::read_to_string(svg).unwrap()
}

/// Every element with `class` (one of its classes), with its attributes.
pub fn elements(svg: &str, class: &str) -> Vec<Attrs> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').any(|c| c == class))
        })
        .map(|n| {
            n.attributes()
                .map(|a| (a.name().to_string(), a.value().to_string()))
                .collect()
        })
        .collect()
}

/// The bounding box of a hex's polygon on the board.
pub fn hex_box(svg: &str, id: &str) -> ((f64, f64), (f64, f64)) {
    let hexes = elements(svg, "hex");
    let hex = hexes
        .iter()
        .find(|h| h["data-hex"] == id)
        .unwrap_or_else(|| panic!("no hex {id}"));
    let (xs, ys): (Vec<f64>, Vec<f64>) = hex["points"]
        .split(' ')
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse::<f64>().unwrap(), y.parse::<f64>().unwrap())
        })
        .unzip();
    let lo_hi = |v: &[f64]| {
        (
            v.iter().copied().fold(f64::MAX, f64::min),
            v.iter().copied().fold(f64::MIN, f64::max),
        )
    };
    (lo_hi(&xs), lo_hi(&ys))
}

/// The fenced blocks of a Markdown text in order: each block's info string (`sh`, `ron
/// file=PATH`) and its body.
pub fn fenced_blocks(markdown: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = markdown.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.trim().strip_prefix("```") else {
            continue;
        };
        let body: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        out.push((info.trim().to_string(), body.join("\n")));
    }
    out
}

/// The code of each diagnostic of a `validate --format json` report, in order.
pub fn report_codes(report: &serde_json::Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// A fenced block of a tutorial (`docs/first-battle.md`, `docs/tiled.md`).
#[derive(Debug)]
pub enum Block {
    /// Commands, run with `sh`.
    Sh(String),
    /// Lines the output of the commands just before must contain.
    Expect(String),
    /// ```ron file=PATH: an edit the reader makes to PATH.
    Edit { file: String, lines: String },
}

/// The tutorial's blocks in order.
pub fn tutorial_blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    for (info, body) in fenced_blocks(markdown) {
        let mut words = info.split_whitespace();
        match words.next() {
            Some("sh") => out.push(Block::Sh(body)),
            Some("text") => out.push(Block::Expect(body)),
            Some("ron") => {
                if let Some(file) = words.find_map(|w| w.strip_prefix("file=")) {
                    out.push(Block::Edit {
                        file: file.to_string(),
                        lines: body,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// Runs a tutorial's blocks in order in `temp/work` (each ```sh block with `sh`, in the
/// folder the one before left, with the built `muster` first on `PATH` and
/// `MUSTER_REPO` naming the repository), checks each ```text block against the output
/// just before it and applies each edit with `edit`; returns the work folder.
pub fn run_tutorial(
    blocks: &[Block],
    temp: &std::path::Path,
    edit: &dyn Fn(&std::path::Path, &str),
) -> std::path::PathBuf {
    use std::path::PathBuf;
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_muster"));
    let bin_dir = bin.parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin_dir).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let state = temp.join(".cwd");
    let work = temp.join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(&state, work.display().to_string()).unwrap();
    let mut last_output: Option<(String, String)> = None;
    for block in blocks {
        let cwd = PathBuf::from(std::fs::read_to_string(&state).unwrap().trim());
        match block {
            Block::Sh(script) => {
                let full = format!("set -e\n{script}\npwd > '{}'\n", state.display());
                let out = std::process::Command::new("sh")
                    .arg("-c")
                    .arg(&full)
                    .current_dir(&cwd)
                    .env("PATH", &path)
                    .env("NO_COLOR", "1")
                    .env("MUSTER_REPO", repo())
                    .output()
                    .unwrap();
                let stdout = String::from_utf8_lossy(&out.stdout).to_string();
                let both = format!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
                assert!(
                    out.status.success(),
                    "the tutorial's commands failed:\n{script}\n{both}"
                );
                last_output = Some((script.clone(), both));
            }
            Block::Expect(expected) => {
                let Some((script, output)) = last_output.take() else {
                    continue;
                };
                for line in expected.lines().map(str::trim).filter(|l| !l.is_empty()) {
                    assert!(
                        output.contains(line),
                        "the output of\n{script}\ndoes not contain `{line}`:\n{output}"
                    );
                }
            }
            Block::Edit { file, lines } => {
                last_output = None;
                edit(&cwd.join(file), lines);
            }
        }
    }
    work
}

/// The key that finds the line an edit replaces.
fn key_of(line: &str) -> String {
    if let Some(at) = line.find("(counter: \"") {
        let rest = &line[at + "(counter: \"".len()..];
        let end = rest.find('"').unwrap();
        return format!("(counter: \"{}\"", &rest[..end]);
    }
    let end = line.find([':', '(']).expect("an edit line has a key");
    line[..=end].to_string()
}

/// Applies a tutorial's ```ron file=PATH edit: each line replaces the line of the file
/// with the same key (a field, or a `(counter: "id"` line).
pub fn apply_edit(path: &std::path::Path, edit: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut file: Vec<String> = text.lines().map(str::to_string).collect();
    for new in edit.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let key = key_of(new);
        let counter = key.starts_with("(counter");
        let at = file
            .iter()
            .position(|l| {
                let t = l.trim_start();
                if counter {
                    t.contains(&key) && !t.starts_with("//")
                } else {
                    t.starts_with(&key)
                }
            })
            .unwrap_or_else(|| panic!("no line `{key}` in {}", path.display()));
        let indent: String = file[at].chars().take_while(|c| c.is_whitespace()).collect();
        file[at] = format!("{indent}{new}");
    }
    std::fs::write(path, file.join("\n") + "\n").unwrap();
}
