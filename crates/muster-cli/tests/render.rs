//! `muster render`: the SVG of every bundled battle read back with an XML parser and set
//! against the scenario file itself (read here with `ron`, not through muster's board):
//! hexes, terrain, counters on the hexes the scenario names, zones, units on the table,
//! diagnostics on the board, the HTML page, PNG, and byte-identical output.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{Attrs, copy_project, elements, hex_box, muster, read_ron, render_svg, repo};
use muster_model::counters::CounterSheet;
use muster_model::scenario::{Forces, Placement, Scenario};

fn read_scenario(path: &str) -> Scenario {
    read_ron(path)
}

fn scenarios(folder: &str) -> Vec<String> {
    let mut list: Vec<String> = std::fs::read_dir(repo().join("scenarios").join(folder))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".scenario.ron"))
        .map(|n| format!("scenarios/{folder}/{n}"))
        .collect();
    list.sort();
    list
}

#[test]
fn jengland_board() {
    let svg = render_svg(&repo(), "scenarios/lrf/jengland.scenario.ron", &[]);
    let hexes = elements(&svg, "hex");
    assert_eq!(hexes.len(), 180, "15 x 12 hexes");
    let mut ids: Vec<&str> = hexes.iter().map(|h| h["data-hex"].as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 180, "every hex once");
    let terrain = |id: &str| {
        hexes
            .iter()
            .find(|h| h["data-hex"] == id)
            .map(|h| h["data-terrain"].clone())
            .unwrap()
    };
    assert_eq!(terrain("0109"), "bridge");
    for row in 1..=12 {
        let id = format!("01{row:02}");
        if id != "0109" {
            assert_eq!(terrain(&id), "river", "{id}");
        }
    }
    assert_eq!(terrain("0811"), "village");
    assert_eq!(
        elements(&svg, "road").len(),
        6,
        "the road crosses six hexsides"
    );
    assert_eq!(elements(&svg, "access").len(), 1, "the bridge's access");
    assert!(svg.contains(">Vilaine</text>"));
}

/// Counter-sheet battles: every unit is drawn once, and a unit of a group that names one
/// hex per unit stands on its hex.
#[test]
fn lrf_counters_stand_where_the_scenario_says() {
    let sheet: CounterSheet = read_ron("scenarios/lrf/lrf.counters.ron");
    let files = scenarios("lrf");
    assert_eq!(files.len(), 4);
    for file in files {
        let scenario = read_scenario(&file);
        let svg = render_svg(&repo(), &file, &[]);
        let counters = elements(&svg, "counter");
        let mut expected_total = 0;
        let mut expected_at = Vec::new();
        for side in &scenario.sides {
            let Forces::Placed { setup, .. } = &side.forces else {
                panic!("{file}: LRF sides place counters");
            };
            let army = side.army.as_deref().unwrap();
            assert!(sheet.armies.iter().any(|a| a.id == army));
            for group in setup {
                let units: Vec<&str> = group
                    .units
                    .iter()
                    .flat_map(|u| std::iter::repeat_n(u.counter.as_str(), usize::from(u.count)))
                    .collect();
                expected_total += units.len();
                if let Placement::Hexes(list) = &group.at
                    && list.len() == units.len()
                {
                    for (unit, hex) in units.iter().zip(list) {
                        expected_at.push((side.id.clone(), unit.to_string(), hex.clone()));
                    }
                }
            }
        }
        for n in &scenario.neutrals {
            expected_total += n.units.iter().map(|u| usize::from(u.count)).sum::<usize>();
        }
        assert_eq!(
            counters.len(),
            expected_total,
            "{file}: one element per counter"
        );
        for (side, counter, hex) in expected_at {
            assert!(
                counters.iter().any(|c| c["data-counter"] == counter
                    && c["data-hex"] == hex
                    && c["data-side"] == side),
                "{file}: {counter} of {side} is not drawn on {hex}"
            );
        }
        for c in &counters {
            assert!(
                scenario.sides.iter().any(|s| s.id == c["data-side"])
                    || c["data-side"] == "neutral",
                "{file}: {c:?}"
            );
        }
    }
}

#[test]
fn fontenoy_neutral_and_reinforcements_by_turn() {
    let file = "scenarios/lrf/fontenoy.scenario.ron";
    let svg = render_svg(&repo(), file, &[]);
    let counters = elements(&svg, "counter");
    let catalogne: Vec<_> = counters
        .iter()
        .filter(|c| c["data-counter"] == "catalogne")
        .collect();
    assert_eq!(catalogne.len(), 1);
    assert_eq!(catalogne[0]["data-side"], "neutral");
    assert_eq!(catalogne[0]["data-hex"], "0502");
    // Turn 1: Provence is still to come, twice, by the four entry hexes.
    assert!(!counters.iter().any(|c| c["data-counter"] == "provence"));
    let entries = elements(&svg, "entry");
    assert_eq!(entries.len(), 8, "two reinforcements x four entry hexes");
    assert!(svg.contains("T3: 1 x "), "the entry says when and what");
    // Turn 3: one Provence waits at an entry hex; the turn-4 one is still an arrow.
    let svg = render_svg(&repo(), file, &["--turn", "3"]);
    let provence: Vec<_> = elements(&svg, "counter")
        .into_iter()
        .filter(|c| c["data-counter"] == "provence")
        .collect();
    assert_eq!(provence.len(), 1);
    assert!(["0515", "1115", "1208", "0901"].contains(&provence[0]["data-hex"].as_str()));
    assert_eq!(provence[0]["data-state"], "arrived-t3");
    assert_eq!(elements(&svg, "entry").len(), 4);
    // --no-units keeps the board and leaves the counters out.
    let svg = render_svg(&repo(), file, &["--no-units"]);
    assert!(elements(&svg, "counter").is_empty());
    assert_eq!(elements(&svg, "entry").len(), 8);
}

#[test]
fn a_reinforcement_that_arrives_anywhere_is_drawn_on_its_hexes_without_an_edge_arrow() {
    let dir = copy_project();
    let file = "scenarios/lrf/fontenoy.scenario.ron";
    let path = dir.path().join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let turn3 = r#"(side: "allies", turn: 3, units: [(counter: "provence", count: 1)], entry: ["0515", "1115", "1208", "0901"])"#;
    assert!(text.contains(turn3));
    // The turn-3 Provence appears in a hex inside the map.
    let inside = r#"(side: "allies", turn: 3, units: [(counter: "provence", count: 1)], entry: ["0707"], arrive: Anywhere)"#;
    std::fs::write(&path, text.replacen(turn3, inside, 1)).unwrap();
    let svg = render_svg(dir.path(), file, &[]);
    let entries = elements(&svg, "entry");
    assert_eq!(
        entries.len(),
        5,
        "four edge arrows for turn 4, one mark for turn 3"
    );
    let marks = elements(&svg, "inside");
    assert_eq!(marks.len(), 1, "{marks:?}");
    assert_eq!(marks[0]["data-hex"], "0707");
    assert_eq!(marks[0]["data-turn"], "3");
    // No arrow runs from an edge to it: its group holds a ring, not a line.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let group = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("entry inside"))
        .unwrap();
    assert!(group.children().any(|c| c.has_tag_name("circle")));
    assert!(!group.children().any(|c| c.has_tag_name("line")));
}

#[test]
fn prestags_zones_and_sample_deployments() {
    let files = scenarios("prestags");
    assert_eq!(files.len(), 19);
    for file in files {
        let scenario = read_scenario(&file);
        let svg = render_svg(&repo(), &file, &[]);
        let hexes = elements(&svg, "hex");
        assert_eq!(hexes.len(), 36 * 56, "{file}: the mapsheet");
        let zones = elements(&svg, "zone");
        let counters = elements(&svg, "counter");
        let mut expected = 0;
        for side in &scenario.sides {
            let Forces::Zoned(forces) = &side.forces else {
                panic!("{file}: PRESTAGS sides deploy in zones");
            };
            if forces.deploy.iter().any(|d| d.zone.is_some()) {
                assert!(
                    zones.iter().any(|z| z["data-side"] == side.id),
                    "{file}: no zone shaded for {}",
                    side.id
                );
            }
            for stack in &forces.sample {
                for unit in &stack.units {
                    expected += usize::from(unit.count);
                    let here = counters
                        .iter()
                        .filter(|c| {
                            c["data-hex"] == stack.hex
                                && c["data-counter"] == unit.kind
                                && c["data-side"] == side.id
                        })
                        .count();
                    assert!(
                        here >= usize::from(unit.count),
                        "{file}: {} x {} of {} on {}",
                        unit.count,
                        unit.kind,
                        side.id,
                        stack.hex
                    );
                }
            }
        }
        assert_eq!(
            counters.len(),
            expected,
            "{file}: one element per unit of the samples"
        );
    }
}

#[test]
fn open_tables_draw_units_and_bands() {
    for file in [
        "scenarios/cdg/courtrai.scenario.ron",
        "scenarios/cdg/arsuf.scenario.ron",
        "scenarios/raid/raid-example.scenario.ron",
    ] {
        let scenario = read_scenario(file);
        let svg = render_svg(&repo(), file, &[]);
        assert!(
            elements(&svg, "hex").is_empty(),
            "{file}: a table has no hexes"
        );
        let units = elements(&svg, "unit");
        let bands = elements(&svg, "band");
        let mut expected_units = 0;
        for side in &scenario.sides {
            let Forces::Table(forces) = &side.forces else {
                panic!("{file}: table sides");
            };
            expected_units += forces.units.len();
            for unit in &forces.units {
                assert!(
                    units
                        .iter()
                        .any(|u| u["data-unit"] == unit.id && u["data-side"] == side.id),
                    "{file}: unit {} not drawn",
                    unit.id
                );
            }
            for band in &forces.bands {
                if matches!(band.entry, muster_model::scenario::BandEntry::OnTable(_)) {
                    assert!(
                        bands.iter().any(|b| b["data-band"] == band.id),
                        "{file}: {}",
                        band.id
                    );
                }
            }
        }
        assert_eq!(units.len(), expected_units, "{file}");
        // Every battle is framed, and its units carry its name.
        let frames = elements(&svg, "battle");
        for side in &scenario.sides {
            let Forces::Table(forces) = &side.forces else {
                continue;
            };
            for battle in &forces.battles {
                assert!(
                    frames
                        .iter()
                        .any(|f| f["data-battle"] == battle.name && f["data-side"] == side.id),
                    "{file}: battle {} has no frame",
                    battle.name
                );
                for id in &battle.units {
                    assert!(
                        units
                            .iter()
                            .any(|u| &u["data-unit"] == id
                                && u.get("data-battle") == Some(&battle.name)),
                        "{file}: {id} is not in {}",
                        battle.name
                    );
                }
            }
        }
        assert!(svg.contains("12 inches"), "{file}: a scale bar");
    }
}

#[test]
fn same_input_same_bytes_and_snapshot() {
    let a = render_svg(&repo(), "scenarios/lrf/jengland.scenario.ron", &[]);
    let b = render_svg(&repo(), "scenarios/lrf/jengland.scenario.ron", &[]);
    assert_eq!(a, b);
    assert!(
        !a.contains("http://") || a.matches("http://").count() == 1,
        "only the SVG namespace"
    );
    assert!(!a.contains("href"), "no external resource");
    insta::assert_snapshot!("jengland_svg", a);
    let raid = render_svg(&repo(), "scenarios/raid/raid-example.scenario.ron", &[]);
    insta::assert_snapshot!("raid_svg", raid);
}

#[test]
fn diagnostics_are_drawn_on_the_board() {
    let project = copy_project();
    let path = project.path().join("scenarios/lrf/jengland.scenario.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    // A misspelled counter on 0903, and a unit sent off the map.
    let text = text
        .replacen(
            "(counter: \"saxe\", count: 2)], at: Hexes([\"0903\", \"1004\"])",
            "(counter: \"saxx\", count: 2)], at: Hexes([\"0903\", \"1004\"])",
            1,
        )
        .replacen(
            "\"0502\", \"1002\", \"1502\"",
            "\"0502\", \"1002\", \"1599\"",
            1,
        );
    std::fs::write(&path, text).unwrap();
    let out = project.path().join("out");
    let svg_path = out.join("j.svg");
    let assert = muster()
        .current_dir(project.path())
        .args(["render", "scenarios/lrf/jengland.scenario.ron", "-o"])
        .arg(&svg_path)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("saxx"), "{stderr}");
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let marks = elements(&svg, "diagnostic");
    assert!(
        marks
            .iter()
            .any(|m| m["data-code"] == "references::unknown-counter"),
        "{marks:?}"
    );
    // The unit on 1599 has no hex to stand on: it is not drawn, the rest is.
    let counters = elements(&svg, "counter");
    assert_eq!(counters.len(), 28);
    assert!(svg.contains("<title>references::unknown-counter: "));
    // The page lists both, and says which one is not on the board.
    let html_path = out.join("j.html");
    muster()
        .current_dir(project.path())
        .args(["render", "scenarios/lrf/jengland.scenario.ron", "-o"])
        .arg(&html_path)
        .assert()
        .code(1);
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.contains("data-code=\"references::unknown-counter\""));
    assert!(html.contains("data-code=\"geometry::off-map\""), "{html}");
    assert!(html.contains("not on the board"));
    assert!(html.contains("<h2>Order of battle</h2>"));
    assert!(html.contains("<svg "));
    assert!(
        !html.contains("<script src") && !html.contains("<link "),
        "self-contained"
    );
}

#[test]
fn png_has_the_svg_size() {
    let out = tempfile::tempdir().unwrap();
    let png = out.path().join("j.png");
    muster()
        .current_dir(repo())
        .args(["render", "scenarios/lrf/jengland.scenario.ron", "-o"])
        .arg(&png)
        .assert()
        .success();
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    let svg = render_svg(&repo(), "scenarios/lrf/jengland.scenario.ron", &[]);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(width.to_string(), root.attribute("width").unwrap());
    assert_eq!(height.to_string(), root.attribute("height").unwrap());
    assert!(bytes.len() > 20_000, "a picture, not an empty canvas");
}

/// `-o -` writes the SVG to standard output. What render refuses (a format that is no
/// picture, a counter sheet, a path among the data, turn 0) are the cases
/// `tests/cmd/render-*` and `usage-bad-turn`.
#[test]
fn render_to_standard_output() {
    let assert = muster()
        .current_dir(repo())
        .args(["render", "maps/lrf/jengland.map.ron", "-o", "-"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(stdout.starts_with("<svg "));
    assert_eq!(elements(&stdout, "hex").len(), 180);
    assert!(
        elements(&stdout, "counter").is_empty(),
        "a map has no counters"
    );
}

/// The README's pictures are what `muster render` draws today (`cargo xtask codegen`
/// writes them; the PNG beside each SVG is rasterised from it).
#[test]
fn readme_pictures_are_current() {
    for (scenario, name) in [
        ("scenarios/lrf/jengland.scenario.ron", "jengland"),
        ("scenarios/prestags/5-2-clontarf.scenario.ron", "clontarf"),
    ] {
        let assert = muster()
            .current_dir(repo())
            .args(["render", scenario, "-o", "-"])
            .assert()
            .success();
        let drawn = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
        let committed = std::fs::read_to_string(repo().join(format!("docs/pictures/{name}.svg")))
            .unwrap_or_default();
        assert!(
            drawn == committed,
            "docs/pictures/{name}.svg is stale: run `cargo xtask codegen`"
        );
        let png = std::fs::read(repo().join(format!("docs/pictures/{name}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
        assert!(
            readme.contains(&format!("docs/pictures/{name}.png")),
            "README shows {name}"
        );
    }
}

/// Found by `cargo xtask fuzz` (render): a sample line of `count: 65535` drew 65,535
/// counters and took over 10 s. A line over 64 units is now one counter standing for
/// them all, and the board stays as small as the file.
#[test]
fn a_huge_sample_count_is_one_counter() {
    let project = copy_project();
    let path = project
        .path()
        .join("scenarios/prestags/4-3-constantinople.scenario.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let line = "(hex: \"1315\", units: [(kind: \"SD\", count: 2)])";
    assert!(text.contains(line));
    std::fs::write(
        &path,
        text.replacen(
            line,
            "(hex: \"1315\", units: [(kind: \"SD\", count: 65535)])",
            1,
        ),
    )
    .unwrap();
    let svg = render_svg(
        project.path(),
        "scenarios/prestags/4-3-constantinople.scenario.ron",
        &[],
    );
    let counters = elements(&svg, "counter");
    let here: Vec<_> = counters
        .iter()
        .filter(|c| c["data-hex"] == "1315")
        .collect();
    assert_eq!(here.len(), 1, "one counter for the whole line");
    assert!(counters.len() < 200, "{} counters", counters.len());
    let stacks = elements(&svg, "stack");
    assert!(
        stacks
            .iter()
            .any(|s| s["data-hex"] == "1315" && s["data-count"] == "65535"),
        "the stack says how many units it holds"
    );
    assert!(svg.contains("this counter stands for 65535 units"));
}

/// Edits a copied project's file: `from` must be there.
fn edit(root: &Path, rel: &str, from: &str, to: &str) {
    let path = root.join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{rel} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// Every counter group with the attributes of the box drawn first in it.
fn counters_with_box(svg: &str) -> Vec<(Attrs, Attrs)> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let attrs = |n: roxmltree::Node| -> Attrs {
        n.attributes()
            .map(|a| (a.name().to_string(), a.value().to_string()))
            .collect()
    };
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("counter"))
        .map(|g| {
            let rect = g
                .children()
                .find(|c| c.has_tag_name("rect"))
                .expect("a counter has a box");
            (attrs(g), attrs(rect))
        })
        .collect()
}

/// A group of different counters with one hex per unit is the owner's to assign: its
/// counters are drawn dashed as the owner's choice, and the legend says what dashed
/// means. A group of one counter design on its hexes, and a single unit on its hex, are
/// solid: nothing is left to choose.
#[test]
fn an_owners_choice_group_is_drawn_as_a_choice() {
    let file = "scenarios/lrf/jengland.scenario.ron";
    let scenario = read_scenario(file);
    let svg = render_svg(&repo(), file, &[]);
    let drawn = counters_with_box(&svg);
    let (mut choice, mut placed) = (0, 0);
    for side in &scenario.sides {
        let Forces::Placed { setup, .. } = &side.forces else {
            panic!("placed forces");
        };
        for group in setup {
            let Placement::Hexes(hexes) = &group.at else {
                continue;
            };
            let units: usize = group.units.iter().map(|u| usize::from(u.count)).sum();
            assert_eq!(units, hexes.len(), "jengland names one hex per unit");
            let expected = if group.units.len() > 1 {
                choice += units;
                "choice"
            } else {
                placed += units;
                "placed"
            };
            for u in &group.units {
                for (g, rect) in drawn
                    .iter()
                    .filter(|(g, _)| g["data-counter"] == u.counter && g["data-side"] == side.id)
                {
                    assert_eq!(g["data-state"], expected, "{}", u.counter);
                    assert!(hexes.contains(&g["data-hex"]), "{g:?}");
                    assert_eq!(
                        rect.contains_key("stroke-dasharray"),
                        expected == "choice",
                        "{}: dashed only when the owner chooses",
                        u.counter
                    );
                }
            }
        }
    }
    assert!(choice >= 10 && placed >= 2, "{choice} {placed}");
    // The legend's word for a dashed counter is true of every dashed counter drawn.
    assert!(svg.contains(">dashed counter: the owner chooses where it stands</text>"));
    for (g, rect) in &drawn {
        assert_eq!(
            rect.contains_key("stroke-dasharray"),
            g["data-state"] != "placed",
            "{g:?}"
        );
    }
    // The page says so too.
    let out = tempfile::tempdir().unwrap();
    let html = out.path().join("j.html");
    muster()
        .current_dir(repo())
        .args(["render", file, "-o"])
        .arg(&html)
        .assert()
        .success();
    let html = std::fs::read_to_string(html).unwrap();
    assert!(html.contains("(owner's choice of the group's hexes)"));
}

/// Whether a hexside feature is drawn through the hex centres or on the hexside is the
/// system's `draw`, not its movement cost: a railroad with a point cost declared
/// `Through` is a line through the centres, a cutting with a point cost and no `draw`
/// is on the hexside.
#[test]
fn a_hexside_feature_is_drawn_as_its_system_declares() {
    let project = copy_project();
    let root = project.path();
    edit(
        root,
        "scenarios/lrf/lrf.system.ron",
        "(id: \"bridge\", name: \"Bridge\", crossing: true),",
        "(id: \"bridge\", name: \"Bridge\", crossing: true),\n        (id: \"railroad\", name: \"Railroad\", movement: Some(Points(0.25)), draw: Through),\n        (id: \"cutting\", name: \"Cutting\", movement: Some(Points(3.0))),",
    );
    edit(
        root,
        "maps/lrf/jengland.map.ron",
        "        Label(hex: \"0105\"",
        "        Path(feature: \"railroad\", hexes: [\"0803\", \"0903\", \"1003\"]),\n        Path(feature: \"cutting\", hexes: [\"1205\", \"1305\"]),\n        Label(hex: \"0105\"",
    );
    let svg = render_svg(root, "maps/lrf/jengland.map.ron", &[]);
    let through = elements(&svg, "road");
    let on_side = elements(&svg, "hexside");
    let of = |list: &[Attrs], f: &str| list.iter().filter(|e| e["data-feature"] == f).count();
    assert_eq!(
        of(&through, "railroad"),
        2,
        "two hexsides, centre to centre"
    );
    assert_eq!(of(&on_side, "railroad"), 0);
    assert_eq!(of(&on_side, "cutting"), 1, "on the hexside, the default");
    assert_eq!(of(&through, "cutting"), 0);
    assert_eq!(
        of(&through, "road"),
        6,
        "the bundled road is declared `Through`"
    );
    // The railroad's line joins the two hex centres.
    let hex_centre = |id: &str| {
        let hex = elements(&svg, "hex")
            .into_iter()
            .find(|h| h["data-hex"] == id)
            .unwrap();
        let points: Vec<(f64, f64)> = hex["points"]
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let n = points.len() as f64;
        (
            points.iter().map(|p| p.0).sum::<f64>() / n,
            points.iter().map(|p| p.1).sum::<f64>() / n,
        )
    };
    let rail = through
        .iter()
        .find(|e| e["data-feature"] == "railroad" && e["data-hexside"] == "0803-0903")
        .expect("the railroad's first hexside");
    let (ax, ay) = hex_centre("0803");
    let (bx, by) = hex_centre("0903");
    let near = |a: &str, b: f64| (a.parse::<f64>().unwrap() - b).abs() < 0.2;
    assert!(near(&rail["x1"], ax) && near(&rail["y1"], ay), "{rail:?}");
    assert!(near(&rail["x2"], bx) && near(&rail["y2"], by), "{rail:?}");
}

/// The fills of every hex's terrain, by terrain id, read from the SVG (one per id).
fn fills_by_terrain(svg: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for hex in elements(svg, "hex") {
        let fill = hex["fill"].clone();
        let before = out.insert(hex["data-terrain"].clone(), fill.clone());
        assert!(before.is_none_or(|b| b == fill), "one fill per terrain");
    }
    out
}

fn assert_apart(fills: &BTreeMap<String, String>, what: &str) {
    use muster_render::palette::{apart, channels};
    let list: Vec<_> = fills.iter().collect();
    for (i, (a, fa)) in list.iter().enumerate() {
        for (b, fb) in &list[i + 1..] {
            assert!(
                apart(channels(fa), channels(fb)),
                "{what}: `{a}` ({fa}) and `{b}` ({fb}) are drawn alike"
            );
        }
    }
}

/// Two terrain types of different ids never share a fill: woods and light woods (one
/// word), and two ids muster has no colour for.
#[test]
fn every_terrain_id_has_its_own_fill() {
    let project = copy_project();
    let root = project.path();
    edit(
        root,
        "scenarios/lrf/lrf.system.ron",
        "(id: \"hill\", name: \"Hill\",",
        "(id: \"light-woods\", name: \"Light woods\", movement: Points(1.5)),\n        (id: \"heath\", name: \"Heath\", movement: Points(1.0)),\n        (id: \"moor\", name: \"Moor\", movement: Points(1.0)),\n        (id: \"hill\", name: \"Hill\",",
    );
    edit(
        root,
        "maps/lrf/jengland.map.ron",
        "        Terrain(terrain: \"village\"",
        "        Terrain(terrain: \"light-woods\", area: List([\"0205\", \"0206\"])),\n        Terrain(terrain: \"heath\", area: List([\"1305\"])),\n        Terrain(terrain: \"moor\", area: List([\"1306\"])),\n        Terrain(terrain: \"village\"",
    );
    let svg = render_svg(root, "maps/lrf/jengland.map.ron", &[]);
    let fills = fills_by_terrain(&svg);
    for id in ["woods", "light-woods", "heath", "moor"] {
        assert!(fills.contains_key(id), "{id} is on the map: {fills:?}");
    }
    assert_apart(&fills, "jengland with more terrain");
    // The legend shows each with the fill of its hexes.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    for g in doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("legend-terrain"))
    {
        let id = g.attribute("data-terrain").unwrap();
        let swatch = g.children().find(|c| c.has_tag_name("rect")).unwrap();
        if let Some(fill) = fills.get(id) {
            assert_eq!(swatch.attribute("fill"), Some(fill.as_str()), "{id}");
        }
    }
}

/// Every terrain type of every bundled system has a fill of its own, and so has every
/// terrain of every bundled map as drawn.
#[test]
fn bundled_terrain_types_have_distinct_fills() {
    use muster_model::system::RulesSystem;
    use muster_render::palette::TerrainFills;
    let mut systems = 0;
    for folder in ["lrf", "prestags", "cdg", "raid"] {
        let system: RulesSystem = read_ron(&format!("scenarios/{folder}/{folder}.system.ron"));
        let palette = TerrainFills::new(system.terrain.iter().map(|t| t.id.as_str()));
        let fills: BTreeMap<String, String> = system
            .terrain
            .iter()
            .map(|t| (t.id.clone(), palette.get(&t.id)))
            .collect();
        assert_eq!(fills.len(), system.terrain.len());
        assert_apart(&fills, folder);
        systems += 1;
    }
    assert_eq!(systems, 4);
    for map in [
        "maps/lrf/jengland.map.ron",
        "maps/prestags/mapsheet.map.ron",
    ] {
        let svg = render_svg(&repo(), map, &[]);
        assert_apart(&fills_by_terrain(&svg), map);
    }
}

/// An exit goal within a radius of a label is drawn on the edge beside those hexes only,
/// not along the whole edge; one without a radius along all of it.
#[test]
fn an_exit_goal_is_drawn_on_its_hexes() {
    use muster_model::map::{MapSource, Overlay};
    use muster_model::scenario::{Goal, VictoryCondition};
    let map: MapSource = read_ron("maps/prestags/mapsheet.map.ron");
    let grid = muster_map::grid_of(&map).unwrap();
    let label = |text: &str| {
        map.overlays
            .iter()
            .find_map(|o| match o {
                Overlay::Label { hex, text: t } if t == text => {
                    Some(muster_hex::HexId::parse(hex).unwrap())
                }
                _ => None,
            })
            .unwrap()
    };
    let mut checked = 0;
    for file in [
        "scenarios/prestags/5-7-hastings.scenario.ron",
        "scenarios/prestags/5-5-cerami.scenario.ron",
    ] {
        let scenario = read_scenario(file);
        let svg = render_svg(&repo(), file, &[]);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let drawn: Vec<roxmltree::Node> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("exit"))
            .collect();
        let goals: Vec<(&String, &Goal)> = scenario
            .victory
            .iter()
            .filter_map(|v| match v {
                VictoryCondition::Goals { side, any_of } => Some((side, any_of)),
                _ => None,
            })
            .flat_map(|(side, any)| any.iter().flatten().map(move |g| (side, g)))
            .filter(|(_, g)| matches!(g, Goal::Exit { .. }))
            .collect();
        assert_eq!(drawn.len(), goals.len(), "{file}");
        for ((side, goal), g) in goals.iter().zip(&drawn) {
            let Goal::Exit { edge, near, .. } = goal else {
                unreachable!()
            };
            let mut expected: Vec<String> = grid
                .hexes()
                .filter(|h| grid.edges_of(*h).contains(edge))
                .filter(|h| {
                    near.as_ref()
                        .is_none_or(|(l, r)| grid.distance(label(l), *h) <= u32::from(*r))
                })
                .map(|h| h.to_string())
                .collect();
            expected.sort();
            let mut lines: Vec<String> = g
                .children()
                .filter(|c| c.attribute("class") == Some("exit-hex"))
                .map(|c| c.attribute("data-hex").unwrap().to_string())
                .collect();
            lines.sort();
            assert_eq!(g.attribute("data-side"), Some(side.as_str()));
            assert_eq!(lines, expected, "{file}: the goal's hexes, each once");
            if near.is_some() {
                assert!(
                    expected.len() < usize::from(grid.columns) / 2,
                    "{expected:?}"
                );
            }
            // Each stretch lies beside its own hex: within the hex's reach along the edge.
            for line in g
                .children()
                .filter(|c| c.attribute("class") == Some("exit-hex"))
            {
                let id = line.attribute("data-hex").unwrap();
                let ((lo_x, hi_x), (lo_y, hi_y)) = hex_box(&svg, id);
                let at = |k: &str| line.attribute(k).unwrap().parse::<f64>().unwrap();
                for (x, y) in [(at("x1"), at("y1")), (at("x2"), at("y2"))] {
                    match edge {
                        muster_hex::Edge::North | muster_hex::Edge::South => {
                            assert!((lo_x - 0.1..=hi_x + 0.1).contains(&x), "{id}: {x}")
                        }
                        muster_hex::Edge::West | muster_hex::Edge::East => {
                            assert!((lo_y - 0.1..=hi_y + 0.1).contains(&y), "{id}: {y}")
                        }
                    }
                }
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 2);
}

/// A label on a hex with counters is drawn after them (over them) and below their
/// boxes, so that no counter hides it.
#[test]
fn a_label_is_not_hidden_by_the_counters_on_its_hex() {
    let project = copy_project();
    let root = project.path();
    // Saxe stands on 0903 and 1004; a bowman on 0502.
    edit(
        root,
        "maps/lrf/jengland.map.ron",
        "        Label(hex: \"0105\"",
        "        Label(hex: \"0903\", text: \"Mill\"),\n        Label(hex: \"0502\", text: \"B\"),\n        Label(hex: \"0105\"",
    );
    let svg = render_svg(root, "scenarios/lrf/jengland.scenario.ron", &[]);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let order: Vec<roxmltree::Node> = doc.descendants().collect();
    let position = |n: &roxmltree::Node| order.iter().position(|m| m == n).unwrap();
    let counters: Vec<roxmltree::Node> = order
        .iter()
        .copied()
        .filter(|n| n.attribute("class") == Some("counter"))
        .collect();
    let last_counter = counters.iter().map(position).max().unwrap();
    let mut checked = 0;
    for label in order
        .iter()
        .filter(|n| n.attribute("class") == Some("label"))
    {
        let hex = label.attribute("data-hex").unwrap();
        let here: Vec<&roxmltree::Node> = counters
            .iter()
            .filter(|c| c.attribute("data-hex") == Some(hex))
            .collect();
        if here.is_empty() {
            continue;
        }
        assert!(
            position(label) > last_counter,
            "{hex}: drawn after the counters"
        );
        let y: f64 = label.attribute("y").unwrap().parse().unwrap();
        let size: f64 = label.attribute("font-size").unwrap().parse().unwrap();
        for c in here {
            let transform = c.attribute("transform").unwrap();
            let cy: f64 = transform
                .trim_start_matches("translate(")
                .trim_end_matches(')')
                .split(',')
                .nth(1)
                .unwrap()
                .parse()
                .unwrap();
            let rect = c.children().find(|r| r.has_tag_name("rect")).unwrap();
            let top: f64 = rect.attribute("y").unwrap().parse().unwrap();
            let height: f64 = rect.attribute("height").unwrap().parse().unwrap();
            let bottom = cy + top + height;
            assert!(
                y - size >= bottom,
                "{hex}: the label's top {} is over a counter whose box ends at {bottom}",
                y - size
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 2, "both labels stand on counters");
}

/// A side that sets up hidden (`Placed(hidden: true, ...)`) shows none of its counters;
/// the other side's are drawn as before, and units in a holding box stand on no hex.
#[test]
fn a_hidden_side_and_boxed_units_are_not_drawn() {
    let file = "scenarios/lrf/jengland.scenario.ron";
    let before = elements(&render_svg(&repo(), file, &[]), "counter");
    let side_of = |c: &Attrs| c["data-side"].clone();
    let sides: std::collections::BTreeSet<String> = before.iter().map(side_of).collect();
    assert_eq!(sides.len(), 2, "{sides:?}");
    let dir = copy_project();
    let path = dir.path().join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let bretons = "            morale_threshold: Some(Fixed(20)),\n            forces: Placed(";
    let bowmen = r#"(units: [(counter: "jengland-bowmen", count: 3)], at: Hexes(["0502", "1002", "1502"])),"#;
    assert!(text.contains(bretons) && text.contains(bowmen));
    let text = text
        .replacen(bretons, &format!("{bretons}hidden: true, "), 1)
        .replacen(
            bowmen,
            r#"(units: [(counter: "jengland-bowmen", count: 2)], at: Hexes(["0502", "1002"])), (units: [(counter: "jengland-bowmen")], at: Box(Reserves)),"#,
            1,
        );
    std::fs::write(&path, text).unwrap();
    let after = elements(&render_svg(dir.path(), file, &[]), "counter");
    let hidden = "bretons".to_string();
    assert!(sides.contains(&hidden));
    let shown: Vec<&Attrs> = before.iter().filter(|c| side_of(c) != hidden).collect();
    assert!(after.iter().all(|c| side_of(c) != hidden), "{after:?}");
    // One bowman fewer on the map: the one in the reserves box.
    assert_eq!(after.len(), shown.len() - 1);
    assert!(!after.iter().any(|c| c["data-hex"] == "1502"));
}

/// A hex with a second terrain (`AddTerrain`): the board draws it inside the hex in
/// its own fill, and `muster compile` writes it with the system's combine rule.
#[test]
fn a_feature_added_to_a_hex_is_drawn_and_compiled() {
    let project = copy_project();
    let root = project.path();
    edit(
        root,
        "scenarios/lrf/lrf.system.ron",
        "    rules: (\n",
        "    rules: (\n        terrain_combine: (cost: MostCostly, combat: Cumulative),\n",
    );
    edit(
        root,
        "maps/lrf/jengland.map.ron",
        "        Label(hex: \"0105\"",
        "        AddTerrain(terrain: \"village\", area: List([\"0201\", \"0606\"])),\n        Label(hex: \"0105\"",
    );
    let svg = render_svg(root, "maps/lrf/jengland.map.ron", &[]);
    let features = elements(&svg, "feature");
    let hexes: Vec<&str> = features.iter().map(|f| f["data-hex"].as_str()).collect();
    assert_eq!(hexes, ["0201", "0606"]);
    assert!(features.iter().all(|f| f["data-terrain"] == "village"));
    let fills = fills_by_terrain(&svg);
    assert_eq!(
        features[0]["fill"], fills["village"],
        "the village's own fill"
    );
    assert_ne!(fills["woods"], fills["village"]);
    // Without features nothing of the kind is drawn.
    let plain = render_svg(&repo(), "maps/lrf/jengland.map.ron", &[]);
    assert!(elements(&plain, "feature").is_empty());
    assert!(!plain.contains("id=\"features\""));

    let out = tempfile::tempdir().unwrap();
    let table = out.path().join("jengland.json");
    let done = muster()
        .current_dir(root)
        .args(["compile", "maps/lrf/jengland.map.ron", "-o"])
        .arg(&table)
        .assert()
        .success();
    let said = String::from_utf8_lossy(&done.get_output().stdout).to_string();
    assert!(said.contains(", 2 hexes with added features"), "{said}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&table).unwrap()).unwrap();
    assert_eq!(
        json["terrain_combine"],
        serde_json::json!({"cost": "MostCostly", "combat": "Cumulative"})
    );
    let hex = |id: &str| {
        json["hexes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(hex("0201")["terrain"], "woods");
    assert_eq!(hex("0201")["features"], serde_json::json!(["village"]));
    assert!(hex("0202").get("features").is_none());
}

/// `render --reach COUNTER` shades exactly the hexes `muster query reach` answers, each
/// with its MP left, and rings the unit's own hex.
#[test]
fn reach_shades_what_the_engine_answers() {
    let scenario = "scenarios/lrf/jengland.scenario.ron";
    let svg = render_svg(&repo(), scenario, &["--reach", "saxe"]);
    let shaded: BTreeMap<String, String> = elements(&svg, "reach")
        .into_iter()
        .map(|a| (a["data-hex"].clone(), a["data-mp-left"].clone()))
        .collect();
    let out = muster()
        .current_dir(repo())
        .args(["query", "reach", scenario, "saxe", "--format", "json"])
        .output()
        .unwrap();
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let expected: BTreeMap<String, String> = answer["hexes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let left = h["mp_left"].as_f64().unwrap();
            let left = if left.fract() == 0.0 {
                format!("{left:.0}")
            } else {
                format!("{left}")
            };
            (h["hex"].as_str().unwrap().to_string(), left)
        })
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(shaded, expected);
    let from = elements(&svg, "reach-from");
    assert_eq!(from.len(), 1);
    assert_eq!(from[0]["data-hex"], answer["from"].as_str().unwrap());
}
