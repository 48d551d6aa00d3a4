//! What a designer writing a game of their own meets: a project's files that fail to
//! load, layouts that disagree, and the other places where the validator must speak in
//! the designer's terms (each a regression test of a report from a new designer).

use muster_testkit::copy_project;
use muster_testkit::replace;

use std::path::Path;

use muster_check::Config;
use muster_db::Diagnostic;

fn validate(root: &Path, targets: &[&str]) -> Vec<Diagnostic> {
    let display = |p: &Path| {
        p.strip_prefix(root)
            .map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
    };
    let targets: Vec<_> = targets.iter().map(|t| root.join(t)).collect();
    muster_check::validate_project(root, &targets, &Config::default(), &display).1
}

/// A system file with one missing comma is reported where the comma is missing, and
/// every file that uses the system says that it failed to load and where it is, at the
/// reference, rather than that the project holds no system.
#[test]
fn a_system_that_fails_to_load_is_named_where_it_is_used() {
    let dir = copy_project();
    replace(
        &dir.path().join("scenarios/lrf/lrf.system.ron"),
        "name: \"Les Rois Francs\",",
        "name: \"Les Rois Francs\"",
    );
    for targets in [&[][..], &["scenarios/lrf/jengland.scenario.ron"][..]] {
        let found = validate(dir.path(), targets);
        let at_use: Vec<&Diagnostic> = found
            .iter()
            .filter(|d| {
                d.file.name == "scenarios/lrf/jengland.scenario.ron" && d.code != "checks::skipped"
            })
            .collect();
        let skipped = found
            .iter()
            .find(|d| {
                d.file.name == "scenarios/lrf/jengland.scenario.ron" && d.code == "checks::skipped"
            })
            .expect("the map checks say why they did not run");
        assert!(
            skipped.message.ends_with(
                "the rules system `lrf` of `maps/lrf/jengland.map.ron` failed to load (`scenarios/lrf/lrf.system.ron` has errors)"
            ),
            "{}",
            skipped.message
        );
        assert_eq!(at_use.len(), 1, "{targets:?}: {at_use:#?}");
        let d = at_use[0];
        assert_eq!(d.code, "references::unknown-file");
        assert_eq!(
            d.message,
            "system `lrf` failed to load: it is in `scenarios/lrf/lrf.system.ron`, which has errors"
        );
        let at = d.start();
        assert_eq!(
            (at.line, at.column),
            (8, 13),
            "the span is on the reference"
        );
        assert_eq!(&d.file.text[d.span.clone()], "\"lrf\"");
        assert!(d.help.as_deref().unwrap().contains("fix the errors in"));
        let note = d.note.as_deref().unwrap();
        assert!(
            note.starts_with("its first error: scenarios/lrf/lrf.system.ron:7:"),
            "{note}"
        );
        assert!(
            found
                .iter()
                .all(|d| !d.help.as_deref().unwrap_or("").contains("holds no"))
        );
    }
    // The whole project: the map and the counter sheet say so too, and the system its
    // own error, once.
    let found = validate(dir.path(), &[]);
    for file in [
        "maps/lrf/jengland.map.ron",
        "scenarios/lrf/lrf.counters.ron",
    ] {
        assert!(
            found.iter().any(
                |d| d.file.name == file && d.message.starts_with("system `lrf` failed to load")
            ),
            "{file}"
        );
    }
    let own: Vec<&Diagnostic> = found
        .iter()
        .filter(|d| d.file.name == "scenarios/lrf/lrf.system.ron")
        .collect();
    assert_eq!(own.len(), 1, "{own:#?}");
}

/// A terrain type whose `prohibited` list names a unit's kind keeps that unit out of its
/// set-up: a diagnostic on the hex of the set-up line, which says why and what to change,
/// and the compiled table carries the prohibition.
#[test]
fn prohibited_terrain_keeps_a_unit_out_of_its_set_up() {
    let dir = copy_project();
    replace(
        &dir.path().join("scenarios/lrf/lrf.system.ron"),
        "(id: \"woods\", name: \"Woods\", movement: Points(2.0), combat: [ColumnShift(-1)]),",
        "(id: \"woods\", name: \"Woods\", movement: Points(2.0), combat: [ColumnShift(-1)], prohibited: [\"infantry\"]),",
    );
    let scenario = dir.path().join("scenarios/lrf/jengland.scenario.ron");
    // 0301 is woods on the Jengland map; `saxe` is infantry.
    replace(
        &scenario,
        "at: Hexes([\"0903\", \"1004\"])",
        "at: Hexes([\"0903\", \"0301\"])",
    );
    let found = validate(dir.path(), &["scenarios/lrf/jengland.scenario.ron"]);
    let hits: Vec<&Diagnostic> = found
        .iter()
        .filter(|d| d.code == "setup::impassable-terrain")
        .collect();
    assert_eq!(hits.len(), 1, "{found:#?}");
    let d = hits[0];
    assert_eq!(
        d.message,
        "`saxe` is set up in hex `0301`, where `woods` is prohibited to `infantry`"
    );
    assert_eq!(&d.file.text[d.span.clone()], "\"0301\"");
    let help = d.help.as_deref().unwrap();
    assert!(
        help.contains("`allowed` list of terrain `woods` in `scenarios/lrf/lrf.system.ron`"),
        "{help}"
    );
    assert!(!help.contains("impassable-area"), "{help}");
    // The terrain's `allowed` list lets the kind in again.
    replace(
        &dir.path().join("scenarios/lrf/lrf.system.ron"),
        "prohibited: [\"infantry\"]",
        "prohibited: [\"infantry\"], allowed: [\"infantry\"]",
    );
    let found = validate(dir.path(), &["scenarios/lrf/jengland.scenario.ron"]);
    assert!(
        found.iter().all(|d| d.code != "setup::impassable-terrain"),
        "{found:#?}"
    );
}

/// A feature added to a hex keeps a unit out as its own terrain would: a terrain type
/// that prohibits the unit's kind, or an impassable feature where the system's combine
/// rule makes the hex impassable (the most costly terrain counts), but not where only
/// the hex's own terrain counts.
#[test]
fn a_feature_added_to_a_hex_keeps_a_unit_out_of_its_set_up() {
    let dir = copy_project();
    let system = dir.path().join("scenarios/lrf/lrf.system.ron");
    replace(
        &system,
        "(id: \"woods\", name: \"Woods\", movement: Points(2.0), combat: [ColumnShift(-1)]),",
        "(id: \"woods\", name: \"Woods\", movement: Points(2.0), combat: [ColumnShift(-1)], prohibited: [\"infantry\"]),",
    );
    replace(
        &system,
        "    rules: (\n",
        "    rules: (\n        terrain_combine: (cost: MostCostly, combat: Strongest),\n",
    );
    // `saxe` (infantry) sets up in 0903 and 1004, clear hexes of the Jengland map.
    replace(
        &dir.path().join("maps/lrf/jengland.map.ron"),
        "    overlays: [\n",
        "    overlays: [\n        AddTerrain(terrain: \"woods\", area: List([\"0903\"])),\n        AddTerrain(terrain: \"river\", area: List([\"1004\"])),\n",
    );
    let messages = |dir: &Path| -> Vec<String> {
        validate(dir, &["scenarios/lrf/jengland.scenario.ron"])
            .into_iter()
            .filter(|d| d.code == "setup::impassable-terrain")
            .map(|d| d.message)
            .collect()
    };
    assert_eq!(
        messages(dir.path()),
        [
            "`saxe` is set up in hex `0903`, where `woods` is prohibited to `infantry`",
            "`saxe` is set up in hex `1004`, where `river` is impassable",
        ]
    );
    let help = validate(dir.path(), &["scenarios/lrf/jengland.scenario.ron"])
        .into_iter()
        .find(|d| d.message.contains("`1004`"))
        .and_then(|d| d.help)
        .unwrap();
    assert!(
        help.contains("take the added `river` off hex `1004` in the map"),
        "{help}"
    );
    // Where only the hex's own terrain costs, the river feature leaves it enterable.
    replace(&system, "(cost: MostCostly,", "(cost: Base,");
    assert_eq!(
        messages(dir.path()),
        ["`saxe` is set up in hex `0903`, where `woods` is prohibited to `infantry`"]
    );
}

/// A reinforcement entry hex made impassable by a feature names the feature.
#[test]
fn an_entry_hex_closed_by_a_feature_names_it() {
    let dir = copy_project();
    replace(
        &dir.path().join("scenarios/lrf/lrf.system.ron"),
        "    rules: (\n",
        "    rules: (\n        terrain_combine: (cost: MostCostly, combat: Strongest),\n",
    );
    replace(
        &dir.path().join("maps/lrf/fontenoy.map.ron"),
        "    overlays: [\n",
        "    overlays: [\n        AddTerrain(terrain: \"river\", area: List([\"0515\"])),\n",
    );
    let found = validate(dir.path(), &["scenarios/lrf/fontenoy.scenario.ron"]);
    let messages: Vec<&str> = found
        .iter()
        .filter(|d| d.code == "reinforcements::entry-impassable")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "entry hex `0515` is `river`, which units cannot enter",
            "entry hex `0515` is `river`, which units cannot enter"
        ]
    );
}

/// `compile` carries a terrain's prohibition into the table it writes.
#[test]
fn the_compiled_table_carries_the_prohibition() {
    let dir = copy_project();
    replace(
        &dir.path().join("scenarios/lrf/lrf.system.ron"),
        "(id: \"woods\", name: \"Woods\", movement: Points(2.0), combat: [ColumnShift(-1)]),",
        "(id: \"woods\", name: \"Woods\", movement: Points(2.0), combat: [ColumnShift(-1)], prohibited: [\"infantry\"]),",
    );
    let display = |p: &Path| p.display().to_string();
    let files = muster_db::project::project_files(dir.path());
    let db = muster_db::project::Db::load(dir.path(), &files, &display);
    let map = db
        .index_of(&dir.path().join("maps/lrf/jengland.map.ron"))
        .and_then(|i| db.terrain_map(i))
        .expect("compiled");
    let woods = map
        .table()
        .terrain
        .iter()
        .find(|t| t.id == "woods")
        .unwrap();
    assert_eq!(woods.prohibited, ["infantry"]);
    let hex = muster_hex::HexId::parse("0301").unwrap();
    assert!(!map.admits(hex, "infantry", None));
    assert!(map.admits(hex, "cavalry", None));
}

/// The counter-sheet schema is general: it says what `strength` is on every sheet and
/// leaves what it counts for to the rules system, rather than giving one game's meaning.
#[test]
fn the_counter_schema_gives_strength_no_game_s_meaning() {
    let schema = muster_db::schema::generate(muster_model::FileKind::Counters);
    let text = serde_json::to_string(&schema).unwrap();
    let at = text.find("\"strength\":{").expect("a strength property");
    let end = text[at..].find('}').unwrap() + at;
    let strength = &text[at..end];
    assert!(strength.contains("rules system"), "{strength}");
    for game_meaning in ["Force", "also the unit's morale"] {
        assert!(!strength.contains(game_meaning), "{strength}");
    }
}

/// The help of a unit set up in impassable terrain says what the designer can change in
/// their own data, not which special rule one of the bundled games uses.
#[test]
fn the_help_for_impassable_terrain_names_the_designer_s_own_files() {
    let dir = copy_project();
    let scenario = dir.path().join("scenarios/lrf/jengland.scenario.ron");
    // 0107 is the river on the Jengland map.
    replace(
        &scenario,
        "at: Hexes([\"0903\", \"1004\"])",
        "at: Hexes([\"0903\", \"0107\"])",
    );
    let found = validate(dir.path(), &["scenarios/lrf/jengland.scenario.ron"]);
    let d = found
        .iter()
        .find(|d| d.code == "setup::impassable-terrain")
        .expect("reported");
    assert_eq!(
        d.message,
        "`saxe` is set up in hex `0107`, where `river` is impassable"
    );
    let help = d.help.as_deref().unwrap();
    assert!(
        !help.contains("impassable-area") && !help.contains("except"),
        "{help}"
    );
    assert!(
        help.contains("give hex `0107` another terrain in the map"),
        "{help}"
    );
    assert!(help.contains("`scenarios/lrf/lrf.system.ron`"), "{help}");
}

/// A map whose layout is not its system's is said at the map's layout, naming both
/// layouts and the system's file; one that writes none is said at its grid.
#[test]
fn a_map_laid_out_unlike_its_system_is_said_at_its_layout() {
    let dir = copy_project();
    let map = dir.path().join("maps/lrf/jengland.map.ron");
    replace(&map, "layout: EvenColumnsDown", "layout: OddColumnsDown");
    let found = validate(dir.path(), &["maps/lrf/jengland.map.ron"]);
    let d = found
        .iter()
        .find(|d| d.code == "maps::layout-mismatch")
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert_eq!(&d.file.text[d.span.clone()], "OddColumnsDown");
    assert_eq!(
        d.message,
        "this map's layout is `OddColumnsDown`, but its system `lrf` lays hexes out `EvenColumnsDown` (`scenarios/lrf/lrf.system.ron`)"
    );
    assert!(
        d.help
            .as_deref()
            .unwrap()
            .contains("write `layout: EvenColumnsDown`")
    );
    // No layout written: the default is even columns, the system now says odd.
    replace(&map, ", layout: OddColumnsDown", "");
    replace(
        &dir.path().join("scenarios/lrf/lrf.system.ron"),
        "grid: Hex(layout: EvenColumnsDown)",
        "grid: Hex(layout: OddColumnsDown)",
    );
    let found = validate(dir.path(), &["maps/lrf/jengland.map.ron"]);
    let d = found
        .iter()
        .find(|d| d.code == "maps::layout-mismatch")
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert!(
        d.file.text[d.span.clone()].starts_with("Hex("),
        "{:?}",
        &d.file.text[d.span.clone()]
    );
    assert!(
        d.message
            .contains("`EvenColumnsDown` (not written: the default)"),
        "{}",
        d.message
    );
}

/// A special rule of a game's own is data: the system declares it in the vocabulary,
/// a scenario switches it on by id, and nothing in muster's Rust knows its name. The
/// same scenario without the declaration is told the rule is unknown, and a rule the
/// scenario states itself (`then: [...]`) needs no declaration.
#[test]
fn a_special_rule_declared_as_data_needs_no_rust() {
    let dir = copy_project();
    let system = dir.path().join("scenarios/lrf/lrf.system.ron");
    let scenario = dir.path().join("scenarios/lrf/jengland.scenario.ron");
    replace(
        &scenario,
        "    special_rules: [\n",
        "    special_rules: [\n        (hook: \"storm\", text: \"a storm on the first two turns\"),\n        (hook: \"franks-hold-on\", section: \"S2\", when: Turns(from: 3, to: 5), then: [MayNot(Retreat)], text: \"the Franks stand\"),\n",
    );
    let unknown = |found: &[Diagnostic]| -> Vec<String> {
        found
            .iter()
            .filter(|d| d.code == "hooks::unknown-hook")
            .map(|d| d.file.text[d.span.clone()].to_string())
            .collect()
    };
    let found = validate(dir.path(), &["scenarios/lrf/jengland.scenario.ron"]);
    assert_eq!(unknown(&found), ["\"storm\""], "{found:#?}");
    replace(
        &system,
        "    rules: (\n",
        "    rules: (\n        special_rules: [(id: \"storm\", section: \"S1\", when: Turns(from: 1, to: 2), then: [MayNot(Fire), MoveCost(Points(2.0))])],\n",
    );
    let found = validate(
        dir.path(),
        &[
            "scenarios/lrf/jengland.scenario.ron",
            "scenarios/lrf/lrf.system.ron",
        ],
    );
    assert!(found.is_empty(), "{found:#?}");
}

/// Each new reference of the vocabulary (a facing side class, a kept state, a plotted
/// task, a status a unit is put at, a kind it becomes, a rule an option switches off)
/// is resolved: a misspelt one is `rules::unknown-name`, spanned at the name, with the
/// right name offered.
#[test]
fn a_misspelt_facing_state_task_or_kind_is_caught_with_the_right_name() {
    let dir = copy_project();
    let prestags = dir.path().join("scenarios/prestags/prestags.system.ron");
    let raid = dir.path().join("scenarios/raid/raid.system.ron");
    replace(
        &prestags,
        "AttackedThrough(\"flank\")",
        "AttackedThrough(\"flnak\")",
    );
    replace(&prestags, "InState(\"contact\")", "InState(\"contcat\")");
    replace(
        &prestags,
        "Plotted(\"mv\"), Phase",
        "Plotted(\"mw\"), Phase",
    );
    replace(
        &prestags,
        "switches_off: [\"flank-attack\"]",
        "switches_off: [\"flank-atack\"]",
    );
    replace(
        &raid,
        "Becomes(\"heavy-infantry\")",
        "Becomes(\"heavy-infnatry\")",
    );
    replace(
        &raid,
        "ToStatus(\"marked\"), Becomes(\"light",
        "ToStatus(\"marekd\"), Becomes(\"light",
    );
    let found = validate(
        dir.path(),
        &[
            "scenarios/prestags/prestags.system.ron",
            "scenarios/raid/raid.system.ron",
        ],
    );
    let mut unknown: Vec<(String, String)> = found
        .iter()
        .filter(|d| d.code == "rules::unknown-name")
        .map(|d| {
            (
                d.file.text[d.span.clone()].to_string(),
                d.help.clone().unwrap_or_default(),
            )
        })
        .collect();
    unknown.sort();
    let expected = [
        ("\"contcat\"", "`contact`"),
        ("\"flank-atack\"", "`flank-attack`"),
        ("\"flnak\"", "`flank`"),
        ("\"heavy-infnatry\"", "`heavy-infantry`"),
        ("\"marekd\"", "`marked`"),
        ("\"mw\"", "plotted tasks: of, df, ml, mv"),
    ];
    assert_eq!(unknown.len(), expected.len(), "{found:#?}");
    for ((text, help), (name, offered)) in unknown.iter().zip(expected) {
        assert_eq!(text, name);
        assert!(help.contains(offered), "{text}: {help}");
    }
}
