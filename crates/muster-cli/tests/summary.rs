//! `muster summary`: victory conditions and goals in words, special rules, where every
//! unit sets up (by counter id), and the warning when the scenario or a file it uses
//! has errors. Expected setups are read from the scenario files themselves.

mod common;

use std::path::Path;

use common::{copy_project, muster, repo};
use muster_model::scenario::{Forces, Placement, Scenario};
use serde_json::Value;

fn scenario(rel: &str) -> Scenario {
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    options
        .from_str(&std::fs::read_to_string(repo().join(rel)).unwrap())
        .unwrap()
}

/// Human summary, JSON summary and stderr of `muster summary` run in `dir`.
fn summary_in(dir: &Path, rel: &str) -> (String, Value, String) {
    let human = muster()
        .current_dir(dir)
        .args(["summary", rel])
        .output()
        .unwrap();
    assert!(human.status.success(), "{rel}");
    let json = muster()
        .current_dir(dir)
        .args(["summary", rel, "--format", "json"])
        .output()
        .unwrap();
    assert!(json.status.success(), "{rel}");
    let value: Value = serde_json::from_slice(&json.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&json.stdout)));
    (
        String::from_utf8(human.stdout).unwrap(),
        value,
        String::from_utf8(json.stderr).unwrap(),
    )
}

fn summary(rel: &str) -> (String, Value) {
    let (text, json, stderr) = summary_in(&repo(), rel);
    assert!(stderr.is_empty(), "{rel}: {stderr}");
    (text, json)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn jengland_setup_by_counter_id_matches_the_scenario_file() {
    let rel = "scenarios/lrf/jengland.scenario.ron";
    let (text, json) = summary(rel);
    assert_eq!(json["errors"], 0);
    assert!(!text.contains("warning:"), "{text}");
    let file = scenario(rel);
    let mut checked = 0;
    for (i, side) in file.sides.iter().enumerate() {
        let Forces::Placed { setup } = &side.forces else {
            panic!("jengland places its counters");
        };
        let lines = json["sides"][i]["setup"].as_array().unwrap();
        let mut k = 0;
        for (g, group) in setup.iter().enumerate() {
            // One human line per group: every counter by id, then the hexes.
            let expected_hexes = match &group.at {
                Placement::Hexes(h) => h.clone(),
                Placement::OnUnit { .. } => Vec::new(),
                other => panic!("unexpected placement {other:?}"),
            };
            let line = text
                .lines()
                .find(|l| {
                    group
                        .units
                        .iter()
                        .all(|u| l.contains(&format!("{} \"", u.counter)))
                })
                .unwrap_or_else(|| panic!("no setup line for group {g} of {}:\n{text}", side.id));
            if expected_hexes.is_empty() {
                assert!(
                    line.contains("stacked on a friendly cavalry unit"),
                    "{line}"
                );
            } else {
                assert!(
                    line.ends_with(&expected_hexes.join(", ")),
                    "{line} vs {expected_hexes:?}"
                );
            }
            // One JSON entry per counter of the group, with the group's hexes.
            for u in &group.units {
                let entry = &lines[k];
                k += 1;
                assert_eq!(entry["group"], g + 1);
                assert_eq!(entry["counter"], u.counter.as_str());
                assert_eq!(entry["count"], u.count);
                assert_eq!(strings(&entry["hexes"]), expected_hexes);
                checked += 1;
            }
        }
        assert_eq!(k, lines.len());
    }
    assert_eq!(checked, 16);
    // Two counters named "Cavalry" told apart by their ids.
    assert!(
        text.contains("jengland-cavalry-3 \"Cavalry\", ecuyers \"Ecuyers\", 2 x jengland-cavalry-2 \"Cavalry\": hexes 0701, 0901, 1001, 1201"),
        "{text}"
    );
    assert!(
        text.contains("    2 x saxe \"Saxe\": hexes 0903, 1004\n"),
        "{text}"
    );
}

#[test]
fn jengland_victory_conditions_and_special_rules_in_words() {
    let (text, json) = summary("scenarios/lrf/jengland.scenario.ron");
    let morale = "An army at or past its morale threshold gives the other side a major victory (Frankish army: 18; Breton army: 20).";
    let losses = "At the end of turn 7, the side with fewer losses wins (a minor victory); equal losses are a draw.";
    assert!(
        text.contains(&format!("victory:\n  - {morale}\n  - {losses}\n")),
        "{text}"
    );
    let victory = json["victory"].as_array().unwrap();
    assert_eq!(victory.len(), 2);
    assert_eq!(victory[0]["kind"], "ArmyMorale");
    assert_eq!(victory[0]["text"], morale);
    assert_eq!(victory[1]["kind"], "FewestLosses");
    assert_eq!(victory[1]["text"], losses);
    // Special rules: hook, parameters compactly, the author's text.
    let file = scenario("scenarios/lrf/jengland.scenario.ron");
    let rules = json["special_rules"].as_array().unwrap();
    assert_eq!(rules.len(), file.special_rules.len());
    for (rule, expected) in rules.iter().zip(&file.special_rules) {
        assert_eq!(rule["hook"], expected.hook.as_str());
        assert_eq!(rule["text"], expected.text.as_str());
        assert_eq!(rule["params"], expected.params);
        assert!(text.contains(&format!("    {}\n", expected.text)), "{text}");
    }
    assert_eq!(
        rules[0]["params_text"],
        "counters: [jengland-breton-cavalry-4, jengland-breton-cavalry-3, jengland-breton-cavalry-2], roll_at_least: 5, retreat_hexes: [1, 2]"
    );
    assert!(
        text.contains(
            "\n  impassable-area (columns: [1], except: [], bridge: 0109, bridge_access: [0208])\n"
        ),
        "{text}"
    );
}

#[test]
fn montfaucon_and_brissarthe_conditions_spaced_setup_and_rules_without_parameters() {
    let (text, json) = summary("scenarios/lrf/montfaucon.scenario.ron");
    for expected in [
        "An army at or past its morale threshold gives the other side a major victory, before turn 6 (Viking army: 19; Frankish army: 12).",
        "At the end of turn 5, the side whose morale threshold exceeds its losses by more wins (a minor victory); equal margins are a draw.",
        "After a minor victory or better, Frankish army may play 3 more turns; eliminating 1 unit of Drakkar (drakkar) in them gives a decisive victory.",
        "Eliminating 3 units among Neustrie (Cavalry) (montfaucon-neustrie-cavalry-4), Neustrie (Cavalry) (montfaucon-neustrie-cavalry-3) moves the result one level in favour of Viking army.",
        "    3 x drakkar \"Drakkar\": spaced along 0101-0107, gap 1\n",
        "    aslak \"Aslak\": stacked on montfaucon-viking-cavalry-2 \"Vikings Cavalry\"\n",
        "\n  secret-commander-placement\n    Each player notes his commander's position in secret",
        "\n  baggage-carrier (counter: drakkar, carries_kind: infantry, max_carried: 1, max_movement: 2.0)\n",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    let drakkars = json["sides"][0]["setup"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["counter"] == "drakkar")
        .unwrap();
    assert_eq!(
        strings(&drakkars["hexes"]),
        ["0101", "0102", "0103", "0104", "0105", "0106", "0107"]
    );
    assert_eq!(
        json["special_rules"][0]["hook"],
        "secret-commander-placement"
    );
    assert_eq!(json["special_rules"][0]["params_text"], "");

    let (text, _) = summary("scenarios/lrf/brissarthe.scenario.ron");
    for expected in [
        "At the end of turn 7, Viking army scores by units of Baggage (brissarthe-baggage) exited through 0315-0915: 2 or more for a major victory, 1 or more for a minor victory.",
        "Otherwise, a minor victory for Frankish army.",
        "Viking army: 25/21/17/13 as units of Baggage (brissarthe-baggage) are lost",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn fontenoy_neutrals_and_reinforcements_by_counter_id() {
    let (text, json) = summary("scenarios/lrf/fontenoy.scenario.ron");
    assert!(
        text.contains(
            "\nneutral units (counter id \"name\": where):\n  catalogne \"Catalogne\": hex 0502\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "  reinforcements turn 3: provence \"Provence\" entering at 0515 / 1115 / 1208 / 0901\n"
        ),
        "{text}"
    );
    assert_eq!(json["neutral_setup"][0]["counter"], "catalogne");
    assert_eq!(strings(&json["neutral_setup"][0]["hexes"]), ["0502"]);
    let allies = &json["sides"][1];
    assert_eq!(allies["reinforcements"][1]["turn"], 4);
    assert_eq!(
        allies["reinforcements"][1]["units"][0]["counter"],
        "provence"
    );
}

#[test]
fn prestags_goals_zones_and_sample_stacks_in_words() {
    let (text, json) = summary("scenarios/prestags/4-3-constantinople.scenario.ron");
    let byzantines = "Victory for Byzantines by exiting 20 units off the west edge by turn 15 (not counting 2L, 3L) and reaching a Substantive victory, or by exiting 20 units off the west edge by turn 15 (not counting 2L, 3L) and controlling hex C for 2 consecutive turns.";
    assert!(text.contains(byzantines), "{text}");
    assert!(
        text.contains("Victory for Varangians by preventing the other side's goals."),
        "{text}"
    );
    assert_eq!(json["victory"][0]["kind"], "Goals");
    assert_eq!(json["victory"][0]["text"], byzantines);
    assert!(
        text.contains("    group 1 [61 hexes]: 10 SD, 10 IB, 5 HB, 10 BC, 1 2L, 1 3L; within 4 hexes of D (D-4)\n"),
        "{text}"
    );
    assert!(text.contains("    2610: 3 BC\n"), "{text}");
    let z = &json["sides"][0]["zoned"];
    assert_eq!(z["zones"][0]["placement"], "within 4 hexes of D (D-4)");
    assert_eq!(z["sample"][0]["hex"], "2610");
    assert_eq!(z["sample"][0]["units"][0]["name"], "BC");
    let setup = json["sides"][0]["setup"].as_array().unwrap();
    assert_eq!(setup[0]["counter"], "SD");
    assert_eq!(setup[0]["count"], 10);

    let (text, _) = summary("scenarios/prestags/6-3-dorylaeum.scenario.ron");
    for expected in [
        "Victory for Seljuq Turks by eliminating the whole `e3-force` group of Crusaders.",
        "e3-force [37 hexes]: 5 MI, 3 SD, 7 HC, 4 CB, 1 3L; within 3 hexes of E (E-3); holds half the force's victory points",
        "main-body: 5 MI, 2 SD, 8 HC, 4 CB, 1 2L; enters at the east edge on turn 1",
        "within 2 hexes of C (C-2) or within 2 hexes of D (D-2)",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    let (text, _) = summary("scenarios/prestags/4-6-hamburg.scenario.ron");
    for expected in [
        "all-sea hexes; aboard Viking Fleets (VF)",
        "controlling hex E for 6 consecutive turns and having 10 units in all-sea hexes by turn 25 (not counting VF, 2L)",
        "    0138: 1 VF carrying 3 AX\n",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    let (text, _) = summary("scenarios/prestags/5-7-hastings.scenario.ron");
    assert!(
        text.contains("exiting 25 units off the north edge within 4 hexes of A (not counting 2L)"),
        "{text}"
    );
    let (text, _) = summary("scenarios/prestags/4-4-paris.scenario.ron");
    assert!(
        text.contains("exiting 8 units off the north edge, 8 of them by road (not counting 3L)"),
        "{text}"
    );
}

#[test]
fn table_units_with_position_and_facing_and_bands_with_entry() {
    let (text, json) = summary("scenarios/cdg/arsuf.scenario.ron");
    assert!(
        text.contains("    cr-hosp-xbow \"Crossbowmen with the Hospitallers\": 3 bases in line at (24, 11.75), facing 90°\n"),
        "{text}"
    );
    let first = &json["sides"][0]["setup"][0];
    assert_eq!(first["counter"], "cr-hosp-xbow");
    assert_eq!(first["at"], serde_json::json!([24.0, 11.75]));
    assert_eq!(first["facing"], 90.0);
    let (text, _) = summary("scenarios/raid/raid-example.scenario.ron");
    for expected in [
        "viking-1 \"Band 1: the cattle group\" (12 figures): on the table in the 8 x 16 in. rectangle at (1, 16)",
        "viking-2 \"Band 2: the ship's guard\" (4 figures): enters at the ship edge on a turn rolled on a die",
        "Victory for Viking raiders by getting the cattle figures off the table at the ship edge.",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

/// Replaces the first `from` in a file.
fn mutate(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "`{from}` not in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_scenario_with_an_error_gets_a_warning_and_an_error_count() {
    let dir = copy_project();
    let rel = "scenarios/lrf/jengland.scenario.ron";
    mutate(&dir.path().join(rel), "\"1004\"", "\"1704\"");
    let (text, json, stderr) = summary_in(dir.path(), rel);
    assert!(
        text.starts_with(
            "warning: this scenario has 1 error; figures below may be wrong (run `muster validate scenarios/lrf/jengland.scenario.ron`)\n\nJengland (jengland)\n"
        ),
        "{text}"
    );
    assert_eq!(json["errors"], 1);
    assert!(
        stderr.contains("warning: this scenario has 1 error"),
        "{stderr}"
    );
    // The summary still shows what the file says.
    assert!(
        text.contains("2 x saxe \"Saxe\": hexes 0903, 1704"),
        "{text}"
    );
}

#[test]
fn an_error_in_the_map_a_scenario_uses_counts_too() {
    let dir = copy_project();
    mutate(
        &dir.path().join("maps/lrf/jengland.map.ron"),
        "Label(hex: \"0105\"",
        "Label(hex: \"1705\"",
    );
    let (text, json, _) = summary_in(dir.path(), "scenarios/lrf/jengland.scenario.ron");
    assert!(
        text.starts_with(
            "warning: this scenario and the files it uses have 1 error; figures below may be wrong (run `muster validate maps/lrf/jengland.map.ron`)\n"
        ),
        "{text}"
    );
    assert_eq!(json["errors"], 1);
}

fn read_system(rel: &str) -> muster_model::system::RulesSystem {
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    options
        .from_str(&std::fs::read_to_string(repo().join(rel)).unwrap())
        .unwrap()
}

/// The system's notes are part of the summary, each whole, in the system's order.
#[test]
fn the_systems_notes_are_shown() {
    for (scenario, system) in [
        (
            "scenarios/prestags/5-2-clontarf.scenario.ron",
            "scenarios/prestags/prestags.system.ron",
        ),
        (
            "scenarios/cdg/courtrai.scenario.ron",
            "scenarios/cdg/cdg.system.ron",
        ),
    ] {
        let notes = read_system(system).notes;
        assert!(!notes.is_empty(), "{system} has notes");
        let (text, json) = summary(scenario);
        assert_eq!(strings(&json["notes"]), notes, "{scenario}");
        let listed: String = notes.iter().map(|n| format!("  - {n}\n")).collect();
        assert!(
            text.contains(&format!("\nsystem notes:\n{listed}")),
            "{scenario}:\n{text}"
        );
    }
}

/// Unit names with numbers sort by the numbers' values, in the text and the JSON.
#[test]
fn unit_names_sort_naturally() {
    let dir = copy_project();
    let counters = dir.path().join("scenarios/lrf/lrf.counters.ron");
    mutate(&counters, "name: \"Saxe\",", "name: \"10 Army\",");
    mutate(&counters, "name: \"Ecuyers\",", "name: \"3 Army\",");
    mutate(
        &counters,
        "id: \"jengland-cavalry-3\",\n                    name: \"Cavalry\",",
        "id: \"jengland-cavalry-3\",\n                    name: \"5 Army\",",
    );
    let rel = "scenarios/lrf/jengland.scenario.ron";
    let (text, json, _) = summary_in(dir.path(), rel);
    let names: Vec<String> = json["sides"][0]["by_unit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap().to_string())
        .filter(|n| n.ends_with(" Army"))
        .collect();
    assert_eq!(names, ["3 Army", "5 Army", "10 Army"]);
    let at = |name: &str| {
        text.find(&format!(" x {name} ("))
            .unwrap_or_else(|| panic!("{name} in\n{text}"))
    };
    assert!(
        at("3 Army") < at("5 Army") && at("5 Army") < at("10 Army"),
        "{text}"
    );
}

/// An `// assumed:` comment written over two or more lines is listed whole.
#[test]
fn an_assumed_comment_over_several_lines_is_kept_whole() {
    let rel = "scenarios/lrf/brissarthe.scenario.ron";
    let source = std::fs::read_to_string(repo().join(rel)).unwrap();
    // The comment as written: its marker line and the comment lines right below it.
    let lines: Vec<&str> = source.lines().collect();
    let first = lines
        .iter()
        .position(|l| l.trim_start().starts_with("// assumed:"))
        .unwrap();
    let mut parts = vec![
        lines[first]
            .trim_start()
            .trim_start_matches("// assumed:")
            .trim(),
    ];
    for l in &lines[first + 1..] {
        let t = l.trim_start();
        if !t.starts_with("//") || t.starts_with("// assumed:") {
            break;
        }
        parts.push(t.trim_start_matches('/').trim());
    }
    assert!(
        parts.len() >= 3,
        "the bundled comment runs over three lines"
    );
    let whole = parts.join(" ");
    let output = muster()
        .current_dir(repo())
        .args(["summary", rel, "--assumed"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains(&format!("  {}:{} `comment`: {whole}\n", rel, first + 1)),
        "{whole}\n{text}"
    );
    let json = muster()
        .current_dir(repo())
        .args(["summary", rel, "--format", "json"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(
        json["assumed"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["field"] == "comment" && a["reason"] == whole.as_str()),
        "{json}"
    );
}

/// Permissions that apply only under a condition are rules in play too, with their
/// condition in the system's words.
#[test]
fn permissions_with_a_condition_are_in_the_rules_in_play() {
    let system = read_system("scenarios/cdg/cdg.system.ron");
    let (text, json) = summary("scenarios/cdg/courtrai.scenario.ron");
    let rules: Vec<(String, String)> = json["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["topic"].as_str().unwrap().to_string(),
                r["text"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut checked = 0;
    for p in system
        .rules
        .permissions
        .iter()
        .filter(|p| p.condition.is_some() && p.troops == ["*"])
    {
        let condition = p.condition.as_deref().unwrap();
        let allowed = match p.allowed {
            muster_model::rules::Allowance::Must => "must",
            muster_model::rules::Allowance::May => "may",
            muster_model::rules::Allowance::Never => "never",
        };
        let expected = (
            p.action.words().to_string(),
            format!("{allowed}: all ({condition})"),
        );
        assert!(rules.contains(&expected), "{expected:?} in {rules:?}");
        assert!(
            text.contains(&format!("  {}: {}\n", expected.0, expected.1)),
            "{text}"
        );
        checked += 1;
    }
    assert!(checked >= 3, "{checked}");
}
