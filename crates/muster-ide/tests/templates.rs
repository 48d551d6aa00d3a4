//! The rules system skeleton of `muster new system` keeps up with the model: every field
//! of the system's published schema, and of its `rules` block, is a section of the
//! skeleton (filled in, or an example behind `//~ `), each under a comment saying what
//! it is for. A field added to `RulesSystem` or `Rules` fails here by name until the
//! template shows it; the map skeleton offers a feature only where the system can
//! combine it. That the examples validate is `muster-cli/tests/authoring.rs`.

use muster_db::schema::generate;
use muster_ide::template::{EXAMPLE_MARK, system};
use muster_model::FileKind;
use serde_json::Value;

/// The property names of an object schema, following a `$ref` into `$defs`.
fn properties(root: &Value, schema: &Value) -> Vec<String> {
    let schema = match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.trim_start_matches("#/$defs/");
            &root["$defs"][name]
        }
        None => schema,
    };
    let names: Vec<String> = schema["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    assert!(!names.is_empty(), "no properties in {schema}");
    names
}

/// The sections of `text` at `indent` spaces: (field, the comment line above it).
fn sections(text: &str, indent: usize) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(body) = line.strip_prefix(&" ".repeat(indent)) else {
            continue;
        };
        let body = body.strip_prefix(EXAMPLE_MARK).unwrap_or(body);
        let Some((field, _)) = body.split_once(':') else {
            continue;
        };
        if field.is_empty() || !field.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            continue;
        }
        let above = i
            .checked_sub(1)
            .map(|j| lines[j].trim_start().to_string())
            .unwrap_or_default();
        out.push((field.to_string(), above));
    }
    out
}

fn assert_covers(text: &str, indent: usize, fields: &[String], what: &str) {
    let found = sections(text, indent);
    for field in fields {
        let Some((_, above)) = found.iter().find(|(f, _)| f == field) else {
            panic!("the system template has no section `{field}` of {what}");
        };
        let comment = above.strip_prefix("// ").unwrap_or_default();
        assert!(
            !comment.is_empty() && !comment.starts_with('~'),
            "section `{field}` of {what} has no comment saying what it is for (above it: `{above}`)"
        );
    }
}

#[test]
fn the_system_template_has_every_field_of_the_system_schema() {
    let schema = generate(FileKind::System);
    let text = system("my-rules").unwrap();
    let top = properties(&schema, &schema);
    assert!(top.iter().any(|f| f == "unit_kinds"), "{top:?}");
    assert_covers(&text, 4, &top, "`System`");
    let rules = properties(&schema, &schema["properties"]["rules"]);
    assert!(rules.iter().any(|f| f == "sequence"), "{rules:?}");
    assert_covers(&text, 8, &rules, "the `rules` block");
}

#[test]
fn the_system_template_refuses_an_unusable_id() {
    assert!(system("My Rules").is_err());
    assert!(system("").is_err());
}

#[test]
fn a_counter_sheet_is_refused_for_an_open_table_system() {
    let db = muster_testkit::db::bundled();
    let catalog = muster_ide::catalog::Catalog::new(&db);
    let table = catalog
        .system("cdg")
        .expect("the bundled open-table system");
    let refused = muster_ide::template::counters("x", table).unwrap_err();
    assert!(refused.contains("open table"), "{refused}");
    let hex = catalog.system("lrf").expect("a bundled hex system");
    assert!(muster_ide::template::counters("x", hex).is_ok());
}

/// The map skeleton shows `AddTerrain` only where the system says how a hex's terrains
/// combine (uncommented, it would be `maps::no-combine-rule` otherwise), with a terrain
/// that may be a feature and is not the hex's own.
#[test]
fn the_map_template_adds_a_feature_only_where_the_system_can_combine_it() {
    use muster_model::system::{CostCombine, EffectCombine, TerrainCombine};
    let db = muster_testkit::db::bundled();
    let index = muster_testkit::db::index(&db, "scenarios/lrf/lrf.system.ron");
    let Some(muster_db::load::Document::System(lrf)) = db.doc(index) else {
        panic!("the LRF system loads");
    };
    let plain = muster_ide::template::map("plain", lrf, 10, 8).unwrap();
    assert!(!plain.contains("AddTerrain"), "{plain}");
    let mut combining = lrf.clone();
    combining.rules.terrain_combine = Some(TerrainCombine {
        cost: CostCombine::MostCostly,
        combat: EffectCombine::Strongest,
    });
    for t in &mut combining.terrain {
        t.base_only = t.id != "village";
    }
    let text = muster_ide::template::map("featured", &combining, 10, 8).unwrap();
    let line =
        format!("        {EXAMPLE_MARK}AddTerrain(terrain: \"village\", area: List([\"1008\"])),");
    assert!(text.lines().any(|l| l == line), "{text}");
}
