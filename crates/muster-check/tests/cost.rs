//! What hostile inputs cost, measured by the work done rather than by the clock: a zone
//! written many times over inside one `AnyOf` is resolved once, whatever the number of
//! copies, and gives the hexes of one copy; a deployment zone repeated by many groups is
//! drawn once; a check the project turns off is not run.

use muster_model::scenario::Zone;
use muster_semantic::{FileCx, ScenarioCx};

use muster_testkit::db::load;

/// Copies `files` and the scenario `rel` edited by `edit` into a fresh project, runs one
/// check on the scenario, and gives the entry lookups it made and its messages.
fn lookups_of(
    files: &[&str],
    rel: &str,
    edit: &dyn Fn(String) -> String,
    run: fn(&ScenarioCx, &mut muster_db::report::Sink),
) -> (usize, Vec<String>) {
    let dir = muster_testkit::edited_project(files, rel, edit);
    let db = load(dir.path());
    let scenario = db.index_of(&dir.path().join(rel)).unwrap();
    let cx = ScenarioCx::new(FileCx::new(&db, scenario).unwrap()).unwrap();
    let mut sink = muster_db::report::Sink::new(&cx.file.loaded.file);
    let before = cx.entry_lookups();
    run(&cx, &mut sink);
    let lookups = cx.entry_lookups() - before;
    (
        lookups,
        sink.finish().into_iter().map(|d| d.message).collect(),
    )
}

/// A project holding the PRESTAGS system, its map and Clontarf with the Vikings' two
/// zones (`AllSea`, `Near(label: "J", radius: 2)`) replaced by `shore`.
fn clontarf_with(fleet: &str, shore: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let copy = |rel: &str, edit: &dyn Fn(String) -> String| {
        muster_testkit::copy_edited(dir.path(), rel, edit)
    };
    copy("scenarios/prestags/prestags.system.ron", &|t| t);
    copy("maps/prestags/mapsheet.map.ron", &|t| t);
    copy("scenarios/prestags/5-2-clontarf.scenario.ron", &|t| {
        let t = t.replacen("zone: Some(AllSea)", &format!("zone: Some({fleet})"), 1);
        t.replacen(
            "zone: Some(Near(label: \"J\", radius: 2))",
            &format!("zone: Some({shore})"),
            1,
        )
    });
    dir
}

fn zones<'a>(cx: &'a ScenarioCx<'a>) -> Vec<&'a Zone> {
    cx.zoned_sides()[0]
        .forces
        .deploy
        .iter()
        .filter_map(|d| d.zone.as_ref())
        .collect()
}

#[test]
fn copies_of_a_zone_in_an_any_of_are_resolved_once() {
    let copies = 5_000;
    let any_of = |zone: &str| format!("AnyOf([{}])", vec![zone; copies].join(", "));
    let near = "Near(label: \"J\", radius: 2)";
    let dir = clontarf_with(&any_of("AllSea"), &any_of(near));
    let db = load(dir.path());
    let scenario = db
        .index_of(
            &dir.path()
                .join("scenarios/prestags/5-2-clontarf.scenario.ron"),
        )
        .unwrap();
    let cx = ScenarioCx::new(FileCx::new(&db, scenario).unwrap()).unwrap();
    let [fleet, shore] = zones(&cx)[..] else {
        panic!("two zones")
    };
    let before = cx.zone_resolutions();
    let sea = cx.zone_hexes(fleet).unwrap();
    let beach = cx.zone_hexes(shore).unwrap();
    // The AnyOf and its one distinct part, for each zone.
    assert_eq!(cx.zone_resolutions() - before, 4);
    // The same hexes as one copy.
    let plain = clontarf_with("AllSea", near);
    let plain_db = load(plain.path());
    let plain_index = plain_db
        .index_of(
            &plain
                .path()
                .join("scenarios/prestags/5-2-clontarf.scenario.ron"),
        )
        .unwrap();
    let plain_cx = ScenarioCx::new(FileCx::new(&plain_db, plain_index).unwrap()).unwrap();
    let [one_fleet, one_shore] = zones(&plain_cx)[..] else {
        panic!("two zones")
    };
    assert!(!sea.is_empty());
    assert_eq!(sea, plain_cx.zone_hexes(one_fleet).unwrap());
    assert_eq!(beach, plain_cx.zone_hexes(one_shore).unwrap());
    assert_eq!(beach.len(), 19, "the hexes within 2 of J, once each");
}

#[test]
fn the_parts_of_an_any_of_are_united_and_an_unknown_label_is_named() {
    let dir = clontarf_with(
        "AnyOf([Near(label: \"J\", radius: 1), AnyOf([Near(label: \"J\", radius: 1), Near(label: \"J\", radius: 2)])])",
        "AnyOf([Near(label: \"J\", radius: 1), Near(label: \"nowhere\", radius: 1)])",
    );
    let db = load(dir.path());
    let scenario = db
        .index_of(
            &dir.path()
                .join("scenarios/prestags/5-2-clontarf.scenario.ron"),
        )
        .unwrap();
    let cx = ScenarioCx::new(FileCx::new(&db, scenario).unwrap()).unwrap();
    let [fleet, shore] = zones(&cx)[..] else {
        panic!("two zones")
    };
    let hexes = cx.zone_hexes(fleet).unwrap();
    assert_eq!(hexes.len(), 19);
    assert!(hexes.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
    assert_eq!(cx.zone_hexes(shore).unwrap_err(), "nowhere");
}

/// Deployment groups that shade the same hexes under the same name are drawn as one zone:
/// a scenario repeating one group thousands of times drew (and the renderer wrote) the
/// zone's hexes once per copy, hundreds of megabytes of SVG.
#[test]
fn repeated_deployment_zones_are_drawn_once() {
    let dir = tempfile::tempdir().unwrap();
    let copy = |rel: &str, edit: &dyn Fn(String) -> String| {
        muster_testkit::copy_edited(dir.path(), rel, edit)
    };
    copy("scenarios/prestags/prestags.system.ron", &|t| t);
    copy("maps/prestags/mapsheet.map.ron", &|t| t);
    let rel = "scenarios/prestags/5-2-clontarf.scenario.ron";
    copy(rel, &|t| {
        let groups = "(zone: Some(AllSea)), ".repeat(300);
        t.replacen("deploy: [", &format!("deploy: [{groups}"), 1)
    });
    let db = load(dir.path());
    let scenario = db.index_of(&dir.path().join(rel)).unwrap();
    let cx = ScenarioCx::new(FileCx::new(&db, scenario).unwrap()).unwrap();
    assert_eq!(zones(&cx).len(), 302, "the copies are read");
    let board = cx.board(1);
    let first_side: Vec<_> = board.zones.iter().filter(|z| z.side == 0).collect();
    // The named groups `fleet` and `shore`, and the unnamed all-sea group once.
    assert_eq!(
        first_side.len(),
        3,
        "{:?}",
        first_side.iter().map(|z| &z.label).collect::<Vec<_>>()
    );
    assert!(first_side.iter().all(|z| !z.hexes.is_empty()));
}

/// A victory goal written many times over is one mark on the board: Clontarf with one
/// label named thousands of times in a `Control` goal, and an `Exit` goal repeated,
/// drew (and the renderer wrote) a mark per copy, hundreds of megabytes of SVG; and the
/// movement check searched for each copy.
#[test]
fn repeated_goals_are_marked_once() {
    let dir = tempfile::tempdir().unwrap();
    let copy = |rel: &str, edit: &dyn Fn(String) -> String| {
        muster_testkit::copy_edited(dir.path(), rel, edit)
    };
    copy("scenarios/prestags/prestags.system.ron", &|t| t);
    copy("maps/prestags/mapsheet.map.ron", &|t| t);
    let rel = "scenarios/prestags/5-2-clontarf.scenario.ron";
    let exit = "Exit(units: 10, edge: South, excluding: [\"VF\", \"2L\", \"3L\"])";
    copy(rel, &|t| {
        let labels = "\"J\", ".repeat(3000);
        let exits = format!("{exit}, ").repeat(300);
        let t = t.replacen(
            "[[Control(labels: [\"J\"]), ",
            &format!("[[Control(labels: [{labels}\"J\"]), {exits}"),
            1,
        );
        assert!(t.contains(&labels), "the edit applies");
        t
    });
    let db = load(dir.path());
    let scenario = db.index_of(&dir.path().join(rel)).unwrap();
    let cx = ScenarioCx::new(FileCx::new(&db, scenario).unwrap()).unwrap();
    let vikings = cx
        .scenario
        .sides
        .iter()
        .position(|s| s.id == "vikings")
        .unwrap();
    let board = cx.board(1);
    let marks: Vec<_> = board
        .objectives
        .iter()
        .filter(|o| o.side == Some(vikings))
        .map(|o| o.text.as_str())
        .collect();
    assert_eq!(marks.len(), 1, "{} marks", marks.len());
    assert_eq!(marks[0], "control J");
    // The movement check searches for a label named again in one list once.
    let control: Vec<_> = cx
        .objectives()
        .into_iter()
        .filter(|o| o.side == vikings && o.what.starts_with("label `J`"))
        .collect();
    assert_eq!(control.len(), 1, "{} objectives for `J`", control.len());
    let exits = board
        .exit_edges
        .iter()
        .filter(|e| e.side == vikings)
        .count();
    assert_eq!(exits, 1);
}

/// The sides that field each counter are found once per check, not by reading every
/// set-up group again for each counter a special rule names: thousands of hooks naming
/// counters in a scenario of thousands of groups took seconds.
#[test]
fn hooks_find_the_sides_of_their_counters_in_one_pass() {
    let dir = tempfile::tempdir().unwrap();
    let copy = |rel: &str, edit: &dyn Fn(String) -> String| {
        muster_testkit::copy_edited(dir.path(), rel, edit)
    };
    copy("scenarios/lrf/lrf.system.ron", &|t| t);
    copy("scenarios/lrf/lrf.counters.ron", &|t| t);
    copy("maps/lrf/jengland.map.ron", &|t| t);
    let rel = "scenarios/lrf/jengland.scenario.ron";
    let group = "(units: [(counter: \"saxe\", count: 2)], at: Hexes([\"0903\", \"1004\"])),";
    copy(rel, &|t| {
        let groups = format!("{group} ").repeat(500);
        let hooks = "(hook: \"evasion\", params: {\"counters\": [\"saxe\"], \"roll_at_least\": 5, \"retreat_hexes\": [1, 2]}, text: \"x\"), ".repeat(500);
        let t = t.replacen(group, &groups, 1);
        let t = t.replacen("special_rules: [", &format!("special_rules: [{hooks}"), 1);
        assert!(t.contains(&hooks), "the edit applies");
        t
    });
    let db = load(dir.path());
    let scenario = db.index_of(&dir.path().join(rel)).unwrap();
    let cx = ScenarioCx::new(FileCx::new(&db, scenario).unwrap()).unwrap();
    assert!(cx.groups().len() >= 500, "{} groups", cx.groups().len());
    assert!(cx.hooks().len() >= 500, "{} hooks", cx.hooks().len());
    let mut sink = muster_db::report::Sink::new(&cx.file.loaded.file);
    let before = muster_check::checks::hooks::fielded_work();
    muster_check::checks::hooks::counter_wrong_side::run(&cx, &mut sink);
    muster_check::checks::hooks::counter_not_in_scenario::run(&cx, &mut sink);
    let work = muster_check::checks::hooks::fielded_work() - before;
    let once = cx.groups().len() + cx.scenario.reinforcements.len();
    assert!(
        work <= 2 * once,
        "{work} groups read, {once} in the scenario"
    );
}

/// A sample listing the same unit on one hex thousands of times is a stack of at most
/// `MAX_DRAWN_COPIES` counters that count them all: a counter per line drew (and the
/// HTML page carried) hundreds of megabytes.
#[test]
fn a_stack_of_thousands_of_alike_units_is_drawn_as_a_few_counters() {
    use muster_semantic::board::MAX_DRAWN_COPIES;
    let dir = tempfile::tempdir().unwrap();
    let copy = |rel: &str, edit: &dyn Fn(String) -> String| {
        muster_testkit::copy_edited(dir.path(), rel, edit)
    };
    copy("scenarios/prestags/prestags.system.ron", &|t| t);
    copy("maps/prestags/mapsheet.map.ron", &|t| t);
    let rel = "scenarios/prestags/4-4-paris.scenario.ron";
    let line = "(hex: \"2024\", units: [(kind: \"IB\", count: 2)]),";
    copy(rel, &|t| {
        let many = "(kind: \"IB\", count: 2), ".repeat(3000);
        let t = t.replacen(line, &format!("(hex: \"2024\", units: [{many}]),"), 1);
        assert!(t.contains(&many), "the edit applies");
        t
    });
    let db = load(dir.path());
    let scenario = db.index_of(&dir.path().join(rel)).unwrap();
    let cx = ScenarioCx::new(FileCx::new(&db, scenario).unwrap()).unwrap();
    let board = cx.board(1);
    let hex = muster_hex::HexId::parse("2024").unwrap();
    let stack: Vec<_> = board.pieces.iter().filter(|p| p.hex == hex).collect();
    assert!(
        stack.len() <= usize::from(MAX_DRAWN_COPIES),
        "{} counters on one hex",
        stack.len()
    );
    let units: u32 = stack.iter().map(|p| u32::from(p.count)).sum();
    assert_eq!(units, 6000, "the stack counts every unit");
}

/// A deployment group that lists one kind on thousands of lines asks where that kind may
/// stand as often as one that lists it once: `zones::too-small` looked every line up over
/// every hex of the zone, two seconds for a 450 KB scenario.
#[test]
fn a_kind_listed_on_many_lines_is_looked_up_once_by_the_zone_check() {
    // Clontarf with the shore group's units replaced by `lines` lines of one AX each; the
    // lookups and the messages of `zones::too-small`.
    let check = |lines: usize| {
        let shore = "units: [(kind: \"AX\", count: 6), (kind: \"IB\", count: 6), (kind: \"3L\", count: 2)],";
        let edit = |t: String| {
            let one = format!("(kind: \"AX\", count: {}), ", 3_000 / lines);
            let edited = t.replacen(shore, &format!("units: [{}],", one.repeat(lines)), 1);
            assert_ne!(edited, t, "the edit applies");
            edited
        };
        lookups_of(
            &[
                "scenarios/prestags/prestags.system.ron",
                "maps/prestags/mapsheet.map.ron",
            ],
            "scenarios/prestags/5-2-clontarf.scenario.ron",
            &edit,
            muster_check::checks::zones::too_small::run,
        )
    };
    let (once, one_line) = check(1);
    let (many, many_lines) = check(3_000);
    assert_eq!(many, once, "lookups for 3,000 lines against one");
    // 3,000 AX in the 19 hexes within 2 of J, at 3 a hex: the same words either way,
    // the lines counted whole.
    assert_eq!(many_lines, one_line);
    assert!(
        many_lines
            .iter()
            .any(|m| m.contains("room for 57 `AX` but 3000 set up there")),
        "{many_lines:?}"
    );
}

/// Deployment groups that each write the same zone resolve it once: the cache was kept by
/// the zone's address, so 3,000 groups deploying `Near(label: "J", radius: 2)` resolved
/// it 3,000 times (over a second for a 3 MB scenario).
#[test]
fn the_same_zone_written_by_many_groups_is_resolved_once() {
    let dir = tempfile::tempdir().unwrap();
    let copy = |rel: &str, edit: &dyn Fn(String) -> String| {
        muster_testkit::copy_edited(dir.path(), rel, edit)
    };
    copy("scenarios/prestags/prestags.system.ron", &|t| t);
    copy("maps/prestags/mapsheet.map.ron", &|t| t);
    let rel = "scenarios/prestags/5-2-clontarf.scenario.ron";
    copy(rel, &|t| {
        let groups = "(zone: Some(Near(label: \"J\", radius: 2))), ".repeat(3_000);
        t.replacen("deploy: [", &format!("deploy: [{groups}"), 1)
    });
    let db = load(dir.path());
    let scenario = db.index_of(&dir.path().join(rel)).unwrap();
    let cx = ScenarioCx::new(FileCx::new(&db, scenario).unwrap()).unwrap();
    let zones = zones(&cx);
    assert_eq!(zones.len(), 3_002, "the copies are read");
    let before = cx.zone_resolutions();
    let first = cx.zone_hexes(zones[0]).unwrap();
    for zone in &zones {
        cx.zone_hexes(zone).unwrap();
    }
    // `Near(J, 2)` once, and the fleet's `AllSea` once.
    assert_eq!(cx.zone_resolutions() - before, 2);
    assert_eq!(first.len(), 19);
}

/// A reinforcement written many times over is judged once, on one board for its turn:
/// `reinforcements::cannot-arrive` laid out the whole board again for each, two seconds
/// for 1,100 copies of one Fontenoy line (135 KB).
#[test]
fn repeated_reinforcements_are_judged_on_one_board_a_turn() {
    let judge = |copies: usize| {
        let dir = tempfile::tempdir().unwrap();
        let copy = |rel: &str, edit: &dyn Fn(String) -> String| {
            muster_testkit::copy_edited(dir.path(), rel, edit)
        };
        copy("scenarios/lrf/lrf.system.ron", &|t| t);
        copy("scenarios/lrf/lrf.counters.ron", &|t| t);
        copy("maps/lrf/fontenoy.map.ron", &|t| t);
        let rel = "scenarios/lrf/fontenoy.scenario.ron";
        let line = "(side: \"allies\", turn: 4, units: [(counter: \"provence\", count: 1)], entry: [\"0515\", \"1115\", \"1208\", \"0901\"]),";
        copy(rel, &|t| {
            let edited = t.replacen(line, &line.repeat(copies), 1);
            assert_eq!(edited.matches(line).count(), copies, "the edit applies");
            edited
        });
        let db = load(dir.path());
        let scenario = db.index_of(&dir.path().join(rel)).unwrap();
        let cx = ScenarioCx::new(FileCx::new(&db, scenario).unwrap()).unwrap();
        let before = cx.boards_laid();
        let hemmed = muster_engine::hemmed_in(&cx);
        (cx.boards_laid() - before, hemmed)
    };
    let (one_board, one) = judge(1);
    let (boards, many) = judge(1_000);
    // Turns 3 and 4.
    assert_eq!(one_board, 2);
    assert_eq!(
        boards, 2,
        "boards laid for 1,001 reinforcements of two turns"
    );
    assert_eq!(many.len(), 1_001);
    assert!(
        many[1..].iter().all(|h| *h == one[1]),
        "each copy judged as the one"
    );
    assert_eq!(many[0], one[0]);
}

/// A set-up group that lists one counter on thousands of lines asks where its kind may
/// stand once, not once per line and hex: `setup::impassable-terrain` looked every unit up
/// in every hex of the group, 4.6 s for a 200 KB Montfaucon whose drakkar group was
/// written out 2,700 times.
#[test]
fn impassable_terrain_looks_each_kind_of_a_group_up_once() {
    let check = |lines: usize| {
        let drakkars = "(counter: \"drakkar\", count: 3)";
        let horse = "(counter: \"montfaucon-viking-cavalry-2\", count: 1)";
        // `lines` lines of horse on land, and one with the drakkars on the river, which a
        // special rule opens to drakkars only.
        let group = format!(
            "(units: [{}], at: Hexes([\"0610\", \"0611\", \"0710\"])), ",
            vec![horse; lines].join(", ")
        );
        let edit = |t: String| {
            let edited = t.replacen(
                &format!("(units: [{drakkars}]"),
                &format!("{group}(units: [{drakkars}, {horse}]"),
                1,
            );
            assert!(edited.contains(&group), "the edit applies");
            edited
        };
        lookups_of(
            &[
                "scenarios/lrf/lrf.system.ron",
                "scenarios/lrf/lrf.counters.ron",
                "maps/lrf/montfaucon.map.ron",
            ],
            "scenarios/lrf/montfaucon.scenario.ron",
            &edit,
            muster_check::checks::setup::impassable_terrain::run,
        )
    };
    let (once, one_line) = check(1);
    let (many, many_lines) = check(2_000);
    assert_eq!(many, once, "lookups for 2,000 lines against one");
    assert_eq!(many_lines, one_line);
    // The horse is named, not the drakkar the special rule lets onto the river.
    assert!(
        one_line
            .iter()
            .any(|m| m.starts_with("`montfaucon-viking-cavalry-2` is set up in hex `0101`")),
        "{one_line:?}"
    );
    assert!(
        !one_line.iter().any(|m| m.contains("`drakkar`")),
        "{one_line:?}"
    );
}

/// The project's `muster.toml` with `checks` turned off.
fn turned_off(checks: &[&str]) -> muster_check::Config {
    let text: String = std::iter::once("[checks]\n".to_string())
        .chain(checks.iter().map(|c| format!("\"{c}\" = \"off\"\n")))
        .collect();
    let file = muster_db::source::SourceFile::new("muster.toml", "muster.toml", text);
    let config = muster_check::config::parse(file, std::path::Path::new("."));
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    config
}

/// A check turned off in `muster.toml` costs nothing: it is not run, rather than run and
/// its findings dropped. The other findings are the same.
#[test]
fn a_check_turned_off_is_not_run() {
    let db = muster_testkit::db::bundled();
    let hastings = muster_testkit::db::index(&db, "scenarios/prestags/5-7-hastings.scenario.ron");
    let off = ["victory::objective-unreachable", "setup::isolated"];
    let count = |config: &muster_check::Config| {
        let before = muster_check::drive::checks_run();
        let found = muster_check::check_file(&db, hastings, config);
        (muster_check::drive::checks_run() - before, found)
    };
    let (all, found_all) = count(&muster_check::Config::default());
    let (fewer, found_fewer) = count(&turned_off(&off));
    assert!(all > 50, "{all} checks run on a scenario");
    assert_eq!(all - fewer, off.len() as u64);
    let codes = |found: &[muster_check::Diagnostic]| -> Vec<(String, usize)> {
        found
            .iter()
            .filter(|d| !off.contains(&d.code))
            .map(|d| (d.code.to_string(), d.span.start))
            .collect()
    };
    assert_eq!(codes(&found_all), codes(&found_fewer));
}

/// A suppression of a check that is turned off is not "unused": the check did not run,
/// so nothing says the suppression is not needed.
#[test]
fn a_suppression_of_a_check_turned_off_is_not_called_unused() {
    let rel = "scenarios/prestags/5-7-hastings.scenario.ron";
    let dir = muster_testkit::edited_project(
        &[
            "scenarios/prestags/prestags.system.ron",
            "maps/prestags/mapsheet.map.ron",
        ],
        rel,
        &|t| {
            t.replacen(
                "\n    id: \"",
                "\n    // muster: allow(setup::isolated) reason: a test\n    id: \"",
                1,
            )
        },
    );
    let db = load(dir.path());
    let scenario = db.index_of(&dir.path().join(rel)).unwrap();
    let unused = |config: &muster_check::Config| {
        muster_check::check_file(&db, scenario, config)
            .iter()
            .filter(|d| d.code == "suppression::unused")
            .count()
    };
    assert_eq!(unused(&muster_check::Config::default()), 1);
    assert_eq!(unused(&turned_off(&["setup::isolated"])), 0);
}
