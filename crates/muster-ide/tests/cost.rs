//! What hostile inputs cost the balance sheet, measured by the work it gives back
//! rather than by the clock.

use muster_semantic::{FileCx, ScenarioCx};
use muster_testkit::db::load;

/// A counter listed many times in one setup group is one line of the summary counting
/// them all: a line per listing, each with its own copy of the group's hexes, filled
/// gigabytes for a neutral placement naming one counter a hundred thousand times.
#[test]
fn a_counter_listed_many_times_is_one_summary_line() {
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
        let many = "(counter: \"saxe\", count: 2), ".repeat(3000);
        let t = t.replacen(
            group,
            &format!("(units: [{many}], at: Hexes([\"0903\", \"1004\"])),"),
            1,
        );
        assert!(t.contains(&many), "the edit applies");
        t
    });
    let db = load(dir.path());
    let scenario = db.index_of(&dir.path().join(rel)).unwrap();
    let cx = ScenarioCx::new(FileCx::new(&db, scenario).unwrap()).unwrap();
    let summary = muster_ide::summary::summarize(&cx);
    let saxe: Vec<_> = summary
        .sides
        .iter()
        .flat_map(|s| &s.setup)
        .filter(|l| l.counter == "saxe")
        .collect();
    assert_eq!(saxe.len(), 1, "{} lines for `saxe`", saxe.len());
    assert_eq!(saxe[0].count, 6000);
}

/// Deployment groups that list no units each take what the force has left, counted by
/// kind: a force naming one kind on thousands of lines gave every such group a line per
/// listing, and 1,800 groups over 20,000 lines filled 18 GB.
#[test]
fn groups_that_list_nothing_take_the_rest_by_kind() {
    let dir = tempfile::tempdir().unwrap();
    let copy = |rel: &str, edit: &dyn Fn(String) -> String| {
        muster_testkit::copy_edited(dir.path(), rel, edit)
    };
    copy("scenarios/prestags/prestags.system.ron", &|t| t);
    copy("maps/prestags/mapsheet.map.ron", &|t| t);
    let rel = "scenarios/prestags/5-6-stamford-bridge.scenario.ron";
    let (lines, groups) = (2_000, 300);
    copy(rel, &|t| {
        let deploy = "deploy: [(zone: Some(Near(label: \"H\", radius: 5)))],";
        let many = format!(
            "deploy: [{}],",
            "(zone: Some(Near(label: \"H\", radius: 5))), ".repeat(groups)
        );
        let t = t.replacen(deploy, &many, 1);
        let units = "units: [";
        let at = t.find(units).expect("the force's units");
        let edited = format!(
            "{}{units}{}{}",
            &t[..at],
            "(kind: \"MI\", count: 3), ".repeat(lines),
            &t[at + units.len()..]
        );
        assert!(edited.contains(&many), "the edit applies");
        edited
    });
    let db = load(dir.path());
    let scenario = db.index_of(&dir.path().join(rel)).unwrap();
    let cx = ScenarioCx::new(FileCx::new(&db, scenario).unwrap()).unwrap();
    let summary = muster_ide::summary::summarize(&cx);
    let side = &summary.sides[0];
    let mi: Vec<_> = side.setup.iter().filter(|l| l.counter == "MI").collect();
    assert_eq!(mi.len(), groups, "one `MI` line a group");
    assert!(
        mi.iter().all(|l| l.count >= 3 * lines),
        "each counts every listed `MI`: {:?}",
        mi.iter().map(|l| l.count).collect::<Vec<_>>()
    );
    let kinds: std::collections::HashSet<_> = side.setup.iter().map(|l| &l.counter).collect();
    assert_eq!(
        side.setup.len(),
        groups * kinds.len(),
        "a line per group and kind"
    );
}

/// Hook parameters are written out compactly, strings unquoted, into one string: a
/// parameter list of a million numbers made a string per number first (450 MB for a
/// 4 MB scenario).
#[test]
fn hook_parameters_are_written_compactly() {
    use muster_ide::summary::params_text;
    let params = serde_json::json!({"side": "north", "kinds": ["AX", "SD"], "limit": 3,
        "at": {"hex": "0109", "open": true}, "none": null});
    assert_eq!(
        params_text(&params),
        "side: north, kinds: [AX, SD], limit: 3, at: {hex: 0109, open: true}, none: null"
    );
    assert_eq!(params_text(&serde_json::Value::Null), "");
    assert_eq!(params_text(&serde_json::json!([1, "x"])), "[1, x]");
    let many = serde_json::json!({"columns": vec![1; 100_000]});
    let text = params_text(&many);
    assert_eq!(text.len(), "columns: [".len() + 100_000 * 3 - 2 + 1);
}

/// The balance sheet reads every set-up group a fixed number of times, however many sides
/// there are: each side's lines asked for all the groups and kept its own, so a scenario
/// with 6,500 sides took over a second.
#[test]
fn the_groups_are_read_whole_as_often_for_many_sides_as_for_few() {
    let scans = |extra: usize| {
        let rel = "scenarios/lrf/jengland.scenario.ron";
        let side = |k: usize| {
            format!(
                "(id: \"extra-{k}\", name: \"Extra {k}\", army: \"jengland-franks\", \
                 forces: Placed(setup: [(units: [(counter: \"saxe\", count: 1)], \
                 at: Hexes([\"0903\"]))])), "
            )
        };
        let sides: String = (0..extra).map(side).collect();
        let edit = |t: String| {
            let edited = t.replacen("sides: [", &format!("sides: [{sides}"), 1);
            assert!(extra == 0 || edited != t, "the edit applies");
            edited
        };
        let files = [
            "scenarios/lrf/lrf.system.ron",
            "scenarios/lrf/lrf.counters.ron",
            "maps/lrf/jengland.map.ron",
        ];
        let dir = muster_testkit::edited_project(&files, rel, &edit);
        let db = load(dir.path());
        let scenario = db.index_of(&dir.path().join(rel)).unwrap();
        let cx = ScenarioCx::new(FileCx::new(&db, scenario).unwrap()).unwrap();
        let before = cx.group_scans();
        let summary = muster_ide::summary::summarize(&cx);
        assert_eq!(summary.sides.len(), 2 + extra);
        // Each extra side's one `saxe` is on its own balance sheet.
        assert!(
            summary.sides[..extra]
                .iter()
                .all(|s| s.by_unit.iter().map(|l| l.count).sum::<usize>() == 1),
            "one unit on each extra side"
        );
        cx.group_scans() - before
    };
    let few = scans(0);
    let many = scans(500);
    assert_eq!(
        many, few,
        "whole reads of the groups for 502 sides against 2"
    );
}
