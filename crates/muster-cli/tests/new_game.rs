//! `docs/new-game.md` and its example game, `examples/harrow-ford/`, agree: every ```sh
//! block of the guide runs, in order, in a copy of the example (with the built `muster`
//! first on `PATH`), and each line of a ```text block right after one is a line of its
//! output; every ```ron file=PATH block is, line for line, in that file of the example;
//! the example validates clean; and one mistake per mechanic, made in one place of the
//! example, gives exactly the check code the guide names for it.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::{copy_dir, elements, fenced_blocks, muster, render_svg, repo, report_codes};

const GUIDE: &str = "docs/new-game.md";
const EXAMPLE: &str = "examples/harrow-ford";
const SYSTEM: &str = "scenarios/harrow/harrow.system.ron";
const SCENARIO: &str = "scenarios/harrow/harrow-ford.scenario.ron";
const MAP: &str = "maps/harrow/harrow-ford.map.ron";

/// A fenced block of the guide.
#[derive(Debug)]
enum Fence {
    Sh(String),
    Shown(String),
    Excerpt { file: Option<String>, body: String },
}

fn guide_fences() -> Vec<Fence> {
    let markdown = std::fs::read_to_string(repo().join(GUIDE)).unwrap();
    let mut fences = Vec::new();
    for (info, body) in fenced_blocks(&markdown) {
        let mut words = info.split_whitespace();
        match words.next() {
            Some("sh") => fences.push(Fence::Sh(body)),
            Some("text") => fences.push(Fence::Shown(body)),
            Some("ron" | "toml") => fences.push(Fence::Excerpt {
                file: words.find_map(|w| w.strip_prefix("file=").map(str::to_string)),
                body,
            }),
            _ => {}
        }
    }
    fences
}

/// A temporary copy of the example game.
fn example_copy() -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    copy_dir(&repo().join(EXAMPLE), temp.path());
    temp
}

/// The codes `muster validate --format json` reports in the project at `root`.
fn codes(root: &Path) -> BTreeSet<String> {
    let out = muster()
        .current_dir(root)
        .args(["validate", "--format", "json"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(report["files_checked"], 4, "{report}");
    report_codes(&report).into_iter().collect()
}

#[test]
fn the_example_game_validates_clean() {
    let game = example_copy();
    assert_eq!(codes(game.path()), BTreeSet::new());
    let out = muster()
        .current_dir(game.path())
        .args(["validate", "--deny-warnings"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "checked 4 files: 0 errors, 0 warnings"
    );
}

#[test]
fn every_command_of_the_guide_runs_and_prints_what_it_shows() {
    let fences = guide_fences();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_muster"));
    let path = std::env::join_paths(
        std::iter::once(bin.parent().unwrap().to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let game = example_copy();
    let mut last: Option<(String, String)> = None;
    let (mut run, mut compared) = (0, 0);
    for fence in &fences {
        match fence {
            Fence::Sh(script) => {
                let out = std::process::Command::new("sh")
                    .arg("-c")
                    .arg(format!("set -e\n{script}"))
                    .current_dir(game.path())
                    .env("PATH", &path)
                    .env("NO_COLOR", "1")
                    .output()
                    .unwrap();
                let both = format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
                assert!(
                    out.status.success(),
                    "the guide's command failed:\n{script}\n{both}"
                );
                run += 1;
                last = Some((script.clone(), both));
            }
            Fence::Shown(shown) => {
                let Some((script, output)) = last.take() else {
                    continue;
                };
                let lines: BTreeSet<&str> = output.lines().map(str::trim).collect();
                for line in shown.lines().map(str::trim).filter(|l| !l.is_empty()) {
                    assert!(
                        lines.contains(line),
                        "the output of\n{script}\nhas no line `{line}`:\n{output}"
                    );
                }
                compared += 1;
            }
            Fence::Excerpt { .. } => last = None,
        }
    }
    assert!(
        run >= 6 && compared == run,
        "{run} commands, {compared} outputs compared"
    );
    assert!(game.path().join("build/harrow.svg").is_file());
}

#[test]
fn every_ron_excerpt_of_the_guide_is_in_the_example() {
    let trimmed = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let mut excerpts = 0;
    for fence in guide_fences() {
        let Fence::Excerpt { file, body } = fence else {
            continue;
        };
        let file = file.unwrap_or_else(|| panic!("a RON excerpt names no file=:\n{body}"));
        let text = std::fs::read_to_string(repo().join(EXAMPLE).join(&file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let (lines, wanted) = (trimmed(&text), trimmed(&body));
        assert!(!wanted.is_empty(), "an empty excerpt of {file}");
        assert!(
            lines.windows(wanted.len()).any(|w| w == wanted.as_slice()),
            "the guide's excerpt is not in {file} as written:\n{body}"
        );
        excerpts += 1;
    }
    assert!(excerpts >= 25, "{excerpts} excerpts");
}

/// The mechanics the guide walks through, each with its mistakes below.
const MECHANICS: [&str; 21] = [
    "terrain effects chart",
    "several terrains in a hex",
    "combat results table",
    "combat obligations",
    "sequence of play",
    "zones of control",
    "movement modes",
    "supply",
    "reinforcements",
    "replacements",
    "weather",
    "set-up",
    "starting status",
    "choose N of M",
    "holding boxes",
    "simultaneous set-up",
    "hidden set-up",
    "a side of two armies",
    "optional rules",
    "special rules",
    "victory",
];

/// One mistake per mechanic: the mechanic, the file, the text replaced (found exactly
/// once), its replacement, and the one code muster gives.
const MISTAKES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "several terrains in a hex",
        SYSTEM,
        "terrain_combine: (cost: MostCostly, combat: Cumulative),",
        "",
        "maps::no-combine-rule",
    ),
    (
        "combat obligations",
        SYSTEM,
        "attacks: EveryAdjacentUnit,",
        "attacks: Voluntary,",
        "rules::voluntary-binds",
    ),
    (
        "reinforcements",
        SYSTEM,
        "entry_cost: 1.0,",
        "entry_cost: 9.0,",
        "reinforcements::cannot-enter",
    ),
    (
        "optional rules",
        "muster.toml",
        r#"harrow = ["stubborn-levies"]"#,
        r#"harrow = ["stubborn-levis"]"#,
        "config::unknown-optional-rule",
    ),
    (
        "terrain effects chart",
        MAP,
        r#"Terrain(terrain: "marsh","#,
        r#"Terrain(terrain: "marsch","#,
        "references::unknown-terrain",
    ),
    (
        "terrain effects chart",
        SYSTEM,
        r#"AllAttackersAcross("stream")"#,
        r#"AllAttackersAcross("steam")"#,
        "rules::unknown-name",
    ),
    (
        "combat results table",
        SYSTEM,
        r#"meaning: "is eliminated", effects: [Eliminated]"#,
        r#"meaning: "is eliminated""#,
        "system::crt-meaning",
    ),
    (
        "combat results table",
        SYSTEM,
        r#"(code: "E", meaning: "is eliminated", effects: [Eliminated]),"#,
        "",
        "system::crt-shape",
    ),
    (
        "combat results table",
        SYSTEM,
        r#""1/2", "1/1", "3/2", "2/1", "3/1""#,
        r#""1/2", "1/1", "2/1", "3/2", "3/1""#,
        "system::crt-coverage",
    ),
    (
        "sequence of play",
        SYSTEM,
        r#"sides: ["crown"]"#,
        r#"sides: ["crwon"]"#,
        "rules::unknown-name",
    ),
    (
        "sequence of play",
        SYSTEM,
        r#"name: "Bombardment", acts: [Phasing]"#,
        r#"name: "Bombardment", acts: []"#,
        "rules::phase-without-actor",
    ),
    (
        "zones of control",
        SYSTEM,
        r#"blocked_by: ["stream"]"#,
        r#"blocked_by: ["creek"]"#,
        "rules::unknown-name",
    ),
    (
        "movement modes",
        SYSTEM,
        r#"costs: [(on: "road", cost: Points(0.5))]"#,
        "costs: []",
        "rules::unusable-mode",
    ),
    (
        "supply",
        SCENARIO,
        r#"(side: "league", at: Label("Harrow"))"#,
        r#"(side: "league", at: Hex("1311"))"#,
        "geometry::off-map",
    ),
    (
        "supply",
        SCENARIO,
        r#"(side: "league", at: Label("Harrow"))"#,
        r#"(side: "league", at: Label("Harrow Mill"))"#,
        "rules::unknown-scenario-name",
    ),
    (
        "reinforcements",
        SCENARIO,
        r#"turn: 4, units: [(counter: "company-horse")]"#,
        r#"turn: 7, units: [(counter: "company-horse")]"#,
        "reinforcements::turn-out-of-range",
    ),
    (
        "reinforcements",
        SCENARIO,
        r#"entry: ["1209", "1210"]"#,
        r#"entry: ["1209", "0808"]"#,
        "reinforcements::entry-not-on-edge",
    ),
    (
        "replacements",
        SCENARIO,
        "points: 1, from: 4, to: 6)",
        "points: 1, from: 4, to: 8)",
        "rules::outside-the-game",
    ),
    (
        "weather",
        SCENARIO,
        r#"(turn: 6, weather: "fair"),"#,
        r#"(turn: 7, weather: "fair"),"#,
        "rules::outside-the-game",
    ),
    (
        "weather",
        SCENARIO,
        r#"(turn: 3, weather: "rain"),"#,
        r#"(turn: 3, weather: "sleet"),"#,
        "rules::unknown-scenario-name",
    ),
    (
        "set-up",
        SCENARIO,
        r#"at: Hexes(["0304", "0306", "0405"])"#,
        r#"at: Hexes(["0304", "0306"])"#,
        "setup::count-mismatch",
    ),
    (
        "starting status",
        SCENARIO,
        r#"status: "reduced""#,
        r#"status: "shaken""#,
        "setup::unknown-status",
    ),
    (
        "choose N of M",
        SCENARIO,
        "choose: 2",
        "choose: 4",
        "setup::choose-out-of-range",
    ),
    (
        "holding boxes",
        SCENARIO,
        r#"(counter: "crown-foot")], at: Box(Replacements)"#,
        r#"(counter: "crown-foot", count: 2)], at: Box(Replacements)"#,
        "setup::exceeds-counter-sheet",
    ),
    (
        "simultaneous set-up",
        SCENARIO,
        "simultaneous_setup: true,",
        "simultaneous_setup: true,\n    deploys_first: \"crown\",",
        "setup::setup-order",
    ),
    (
        "a side of two armies",
        SCENARIO,
        r#"(army: "free-company", units"#,
        r#"(army: "free-compnay", units"#,
        "references::unknown-army",
    ),
    (
        "optional rules",
        SCENARIO,
        r#"optional_rules: ["veteran-horse"]"#,
        r#"optional_rules: ["veteran-hrose"]"#,
        "rules::unknown-scenario-name",
    ),
    (
        "special rules",
        SCENARIO,
        r#"(hook: "morning-mist", text"#,
        r#"(hook: "morning-mists", text"#,
        "hooks::unknown-hook",
    ),
    (
        "special rules",
        SCENARIO,
        r#"when: All([Side("league"), Troop("foot")"#,
        r#"when: All([Turns(from: 7, to: 8), Side("league"), Troop("foot")"#,
        "rules::outside-the-game",
    ),
    (
        "victory",
        SCENARIO,
        r#"Eliminated(units: ["guns"], count: 2)"#,
        r#"Eliminated(units: ["guns"], count: 3)"#,
        "victory::cannot-be-met",
    ),
    (
        "hidden set-up",
        SCENARIO,
        r#"(units: [(counter: "warden-hale")], at: OnUnit(kind: "foot")),"#,
        r#"(units: [(counter: "warden-hale")], at: Hexes(["0804"])),"#,
        "setup::hidden-in-plain-sight",
    ),
    (
        "victory",
        SCENARIO,
        "by_turn: 6",
        "by_turn: 7",
        "victory::turn-out-of-range",
    ),
    (
        "victory",
        SCENARIO,
        r#"Controls(["Harrow Ford"])"#,
        r#"Controls(["Harrow Mill"])"#,
        "victory::unknown-label",
    ),
];

#[test]
fn one_mistake_per_mechanic_gives_the_code_the_guide_names() {
    for (mechanic, file, from, to, code) in MISTAKES {
        let game = example_copy();
        let path = game.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches(from).count(), 1, "`{from}` once in {file}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        assert_eq!(
            codes(game.path()),
            BTreeSet::from([code.to_string()]),
            "{mechanic}: `{from}` -> `{to}` in {file}"
        );
    }
    // Every mechanic of the guide has its mistake, and every code the guide names is one
    // of them, so no sentence of the guide about a check goes untested.
    let mechanics: BTreeSet<&str> = MISTAKES.iter().map(|m| m.0).collect();
    assert_eq!(mechanics, BTreeSet::from(MECHANICS));
    let guide = std::fs::read_to_string(repo().join(GUIDE)).unwrap();
    let named: BTreeSet<&str> = guide
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| {
            s.split_once("::").is_some_and(|(g, n)| {
                !g.is_empty()
                    && !n.is_empty()
                    && s.chars()
                        .all(|c| c.is_ascii_lowercase() || c == ':' || c == '-')
            })
        })
        .collect();
    let tested: BTreeSet<&str> = MISTAKES.iter().map(|m| m.4).collect();
    assert_eq!(
        named, tested,
        "codes the guide names / codes a mistake gives"
    );
}

#[test]
fn the_summary_says_the_example_s_rules_in_words() {
    let game = example_copy();
    let out = muster()
        .current_dir(game.path())
        .args(["summary", SCENARIO])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: BTreeSet<&str> = text.lines().map(str::trim).collect();
    for line in [
        "zones of control: exerted by not `train` units; a unit entering stops; leaving costs +1 MP; no move from one enemy zone straight to another; no retreat into one; supply is not traced through one; not across stream (8)",
        "optional rule Veteran horse: veteran-charge: +1 to the die: `horse` units and when attacking (13.1)",
        "rule: rain: movement 2 MP, may not fire: in `rain` weather (9.1)",
        "replacement points: league: 1 a turn on turns 4 to 6",
        "optional rule Stubborn levies (muster.toml): levies-hold: -1 to the die: units of `league` and `foot` units and when defending (14.1)",
        "reinforcements: entering costs 1 MP beyond the entry hex; they may not be held back; an entry held by the enemy puts them back a turn (10.5)",
        "combat: every unit next to an enemy must attack, binding not `train` units (7.1)",
        "2 x crown-musketeers \"Crown musketeers\" (starts Reduced): hexes 0404, 0406",
        "reserves box: league-dragoons \"League dragoons\"",
        // A second army's units are named from that army's counters.
        "2 x company-pike \"Company pike\": hexes 1007, 1108",
        "reinforcements turn 4: company-horse \"Company horse\" entering at 1209 / 1210",
        "- The first side to reach its goal wins (a minor victory): Army of the Crown once it has control of Harrow Ford; Marcher League once it has 2 enemy guns units eliminated or 2 dragoons units exited off the west edge; both in the same turn: a draw.",
    ] {
        assert!(
            lines.contains(line),
            "no line `{line}` in the summary:\n{text}"
        );
    }
}

#[test]
fn the_hidden_side_of_the_example_is_left_off_the_board() {
    let sides = |svg: &str| -> BTreeSet<String> {
        elements(svg, "counter")
            .into_iter()
            .map(|c| c["data-side"].clone())
            .collect()
    };
    let game = example_copy();
    let hidden = render_svg(game.path(), SCENARIO, &[]);
    assert_eq!(sides(&hidden), BTreeSet::from(["crown".to_string()]));
    let path = game.path().join(SCENARIO);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replacen("Placed(hidden: true, setup:", "Placed(setup:", 1),
    )
    .unwrap();
    let open = render_svg(game.path(), SCENARIO, &[]);
    assert_eq!(
        sides(&open),
        BTreeSet::from(["crown".to_string(), "league".to_string()])
    );
}
