//! The owner's choices of `examples/harrow-ford`, whose Crown sets up 2 of its horse and
//! two guns (`choose: 2`) on 0504 and 0506: all three wait in the "To place" window, in a
//! box of their own whose label gives the rule and the hexes.

use muster_db::project::Db;
use muster_semantic::{FileCx, ScenarioCx};

use super::*;

fn harrow() -> (Db, usize) {
    let db = muster_testkit::db::load(&muster_testkit::repo().join("examples/harrow-ford"));
    let index = (0..db.files.len())
        .find(|&i| matches!(db.doc(i), Some(Document::Scenario(s)) if s.id == "harrow-ford"))
        .expect("the Harrow scenario is loaded");
    (db, index)
}

/// The label and the top of each box drawn on a "To place" board.
fn boxes(svg: &str) -> Vec<(String, f64)> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let tops: Vec<f64> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("none"))
        .map(|n| n.attribute("y").unwrap().parse().unwrap())
        .collect();
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("font-size") == Some("10"))
        .map(|n| {
            let y: f64 = n.attribute("y").unwrap().parse().unwrap();
            // The label is the box's second line, in the box whose top is just above it.
            let top = tops
                .iter()
                .copied()
                .filter(|t| *t < y)
                .fold(f64::MIN, f64::max);
            (n.text().unwrap_or_default().to_string(), top)
        })
        .collect()
}

#[test]
fn a_choose_group_waits_in_a_box_of_its_own_that_names_the_rule() {
    let (db, index) = harrow();
    let cx = ScenarioCx::new(FileCx::new(&db, index).unwrap()).unwrap();
    // The scenario's own counts: a group that lists 3 units and picks 2 of them.
    let group = cx.groups().iter().find(|g| g.choose.is_some()).unwrap();
    let (n, m) = (group.choose.unwrap(), group.units.len());
    assert!(usize::from(n) < m, "{n} of {m}");
    let mut counters: Vec<&str> = group.units.iter().map(|u| u.counter_id).collect();
    counters.sort();

    let exported = export(&db, &[index], None).unwrap();
    let module = crate::read::module(&exported.bytes).unwrap();
    let setup = module
        .setups
        .iter()
        .find(|s| s.name == cx.scenario.name)
        .unwrap();
    // The board leaves one of them off its hexes; the window still holds all three.
    let mut in_set_up: Vec<&str> = setup
        .pieces
        .iter()
        .filter(|p| p.map == TO_PLACE)
        .map(|p| p.get("Counter"))
        .filter(|c| counters.contains(c))
        .collect();
    in_set_up.sort();
    assert_eq!(in_set_up, counters);
    // Only the units that start in a holding box are left out, each named.
    let boxed: Vec<&str> = cx
        .groups()
        .iter()
        .filter(|g| matches!(g.at, muster_model::scenario::Placement::Box(_)))
        .flat_map(|g| g.units.iter().map(|u| u.counter_id))
        .collect();
    assert_eq!(
        exported.left_out.len(),
        boxed.len(),
        "{:?}",
        exported.left_out
    );
    for (line, counter) in exported.left_out.iter().zip(&boxed) {
        assert!(
            line.contains(&format!("`{counter}` is not in its set-up")),
            "{line}"
        );
    }

    // The label of the box, drawn on the window's board.
    let system = cx.system.unwrap();
    let map = cx.map.unwrap();
    let grid = Grid::for_layout(map.grid().layout, SCALE);
    let mut palette = Palette::default();
    let (_, _, area) = super::setup(&cx, system, &mut palette, "board", &grid).unwrap();
    let labelled: Vec<(String, f64)> = boxes(&area.svg)
        .into_iter()
        .filter(|(label, _)| label.starts_with(&format!("choose {n} of these {m}")))
        .collect();
    let [(label, top)] = labelled.as_slice() else {
        panic!("one box for the group: {labelled:?}");
    };
    assert!(label.ends_with(" 0504 0506"), "{label}");
    // Read back, its counters are in that box and nothing else is.
    let mut boxed: Vec<&str> = Vec::new();
    for p in &setup.pieces {
        let y = f64::from(p.at.1);
        if p.map == TO_PLACE && y > *top && y < top + BOX_H {
            assert_eq!(
                (p.get("Placement"), p.get("Hexes")),
                ("owner's choice", "0504 0506"),
                "{}",
                p.get("Counter")
            );
            boxed.push(p.get("Counter"));
        }
    }
    boxed.sort();
    assert_eq!(boxed, counters);
}
