//! Every bundled system exported as a VASSAL module and read back: the XML parses, every
//! image it names is in the archive, re-export gives the same bytes, every set-up puts
//! each counter on the hex the scenario gives it (read through VASSAL's grid
//! arithmetic), and `--into` keeps a designer's own entries and components.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use muster_db::load::Document;
use muster_db::project::Db;
use muster_semantic::board::PieceState;
use muster_semantic::{FileCx, ScenarioCx};
use muster_testkit::db::bundled;
use muster_vassal::read::{ReadModule, module};
use muster_vassal::{BATTLEFIELD, HOLDING, TO_PLACE, export};

/// The scenarios of each rules system of the bundled project, by system id.
fn by_system(db: &Db) -> BTreeMap<String, Vec<usize>> {
    let mut out: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for i in 0..db.files.len() {
        if let Some(Document::Scenario(s)) = db.doc(i) {
            out.entry(s.system.clone()).or_default().push(i);
        }
    }
    out
}

/// A system, its scenarios and its module.
type Exported = (String, Vec<usize>, muster_vassal::Export);

/// The bundled project and every system with a hex map exported, made once: drawing
/// the boards is the slow part.
fn fixture() -> &'static (Db, Vec<Exported>) {
    static FIXTURE: OnceLock<(Db, Vec<Exported>)> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let db = bundled();
        let mut out = Vec::new();
        for (system, scenarios) in by_system(&db) {
            let on_hexes = scenarios.iter().any(|&i| {
                FileCx::new(&db, i)
                    .and_then(ScenarioCx::new)
                    .is_some_and(|cx| cx.map.is_some())
            });
            match export(&db, &scenarios, None) {
                Ok(e) => out.push((system, scenarios, e)),
                // Open-table systems have no hex grid for VASSAL, and say so.
                Err(why) if !on_hexes => assert!(why.contains("hex map"), "{why}"),
                Err(why) => panic!("{system} does not export: {why}"),
            }
        }
        (db, out)
    })
}

fn exported(_: &Db) -> &'static [Exported] {
    &fixture().1
}

#[test]
fn the_build_file_parses_and_every_image_it_names_is_in_the_module() {
    let db = &fixture().0;
    for (system, _, e) in exported(db) {
        let m = module(&e.bytes).unwrap();
        let doc = roxmltree::Document::parse(&m.build_file).unwrap();
        assert_eq!(
            doc.root_element().tag_name().name(),
            "VASSAL.build.GameModule"
        );
        let mut named = Vec::new();
        for node in doc.descendants() {
            for key in ["image", "fileName"] {
                if let Some(v) = node.attribute(key) {
                    named.push(v.to_string());
                }
            }
            // Piece definitions name their images in the BasicPiece and layer traits.
            if let Some(text) = node.text()
                && text.starts_with("+/")
            {
                for word in text.split([';', ',', '\t', '/', '\\']) {
                    if word.ends_with(".png") || word.ends_with(".svg") {
                        named.push(word.to_string());
                    }
                }
            }
        }
        assert!(named.len() > 3, "{system}: only {named:?}");
        for image in named.iter().filter(|n| !n.is_empty()) {
            assert!(
                m.entry(&format!("images/{image}")).is_some(),
                "{system}: `{image}` is named but not in the module"
            );
        }
        assert!(m.boards.iter().any(|b| b.grid.is_some()), "{system}");
        for board in &m.boards {
            let bytes = m.entry(&format!("images/{}", board.image)).unwrap();
            assert!(bytes.starts_with(b"\x89PNG"), "{system}: {}", board.image);
        }
    }
}

#[test]
fn exporting_twice_gives_the_same_bytes() {
    let db = &fixture().0;
    for (system, scenarios, e) in exported(db) {
        // Again, the scenarios given in another order.
        let reversed: Vec<usize> = scenarios.iter().rev().copied().collect();
        let again = export(db, &reversed, None).unwrap();
        assert!(e.bytes == again.bytes, "{system}: two exports differ");
    }
}

/// Each scenario's counters as muster places them: (map, counter, where) where `where`
/// is the hex on the battlefield, `turn N at HEXES` for a later reinforcement, or
/// `owner's choice` for a counter the owner places (its hexes are checked apart).
fn expected(cx: &ScenarioCx<'_>) -> Vec<(String, String, String)> {
    let first = cx.board(1);
    let mut out: Vec<(String, String, String)> = first
        .pieces
        .iter()
        .map(|p| match p.state {
            PieceState::Chosen | PieceState::Choice => (
                TO_PLACE.to_string(),
                p.counter.clone(),
                "owner's choice".to_string(),
            ),
            _ => (
                BATTLEFIELD.to_string(),
                p.counter.clone(),
                p.hex.to_string(),
            ),
        })
        .collect();
    out.push((
        HOLDING.to_string(),
        muster_vassal::TURN_MARKER.to_string(),
        "turn 1 at none".to_string(),
    ));
    let last = cx.board(first.last_turn.max(1));
    for p in &last.pieces {
        if let PieceState::Arrived { turn } = p.state
            && turn > 1
        {
            out.push((
                HOLDING.to_string(),
                p.counter.clone(),
                format!("turn {turn} at {}", p.hex),
            ));
        }
    }
    out.sort();
    out
}

/// The same read from the module's set-up: a battlefield piece's hex is the name
/// VASSAL's grid gives its position; a reinforcement's is its turn and the entry hex
/// among its named ones that muster's board puts it on.
fn decoded(
    m: &ReadModule,
    name: &str,
    want: &[(String, String, String)],
) -> Vec<(String, String, String)> {
    let setup = m.setups.iter().find(|s| s.name == name).unwrap();
    let board = setup
        .boards
        .iter()
        .find(|(map, _)| map == BATTLEFIELD)
        .map(|(_, b)| m.board(BATTLEFIELD, b).expect("the chosen board exists"))
        .expect("a battlefield board is chosen");
    let grid = board.grid.expect("the battlefield board has a hex grid");
    let mut out: Vec<(String, String, String)> = setup
        .pieces
        .iter()
        .map(|p| {
            let counter = p.get("Counter").to_string();
            if p.map == BATTLEFIELD {
                (p.map.clone(), counter, grid.location_name(p.at))
            } else if p.map == TO_PLACE {
                (p.map.clone(), counter, p.get("Placement").to_string())
            } else {
                let hexes: Vec<&str> = p.get("Hexes").split(' ').collect();
                // The hex muster's board gives it, when it is one of the named ones.
                let at = want
                    .iter()
                    .filter(|(map, c, _)| map == HOLDING && *c == counter)
                    .filter_map(|(_, _, w)| w.rsplit_once(' ').map(|(_, h)| h))
                    .find(|h| hexes.contains(h))
                    .unwrap_or("none");
                (
                    p.map.clone(),
                    counter,
                    format!("turn {} at {at}", p.get("Turn")),
                )
            }
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_set_up_puts_every_counter_where_the_scenario_does() {
    let db = &fixture().0;
    let mut checked = 0;
    for (system, scenarios, e) in exported(db) {
        let m = module(&e.bytes).unwrap();
        for &index in scenarios {
            let cx = ScenarioCx::new(FileCx::new(db, index).unwrap()).unwrap();
            if cx.map.is_none() {
                assert!(
                    e.skipped.iter().any(|s| s.contains(&cx.scenario.name)),
                    "{system}: `{}` has no set-up and is not reported",
                    cx.scenario.id
                );
                continue;
            }
            let want = expected(&cx);
            assert!(!want.is_empty(), "{}", cx.scenario.id);
            assert_eq!(
                decoded(&m, &cx.scenario.name, &want),
                want,
                "{system}: {}",
                cx.scenario.id
            );
            // Each owner's choice waits with a list of hexes that holds the one
            // muster's board picks for it.
            let setup = m
                .setups
                .iter()
                .find(|s| s.name == cx.scenario.name)
                .unwrap();
            for p in &cx.board(1).pieces {
                if matches!(p.state, PieceState::Chosen | PieceState::Choice) {
                    let hex = p.hex.to_string();
                    assert!(
                        setup.pieces.iter().any(|q| q.map == TO_PLACE
                            && q.get("Counter") == p.counter
                            && q.get("Hexes").split(' ').any(|h| h == hex)),
                        "{}: {} may not go to {hex}",
                        cx.scenario.id,
                        p.counter
                    );
                }
            }
            checked += 1;
        }
    }
    // The four LRF battles and the PRESTAGS scenarios at least.
    assert!(checked >= 23, "only {checked} set-ups checked");
}

#[test]
fn owner_choices_are_marked_and_reinforcements_name_their_entry_hexes() {
    let db = &fixture().0;
    let (mut choices, mut reinforcements) = (0, 0);
    for (_, _, e) in exported(db) {
        let m = module(&e.bytes).unwrap();
        for setup in &m.setups {
            for p in &setup.pieces {
                match p.get("Placement") {
                    "owner's choice" => {
                        choices += 1;
                        assert_eq!(p.map, TO_PLACE);
                        assert!(!p.get("Hexes").is_empty());
                    }
                    "reinforcement" => {
                        reinforcements += 1;
                        assert!(!p.get("Hexes").is_empty() && !p.get("Turn").is_empty());
                    }
                    "" => assert_eq!(p.map, BATTLEFIELD),
                    "turn marker" => assert_eq!((p.map.as_str(), p.get("Turn")), (HOLDING, "1")),
                    other => panic!("placement `{other}`"),
                }
            }
        }
    }
    assert!(
        choices > 0 && reinforcements > 0,
        "{choices} {reinforcements}"
    );
}

#[test]
fn into_an_existing_module_keeps_the_designers_entries_and_components() {
    let db = &fixture().0;
    let (_, scenarios, e) = exported(db).iter().find(|(s, _, _)| s == "lrf").unwrap();
    // A designer's module: muster's, with an image, a dice button and a note of theirs.
    let m = module(&e.bytes).unwrap();
    let build = m.build_file.replace(
        "<VASSAL.build.module.Chatter/>",
        "<VASSAL.build.module.Chatter/>\n<VASSAL.build.module.DiceButton name=\"2d6\" nDice=\"2\" nSides=\"6\"/>",
    );
    let mut entries: Vec<(String, Vec<u8>)> = m
        .entries
        .iter()
        .filter(|(n, _)| n != "buildFile.xml")
        .cloned()
        .collect();
    entries.insert(0, ("buildFile.xml".to_string(), build.into_bytes()));
    entries.push(("images/designer-logo.png".to_string(), b"logo".to_vec()));
    entries.push(("notes.txt".to_string(), b"house rules".to_vec()));
    let designer = write_zip(&entries);
    let updated = export(db, scenarios, Some(&designer)).unwrap();
    let after = module(&updated.bytes).unwrap();
    assert_eq!(after.entry("images/designer-logo.png"), Some(&b"logo"[..]));
    assert_eq!(after.entry("notes.txt"), Some(&b"house rules"[..]));
    assert!(
        after
            .build_file
            .contains("<VASSAL.build.module.DiceButton name=\"2d6\"")
    );
    roxmltree::Document::parse(&after.build_file).unwrap();
    // muster's components once each, and its set-ups back.
    assert_eq!(
        after.build_file.matches("mapName=\"Battlefield\"").count(),
        1
    );
    assert_eq!(after.build_file.matches("name=\"Scenarios\"").count(), 1);
    assert_eq!(after.setups.len(), m.setups.len());
    // Updating again changes nothing.
    let twice = export(db, scenarios, Some(&updated.bytes)).unwrap();
    assert!(twice.bytes == updated.bytes);
}

fn write_zip(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        zip.start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// Fontenoy's two Neustrie infantry (Force 3 and 2) go one on 0903 and one on 0913, the
/// owner deciding which: they wait in the "To place" window under a box naming both
/// hexes, not on either hex.
#[test]
fn an_owners_choice_group_waits_in_the_to_place_window_with_its_hexes() {
    let db = &fixture().0;
    let (_, _, e) = exported(db).iter().find(|(s, _, _)| s == "lrf").unwrap();
    let m = module(&e.bytes).unwrap();
    let setup = m
        .setups
        .iter()
        .find(|s| s.name == "Fontenoy en Puisaye")
        .unwrap();
    assert!(setup.boards.contains(&(
        TO_PLACE.to_string(),
        format!("{TO_PLACE}: Fontenoy en Puisaye")
    )));
    for counter in [
        "fontenoy-neustrie-infantry-3",
        "fontenoy-neustrie-infantry-2",
    ] {
        let placed: Vec<_> = setup
            .pieces
            .iter()
            .filter(|p| p.get("Counter") == counter)
            .collect();
        assert_eq!(placed.len(), 1, "{counter}");
        let p = placed[0];
        assert_eq!(
            (p.map.as_str(), p.get("Placement"), p.get("Hexes")),
            (TO_PLACE, "owner's choice", "0903 0913"),
            "{counter}"
        );
    }
    // The rest of the allies' set-up stands on its hexes.
    assert!(
        setup
            .pieces
            .iter()
            .any(|p| p.get("Counter") == "baviere-cavalry" && p.map == BATTLEFIELD)
    );
}
