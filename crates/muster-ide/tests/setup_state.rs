//! Set-up state in a placed scenario: units starting reduced, holding boxes, groups the
//! owner picks from and hidden set-up, as the summary counts and words them; each
//! mutated until a check catches it.

use muster_db::Db;
use muster_ide::summary::{ScenarioSummary, summarize};
use muster_semantic::{FileCx, ScenarioCx};
use muster_testkit::{copy_project, replace};

const JENGLAND: &str = "scenarios/lrf/jengland.scenario.ron";

/// Jengland with every kind of set-up state (`muster_testkit::JENGLAND_SET_UP_STATE`);
/// `edit` then changes the text further.
fn jengland_with_state(edit: &[(&str, &str)]) -> (tempfile::TempDir, Db) {
    let dir = copy_project();
    let path = dir.path().join(JENGLAND);
    for (from, to) in muster_testkit::JENGLAND_SET_UP_STATE {
        replace(&path, from, to);
    }
    for (from, to) in edit {
        replace(&path, from, to);
    }
    let db = muster_testkit::db::load(dir.path());
    (dir, db)
}

fn codes(db: &Db, dir: &tempfile::TempDir) -> Vec<String> {
    let index = db.index_of(&dir.path().join(JENGLAND)).unwrap();
    muster_check::validate(db, &[index], &muster_check::Config::default())
        .into_iter()
        .map(|d| d.code.to_string())
        .collect()
}

fn summary_of(db: &Db, dir: &tempfile::TempDir) -> ScenarioSummary {
    let index = db.index_of(&dir.path().join(JENGLAND)).unwrap();
    summarize(&ScenarioCx::new(FileCx::new(db, index).unwrap()).unwrap())
}

#[test]
fn the_summary_counts_each_unit_by_its_starting_state() {
    let bundled = muster_testkit::db::bundled();
    let index = muster_testkit::db::index(&bundled, JENGLAND);
    let before = summarize(&ScenarioCx::new(FileCx::new(&bundled, index).unwrap()).unwrap());
    let (dir, db) = jengland_with_state(&[]);
    assert_eq!(codes(&db, &dir), Vec::<String>::new());
    let after = summary_of(&db, &dir);
    let (franks, bretons) = (&after.sides[0], &after.sides[1]);
    // Two Saxe lose a step each (3 to 2); the reserve bowman (1) and the six infantry the
    // owner picks five of (3 x 3 + 3 x 2) leave the certain total.
    assert_eq!(
        franks.combat_strength,
        before.sides[0].combat_strength - 2 - 1 - 15
    );
    assert_eq!(franks.combat_units, before.sides[0].combat_units - 1 - 6);
    let saxe = franks.by_unit.iter().find(|u| u.name == "Saxe").unwrap();
    assert_eq!(
        (saxe.strength, saxe.count, saxe.status.as_deref()),
        (2, 2, Some("Reduced"))
    );
    let saxe_line = franks.setup.iter().find(|l| l.counter == "saxe").unwrap();
    assert_eq!(saxe_line.status.as_deref(), Some("Reduced"));
    let boxes: Vec<(String, Vec<(String, usize)>)> = franks
        .boxes
        .iter()
        .map(|b| {
            let units = b
                .units
                .iter()
                .map(|u| (u.counter.clone(), u.count))
                .collect();
            (b.name.clone(), units)
        })
        .collect();
    assert_eq!(
        boxes,
        [(
            "reserves box".to_string(),
            vec![("jengland-bowmen".to_string(), 1)]
        )]
    );
    let infantry = franks
        .setup
        .iter()
        .find(|l| l.counter == "jengland-infantry-3")
        .unwrap();
    assert_eq!(
        infantry.placement,
        "the owner picks 5 of these 6: hexes 0403, 0504, 0603, 1304, 1403"
    );
    assert!(!franks.hidden && bretons.hidden);
    // The Bretons' units are counted as before: hidden is who sees, not what is there.
    assert_eq!(bretons.combat_strength, before.sides[1].combat_strength);
}

#[test]
fn a_misspelt_or_impossible_starting_status_is_caught() {
    let (dir, db) = jengland_with_state(&[(r#"status: "reduced""#, r#"status: "reduce""#)]);
    assert_eq!(codes(&db, &dir), ["setup::unknown-status"]);
    let (dir, db) = jengland_with_state(&[(r#"status: "reduced""#, r#"status: "eliminated""#)]);
    assert_eq!(codes(&db, &dir), ["setup::impossible-status"]);
}

#[test]
fn copies_in_a_box_count_against_the_sheet() {
    let (dir, db) = jengland_with_state(&[(
        r#"(units: [(counter: "jengland-bowmen")], at: Box(Reserves)),"#,
        r#"(units: [(counter: "jengland-bowmen", count: 2)], at: Box(Reserves)),"#,
    )]);
    assert_eq!(codes(&db, &dir), ["setup::exceeds-counter-sheet"]);
}

#[test]
fn a_group_picking_more_than_it_lists_or_than_its_hexes_is_caught() {
    let (dir, db) = jengland_with_state(&[("choose: 5,", "choose: 7,")]);
    assert_eq!(codes(&db, &dir), ["setup::choose-out-of-range"]);
    let (dir, db) = jengland_with_state(&[("choose: 5,", "choose: 4,")]);
    assert_eq!(codes(&db, &dir), ["setup::count-mismatch"]);
}
