//! `muster render` of what a scenario's rules vocabulary puts on the board: its supply
//! sources and each turn's weather from its turn record, drawn from the check fixtures'
//! scenario (no bundled scenario has either) and set against that file read with `ron`.

mod common;

use std::path::Path;

use common::{Attrs, elements, hex_box, muster, read_ron, render_svg};
use muster_model::scenario::Scenario;

/// The fixture scenario's page at the start of turn 2, written by `muster render -o
/// board.html` in `root`.
fn page_at_turn_2(root: &Path) -> String {
    let page = root.join("board.html");
    muster()
        .current_dir(root)
        .args(["render", common::FIXTURE_SCENARIO, "--turn", "2", "-o"])
        .arg(&page)
        .assert()
        .success();
    std::fs::read_to_string(&page).unwrap()
}

/// Every supply source of the fixture scenario (read with `ron`) is drawn where it is:
/// a ring inside its hex or its label's hex, a line beside every hex of its map edge,
/// in its side's name; and the legend gives each turn the weather the turn record gives
/// it, by the system's name for the kind, and says so when the record gives none.
#[test]
fn supply_sources_and_the_weather_of_the_turn_are_drawn() {
    use muster_model::map::{MapSource, Overlay};
    use muster_model::scenario::SourceAt;
    use muster_model::system::RulesSystem;
    let scenario: Scenario = read_ron(&format!("{}/_valid/valid.scenario.ron", common::FIXTURES));
    let system: RulesSystem = read_ron(&format!("{}/_base/test.system.ron", common::FIXTURES));
    let map: MapSource = read_ron(&format!("{}/_base/test.map.ron", common::FIXTURES));
    let grid = muster_map::grid_of(&map).unwrap();
    let label_hex = |text: &str| {
        map.overlays
            .iter()
            .find_map(|o| match o {
                Overlay::Label { hex, text: t } if t == text => Some(hex.clone()),
                _ => None,
            })
            .unwrap()
    };
    let kinds: std::collections::BTreeSet<&str> = (scenario.supply_sources.iter())
        .map(|s| match s.at {
            SourceAt::Hex(_) => "hex",
            SourceAt::Edge(_) => "edge",
            SourceAt::Label(_) => "label",
        })
        .collect();
    assert_eq!(kinds.len(), 3, "the fixture has every kind of source");
    assert!(!scenario.turn_record.is_empty());

    let project = common::fixture_project();
    let mut names = std::collections::BTreeSet::new();
    let mut not_given = 0;
    for turn in 1..=scenario.turns {
        let svg = render_svg(
            project.path(),
            common::FIXTURE_SCENARIO,
            &["--turn", &turn.to_string()],
        );
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let weather: Vec<roxmltree::Node> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("legend-weather"))
            .collect();
        assert_eq!(weather.len(), 1, "turn {turn}: one weather line");
        let given = (scenario.turn_record.iter())
            .find(|t| t.turn == turn)
            .and_then(|t| t.weather.clone());
        match given {
            Some(id) => {
                let kind = system.rules.weather.iter().find(|w| w.id == id).unwrap();
                assert_eq!(
                    weather[0].text(),
                    Some(format!("Weather: {}", kind.name).as_str())
                );
                assert_eq!(weather[0].attribute("data-weather"), Some(id.as_str()));
                names.insert(kind.name.clone());
            }
            None => {
                assert_eq!(
                    weather[0].text(),
                    Some("Weather: not given in the turn record")
                );
                assert_eq!(weather[0].attribute("data-weather"), Some(""));
                not_given += 1;
            }
        }

        // Supply sources stand still from turn to turn: each is drawn on every board.
        let drawn: Vec<roxmltree::Node> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("supply"))
            .collect();
        assert_eq!(drawn.len(), scenario.supply_sources.len(), "turn {turn}");
        for (source, g) in scenario.supply_sources.iter().zip(&drawn) {
            assert_eq!(g.attribute("data-side"), Some(source.side.as_str()));
            let side_name = &scenario.side(&source.side).unwrap().name;
            let title = g.children().find(|c| c.has_tag_name("title")).unwrap();
            assert!(title.text().unwrap().starts_with(side_name.as_str()));
            let at_hex = match &source.at {
                SourceAt::Hex(h) => Some(("hex", h.clone())),
                SourceAt::Label(l) => Some(("label", label_hex(l))),
                SourceAt::Edge(_) => None,
            };
            match (&source.at, at_hex) {
                (_, Some((kind, hex))) => {
                    assert_eq!(g.attribute("data-source"), Some(kind));
                    assert_eq!(g.attribute("data-hex"), Some(hex.as_str()));
                    let ring = g.children().find(|c| c.has_tag_name("circle")).unwrap();
                    let at = |k: &str| ring.attribute(k).unwrap().parse::<f64>().unwrap();
                    let ((lo_x, hi_x), (lo_y, hi_y)) = hex_box(&svg, &hex);
                    assert!(
                        (lo_x..=hi_x).contains(&at("cx")) && (lo_y..=hi_y).contains(&at("cy")),
                        "the ring of {hex} at {},{} lies outside it",
                        at("cx"),
                        at("cy")
                    );
                }
                (SourceAt::Edge(edge), None) => {
                    assert_eq!(g.attribute("data-source"), Some("edge"));
                    assert_eq!(g.attribute("data-edge"), Some(edge.to_string().as_str()));
                    let mut expected: Vec<String> = grid
                        .hexes()
                        .filter(|h| grid.edges_of(*h).contains(edge))
                        .map(|h| h.to_string())
                        .collect();
                    expected.sort();
                    let lines: Vec<roxmltree::Node> = g
                        .children()
                        .filter(|c| c.attribute("class") == Some("supply-hex"))
                        .collect();
                    let mut ids: Vec<String> = lines
                        .iter()
                        .map(|l| l.attribute("data-hex").unwrap().to_string())
                        .collect();
                    ids.sort();
                    assert_eq!(ids, expected, "every hex of the {edge} edge, once");
                    // The map's own bounds: the line runs outside them.
                    let all: Vec<_> = (grid.hexes())
                        .map(|h| hex_box(&svg, &h.to_string()))
                        .collect();
                    let (top, bottom) = (
                        all.iter().map(|b| b.1.0).fold(f64::MAX, f64::min),
                        all.iter().map(|b| b.1.1).fold(f64::MIN, f64::max),
                    );
                    let (left, right) = (
                        all.iter().map(|b| b.0.0).fold(f64::MAX, f64::min),
                        all.iter().map(|b| b.0.1).fold(f64::MIN, f64::max),
                    );
                    for line in lines {
                        let id = line.attribute("data-hex").unwrap();
                        let ((lo_x, hi_x), (lo_y, hi_y)) = hex_box(&svg, id);
                        let at = |k: &str| line.attribute(k).unwrap().parse::<f64>().unwrap();
                        for (x, y) in [(at("x1"), at("y1")), (at("x2"), at("y2"))] {
                            // Beside its hex, just outside the map.
                            let (along, across, lo, hi, out) = match edge {
                                muster_hex::Edge::North => (x, y, lo_x, hi_x, top - y),
                                muster_hex::Edge::South => (x, y, lo_x, hi_x, y - bottom),
                                muster_hex::Edge::West => (y, x, lo_y, hi_y, left - x),
                                muster_hex::Edge::East => (y, x, lo_y, hi_y, x - right),
                            };
                            assert!((lo - 0.1..=hi + 0.1).contains(&along), "{id}: {along}");
                            assert!((0.0..=S_OUTSIDE).contains(&out), "{id}: {across}");
                        }
                    }
                }
                (_, None) => unreachable!(),
            }
        }
        let legend: Vec<Attrs> = elements(&svg, "legend-supply");
        let mut sources: Vec<&str> = legend.iter().map(|l| l["data-source"].as_str()).collect();
        sources.sort_unstable();
        assert_eq!(
            sources,
            ["edge", "hex"],
            "one legend entry per kind of mark"
        );
    }
    assert!(
        names.len() >= 2,
        "the weather changes with the turn: {names:?}"
    );
    assert!(not_given > 0, "some turn is not in the record");

    // The page of a turn says its weather and lists the sources by side.
    let html = page_at_turn_2(project.path());
    let second = (scenario.turn_record.iter())
        .find(|t| t.turn == 2)
        .and_then(|t| t.weather.as_ref())
        .and_then(|id| system.rules.weather.iter().find(|w| &w.id == id))
        .unwrap();
    assert!(
        html.contains(&format!(
            "<span id=\"weather\" data-weather=\"{}\">Weather: {}</span>",
            second.id, second.name
        )),
        "{html}"
    );
    assert_eq!(
        html.matches("<li class=\"supply\"").count(),
        scenario.supply_sources.len()
    );
    // A page written to a file has no server to ask for another turn.
    assert!(!html.contains("?turn="));
}

/// How far outside the map an edge's supply line may lie: past the exits' dashes, and
/// within the margin.
const S_OUTSIDE: f64 = 20.0;

/// The same scenario without its turn record and supply sources draws neither: no ring,
/// no edge line, no legend entry, no weather line on the board or the page.
#[test]
fn a_scenario_without_record_or_sources_shows_neither() {
    let project = common::fixture_project();
    let path = project.path().join(common::FIXTURE_SCENARIO);
    let text = std::fs::read_to_string(&path).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            !l.starts_with("turn_record:") && !l.starts_with("supply_sources:")
        })
        .collect();
    assert_eq!(
        kept.len() + 2,
        text.lines().count(),
        "both lines were there"
    );
    std::fs::write(&path, kept.join("\n")).unwrap();
    let svg = render_svg(project.path(), common::FIXTURE_SCENARIO, &["--turn", "2"]);
    for class in ["supply", "supply-hex", "legend-supply", "legend-weather"] {
        assert!(elements(&svg, class).is_empty(), "{class} drawn:\n{svg}");
    }
    assert!(!svg.contains("Supply sources") && !svg.contains("Weather"));
    // The board itself is still drawn.
    assert!(!elements(&svg, "counter").is_empty());
    let html = page_at_turn_2(project.path());
    assert!(html.contains("id=\"turn\""));
    assert!(!html.contains("id=\"weather\"") && !html.contains("class=\"supply\""));
}

/// A weather name and a label with markup and a bidirectional control are escaped on
/// the board and the page as every other name is: the SVG stays well-formed and shows
/// the control as its escape.
#[test]
fn weather_and_supply_names_are_escaped() {
    let project = common::fixture_project();
    let folder = project.path().join("scenarios/fixture");
    // As written in RON: a quote escaped, the control as it is.
    let written = "<&\\\"\u{202e}>";
    muster_testkit::replace(
        &folder.join("test.system.ron"),
        "(id: \"mud\", name: \"Mud\")",
        &format!("(id: \"mud\", name: \"Mud {written}\")"),
    );
    // The label, everywhere the project names it.
    for file in std::fs::read_dir(&folder).unwrap().flatten() {
        let text = std::fs::read_to_string(file.path()).unwrap();
        let text = text.replace("\"Fontenoy\"", &format!("\"Fontenoy {written}\""));
        std::fs::write(file.path(), text).unwrap();
    }
    let shown = "<&\"\\u{202e}>";
    let svg = render_svg(project.path(), common::FIXTURE_SCENARIO, &["--turn", "2"]);
    assert!(!svg.contains('\u{202e}'));
    let doc = roxmltree::Document::parse(&svg).expect("well-formed");
    let line = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("legend-weather"))
        .unwrap();
    assert_eq!(line.text(), Some(format!("Weather: Mud {shown}").as_str()));
    let label = doc
        .descendants()
        .find(|n| n.attribute("data-source") == Some("label"))
        .and_then(|g| g.children().find(|c| c.has_tag_name("title")))
        .unwrap();
    assert!(
        label
            .text()
            .unwrap()
            .ends_with(&format!("Fontenoy {shown} (0708)")),
        "{:?}",
        label.text()
    );
    let html = page_at_turn_2(project.path());
    let escaped = "&lt;&amp;&quot;\\u{202e}&gt;";
    assert!(!html.contains('\u{202e}'));
    assert!(
        html.contains(&format!(
            "<span id=\"weather\" data-weather=\"mud\">Weather: Mud {escaped}</span>"
        )),
        "{html}"
    );
    assert!(html.contains(&format!("supply source: Fontenoy {escaped} (0708)")));
}
