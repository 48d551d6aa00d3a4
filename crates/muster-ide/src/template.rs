//! Templates for `muster new`: the files of a new project, a rules system skeleton
//! (`system`), a counter sheet skeleton (`counters`), a map skeleton and a scenario
//! skeleton built from a counter sheet and a compiled map.
//!
//! Two comment conventions run through every template:
//! - A value muster had to guess so that the file validates ends with (or follows a line
//!   of) [`PLACEHOLDER_MARK`], `// muster: placeholder`. `setup::placeholder` warns about
//!   every marked setup line of a scenario, `template::placeholder` about every other
//!   marked line, so a skeleton validates with warnings only and the author sees what is
//!   left to do.
//! - A line whose first characters after its indentation are [`EXAMPLE_MARK`] (`//~ `,
//!   in `muster.toml` [`TOML_EXAMPLE_MARK`], `#~ `) is an example of an optional section:
//!   deleting that mark from every such line ([`uncomment_examples`]) gives files that
//!   still validate without errors.
//!
//! A scenario skeleton puts every copy of every counter of two armies on a hex of its
//! own (riders that may not stand alone join a combat unit), on terrain the unit may
//! enter, the first side from the top of the map and the second from the bottom.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use muster_hex::HexId;
use muster_map::TerrainMap;
use muster_model::FileKind;
use muster_model::counters::{Army, CounterSheet};
use muster_model::system::{GridKind, KindStats, MoveCost, RulesSystem, StackingPolicy, UnitRole};

use crate::catalog::{Catalog, unknown};
use muster_db::load::Document;
use muster_db::project::Db;

mod counters;
mod system;

pub use counters::counters;
pub use system::system;

/// The comment that marks a guessed value: `// muster: placeholder`.
pub use muster_semantic::PLACEHOLDER_MARK;

/// The start of an example line in a template: `//~ `.
pub const EXAMPLE_MARK: &str = "//~ ";

/// The start of an example line in `muster.toml`: `#~ `.
pub const TOML_EXAMPLE_MARK: &str = "#~ ";

/// `text` with every example line uncommented: [`EXAMPLE_MARK`] (or, in TOML,
/// [`TOML_EXAMPLE_MARK`]) removed where it starts a line after its indentation.
pub fn uncomment_examples(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            let body = line.trim_start();
            let rest = body
                .strip_prefix(EXAMPLE_MARK)
                .or_else(|| body.strip_prefix(TOML_EXAMPLE_MARK));
            match rest {
                Some(rest) => format!("{}{rest}", &line[..line.len() - body.len()]),
                None => line.to_string(),
            }
        })
        .collect()
}

/// What `muster new scenario` asks for.
#[derive(Debug, Clone)]
pub struct ScenarioRequest {
    /// The scenario id and file stem (`my-battle`).
    pub id: String,
    pub system: String,
    pub map: String,
    /// The two armies, one per side; `None`: the two armies whose ids start with the
    /// map's id (`jengland-franks`, `jengland-bretons`).
    pub armies: Option<Vec<String>>,
}

/// A generated scenario.
#[derive(Debug, Clone)]
pub struct NewScenario {
    pub text: String,
    /// Setup lines at placeholder hexes.
    pub placeholders: usize,
    /// The side ids.
    pub sides: [String; 2],
}

/// Whether `id` is usable as a file stem and id: lowercase letters, digits and `-`.
pub fn check_id(id: &str) -> Result<(), String> {
    let ok = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.starts_with('-');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{id}` is not a usable id: use lowercase letters, digits and `-` (`my-battle`)"
        ))
    }
}

/// A title from an id: `battle-of-x` -> `Battle of x`.
fn title(id: &str) -> String {
    let words = id.replace('-', " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A RON string literal.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_string())
}

/// The skeleton of a new scenario of `request.system` on `request.map`.
pub fn scenario(db: &Db, request: &ScenarioRequest) -> Result<NewScenario, String> {
    check_id(&request.id)?;
    let catalog = Catalog::new(db);
    catalog.check_system(Some(&request.system))?;
    let system = catalog
        .system(&request.system)
        .ok_or_else(|| unknown("system", &request.system, &catalog.system_ids()))?;
    if let GridKind::Table { .. } = system.grid {
        return Err(format!(
            "system `{}` plays on an open table; `muster new scenario` writes counter-by-counter set-ups on hex maps (copy one of the system's scenarios instead)",
            system.id
        ));
    }
    let sheets = catalog.sheets_of(&system.id);
    if sheets.is_empty() {
        return Err(format!(
            "system `{}` has no counter sheet: its scenarios give forces by unit type, not counter by counter (copy one of the system's scenarios instead)",
            system.id
        ));
    }
    let (map_index, map_id) = find_map(db, &catalog, &request.map, &system.id)?;
    let terrain = db.terrain_map(map_index).ok_or_else(|| {
        format!("map `{map_id}` could not be compiled; run `muster validate` on it first")
    })?;
    let (sheet, armies) = pick_armies(&catalog, &sheets, request, &system.id)?;
    let sides: [String; 2] = [0, 1].map(|i| side_id(&armies[i].id, &map_id));
    let mut used: BTreeSet<HexId> = BTreeSet::new();
    let mut placed = Vec::new();
    for (i, army) in armies.iter().enumerate() {
        placed.push(place(system, terrain, army, i == 1, &mut used)?);
    }
    let mut text = String::new();
    text += &format!(
        "// {name}: a scenario skeleton written by `muster new scenario`.\n\
         //\n\
         // Every counter of the two armies stands on a hex of its own so that the file\n\
         // validates; those hexes are placeholders, not the battle. On each line marked\n\
         // `// {PLACEHOLDER_MARK}`, put the hexes the rulebook gives and delete the comment:\n\
         // `setup::placeholder` warns until then. Remove the counters the battle does not\n\
         // use. The turns, who deploys and plays first, and the victory condition are guesses\n\
         // too, marked the same way: `template::placeholder` warns until each is replaced.\n\
         // A line starting `{EXAMPLE_MARK}` is an example: delete those four characters to use it.\n\
         // `muster list counters --army ARMY` lists an army; `muster list edges {map_id}`\n\
         // the map's edge hexes; `muster explain hooks` the special rules.\n",
        name = title(&request.id),
    );
    text += "Scenario(\n";
    text += &format!("    id: {},\n", quoted(&request.id));
    text += &format!("    name: {},\n", quoted(&title(&request.id)));
    text += &format!("    {EXAMPLE_MARK}date: Some(\"the battle's date\"),\n");
    text +=
        &format!("    {EXAMPLE_MARK}source: Some(\"the rulebook and the scenario's number\"),\n");
    text += &format!("    system: {},\n", quoted(&system.id));
    text += &format!("    counters: {},\n", quoted(&sheet.id));
    text += &format!("    map: {},\n", quoted(&map_id));
    text += "    // The number of turns, the side that sets up first and the side that moves first\n    // (when both sides set up at once, `simultaneous_setup: true` replaces `deploys_first`).\n";
    text += &format!("    turns: 8, // {PLACEHOLDER_MARK}\n");
    text += &format!(
        "    deploys_first: {}, // {PLACEHOLDER_MARK}\n",
        quoted(&sides[0])
    );
    text += &format!(
        "    plays_first: {}, // {PLACEHOLDER_MARK}\n",
        quoted(&sides[1])
    );
    text += "    sides: [\n";
    let mut placeholders = 0;
    for (i, army) in armies.iter().enumerate() {
        text += "        (\n";
        text += &format!("            id: {},\n", quoted(&sides[i]));
        text += &format!("            name: {},\n", quoted(&army.name));
        text += &format!("            army: {},\n", quoted(&army.id));
        if system.army_morale.is_some() {
            text += "            // The losses at which the army's morale breaks.\n";
            text += &format!("            {EXAMPLE_MARK}morale_threshold: Some(Fixed(10)),\n");
        }
        text += "            forces: Placed(setup: [\n";
        for (counter, hexes) in &placed[i] {
            let c = army
                .counters
                .iter()
                .find(|c| &c.id == counter)
                .ok_or_else(|| format!("counter `{counter}` vanished"))?;
            text += &format!(
                "                // {} ({}, strength {}): {} on the sheet\n",
                c.name, c.kind, c.strength, c.count
            );
            let hexes: Vec<String> = hexes.iter().map(|h| quoted(&h.to_string())).collect();
            text += &format!(
                "                (units: [(counter: {}, count: {})], at: Hexes([{}])), // {PLACEHOLDER_MARK}\n",
                quoted(&c.id),
                c.count,
                hexes.join(", ")
            );
            placeholders += 1;
        }
        text += "            ]),\n";
        text += "        ),\n";
    }
    text += "    ],\n";
    text += "    // Units that arrive later: move their counters out of `sides` into\n";
    text += "    // `reinforcements: [(side, turn, units: [(counter, count)], entry: [hexes])]`.\n";
    text +=
        "    // Special rules: `special_rules: [(hook, params, text)]`; `muster explain hooks`.\n";
    text += "    victory: [\n";
    text +=
        "        // The rulebook's victory conditions; `muster schema scenario` names each kind.\n";
    text += &format!("        FewestLosses(after_turn: 8, level: Minor), // {PLACEHOLDER_MARK}\n");
    text += "    ],\n";
    text += ")\n";
    Ok(NewScenario {
        text,
        placeholders,
        sides,
    })
}

/// The index and id of map `reference` of system `system`.
fn find_map(
    db: &Db,
    catalog: &Catalog,
    reference: &str,
    system: &str,
) -> Result<(usize, String), String> {
    let found = db.same_id(FileKind::Map, reference).first().copied();
    let Some(index) = found else {
        return Err(unknown(
            &format!("map of system `{system}`"),
            reference,
            &catalog.map_ids(Some(system)),
        ));
    };
    let of = catalog
        .maps(None)
        .into_iter()
        .find(|m| m.id == reference)
        .map(|m| m.system);
    if of.as_deref() != Some(system) {
        return Err(format!(
            "map `{reference}` belongs to system `{}`, not `{system}` (maps of `{system}`: {})",
            of.unwrap_or_default(),
            catalog.map_ids(Some(system)).join(", ")
        ));
    }
    if !matches!(db.doc(index), Some(Document::Map(_))) {
        return Err(format!("`{reference}` is not a map"));
    }
    Ok((index, reference.to_string()))
}

/// The counter sheet and the two armies of the scenario.
fn pick_armies<'a>(
    catalog: &Catalog<'a>,
    sheets: &[&'a CounterSheet],
    request: &ScenarioRequest,
    system: &str,
) -> Result<(&'a CounterSheet, [&'a Army; 2]), String> {
    let known = catalog.army_ids(Some(system));
    let wanted: Vec<String> = match &request.armies {
        Some(list) => list.clone(),
        None => {
            let prefix = format!("{}-", request.map);
            let matching: Vec<String> = known
                .iter()
                .filter(|a| a.starts_with(&prefix))
                .take(2)
                .cloned()
                .collect();
            if matching.len() < 2 {
                return Err(format!(
                    "give the two armies with `--armies A,B` (armies of `{system}`: {})",
                    known.join(", ")
                ));
            }
            matching
        }
    };
    let [a, b] = wanted.as_slice() else {
        return Err(format!(
            "`--armies` takes two armies, one per side, not {}",
            wanted.len()
        ));
    };
    if a == b {
        return Err(format!("the two sides use the same army `{a}`"));
    }
    for id in [a, b] {
        if !known.contains(id) {
            return Err(unknown(&format!("army of `{system}`"), id, &known));
        }
    }
    for sheet in sheets {
        let find = |id: &str| sheet.armies.iter().find(|x| x.id == id);
        if let (Some(x), Some(y)) = (find(a), find(b)) {
            return Ok((sheet, [x, y]));
        }
    }
    Err(format!(
        "armies `{a}` and `{b}` are on different counter sheets; a scenario uses one sheet"
    ))
}

/// `jengland-franks` on map `jengland` -> `franks`.
fn side_id(army: &str, map: &str) -> String {
    army.strip_prefix(&format!("{map}-"))
        .filter(|s| !s.is_empty())
        .unwrap_or(army)
        .to_string()
}

/// Whether a unit of `kind` may stand in `hex` (the system's terrain chart).
fn admits(system: &RulesSystem, map: &TerrainMap, hex: HexId, kind: &str) -> bool {
    let class = system
        .unit_kinds
        .iter()
        .find(|k| k.id == kind)
        .and_then(|k| match &k.stats {
            Some(KindStats::Counter { class, .. }) | Some(KindStats::Leader { class, .. }) => {
                Some(class.as_str())
            }
            _ => None,
        });
    match map
        .terrain_id_at(hex)
        .and_then(|t| system.terrain.iter().find(|row| row.id == t))
    {
        Some(t) => t.admits(kind, class),
        None => map.is_enterable(hex),
    }
}

/// Placeholder hexes for every copy of every counter of `army`: counter id -> hexes.
fn place(
    system: &RulesSystem,
    map: &TerrainMap,
    army: &Army,
    from_bottom: bool,
    used: &mut BTreeSet<HexId>,
) -> Result<Vec<(String, Vec<HexId>)>, String> {
    let grid = *map.grid();
    // Row by row, away from the map's edges first when there is room.
    let mut order: Vec<HexId> = (1..=grid.rows)
        .flat_map(|r| (1..=grid.columns).map(move |c| HexId::new(c, r)))
        .collect();
    if from_bottom {
        order.reverse();
    }
    let role_of = |kind: &str| {
        system
            .unit_kinds
            .iter()
            .find(|k| k.id == kind)
            .map(|k| k.role)
    };
    let riders = match &system.stacking {
        StackingPolicy::UnitsPerHex { riders, .. } => riders.clone(),
        _ => Vec::new(),
    };
    let joins = |role: Option<UnitRole>| {
        role.filter(|r| *r != UnitRole::Combat).and_then(|r| {
            riders
                .iter()
                .find(|x| x.role == r && !x.may_stand_alone)
                .map(|x| (r, x.max))
        })
    };
    let mut out: BTreeMap<String, Vec<HexId>> = BTreeMap::new();
    // Hexes of this side's combat units, with the riders of each role they hold.
    let mut hosts: Vec<(HexId, String, HashMap<UnitRole, u8>)> = Vec::new();
    let too_small = || {
        format!(
            "the map has no room for every counter of army `{}` on a hex of its own; use a larger map or fewer counters",
            army.id
        )
    };
    // Units that stand on their own hex first, then riders that must join one.
    for pass in [false, true] {
        for c in &army.counters {
            let role = role_of(&c.kind);
            let join = joins(role);
            if join.is_some() != pass {
                continue;
            }
            for _ in 0..c.count {
                let hex = match join {
                    Some((r, max)) => {
                        let host = hosts.iter_mut().find(|(h, _, held)| {
                            held.get(&r).copied().unwrap_or(0) < max
                                && admits(system, map, *h, &c.kind)
                        });
                        match host {
                            Some((h, _, held)) => {
                                *held.entry(r).or_default() += 1;
                                *h
                            }
                            None => return Err(too_small()),
                        }
                    }
                    None => {
                        let hex = order
                            .iter()
                            .copied()
                            .find(|h| {
                                !used.contains(h)
                                    && map.terrain_at(*h).is_some_and(|t| t.move_cost.is_some())
                                    && admits(system, map, *h, &c.kind)
                            })
                            .ok_or_else(too_small)?;
                        used.insert(hex);
                        if role == Some(UnitRole::Combat) {
                            hosts.push((hex, c.kind.clone(), HashMap::new()));
                        }
                        hex
                    }
                };
                out.entry(c.id.clone()).or_default().push(hex);
            }
        }
    }
    Ok(army
        .counters
        .iter()
        .filter_map(|c| out.remove(&c.id).map(|h| (c.id.clone(), h)))
        .collect())
}

/// The skeleton of a new hex map of `system`, `columns` x `rows`.
pub fn map(id: &str, system: &RulesSystem, columns: u16, rows: u16) -> Result<String, String> {
    check_id(id)?;
    let GridKind::Hex { layout } = system.grid else {
        return Err(format!(
            "system `{}` plays on an open table; `muster new map` writes hex maps (copy one of the system's table maps instead)",
            system.id
        ));
    };
    if !(1..=99).contains(&columns) || !(1..=99).contains(&rows) {
        return Err("columns and rows go from 1 to 99 (hex ids are `CCRR`)".to_string());
    }
    let base = system
        .terrain
        .iter()
        .find(|t| t.id == "clear" || t.id == "open")
        .or_else(|| {
            system
                .terrain
                .iter()
                .find(|t| matches!(t.movement, MoveCost::Points(_)))
        })
        .map(|t| t.id.clone())
        .ok_or_else(|| format!("system `{}` has no enterable terrain", system.id))?;
    let terrain: Vec<&str> = system.terrain.iter().map(|t| t.id.as_str()).collect();
    let features: Vec<&str> = system
        .hexside_features
        .iter()
        .map(|f| f.id.as_str())
        .collect();
    let mut text = format!(
        "// {name}: a map skeleton written by `muster new map`.\n\
         //\n\
         // Every hex is `{base}` until an overlay says otherwise; overlays apply in order,\n\
         // later ones win. Terrain of `{system}`: {terrain}.\n\
         // Hexside features: {features}.\n\
         // `muster list terrain --system {system}` shows what each costs and does.\n",
        name = title(id),
        system = system.id,
        terrain = terrain.join(", "),
        features = if features.is_empty() {
            "none".to_string()
        } else {
            features.join(", ")
        },
    );
    text += "Map(\n";
    text += &format!("    id: {},\n", quoted(id));
    text += &format!("    name: {},\n", quoted(&title(id)));
    text += &format!("    system: {},\n", quoted(&system.id));
    text += &format!("    grid: Hex(columns: {columns}, rows: {rows}, layout: {layout:?}),\n");
    text += &format!("    base: {},\n", quoted(&base));
    text += "    overlays: [\n";
    text += &overlay_examples(system, &base, columns, rows);
    text += "    ],\n";
    text += ")\n";
    Ok(text)
}

/// Example overlays of a new map, behind [`EXAMPLE_MARK`], with the terrain and
/// hexside features of `system` and hexes of a `columns` x `rows` grid.
fn overlay_examples(system: &RulesSystem, base: &str, columns: u16, rows: u16) -> String {
    let other = system
        .terrain
        .iter()
        .map(|t| t.id.as_str())
        .find(|t| *t != base)
        .unwrap_or(base);
    let hex = |c: u16, r: u16| quoted(&HexId::new(c, r).to_string());
    let mut text = String::new();
    let mut example = |what: &str, line: String| {
        text += &format!("        // {what}\n        {EXAMPLE_MARK}{line},\n");
    };
    example(
        "Terrain on a list of hexes:",
        format!(
            "Terrain(terrain: {}, area: List([{}]))",
            quoted(other),
            hex(1, 1)
        ),
    );
    example(
        "Terrain on a whole column:",
        format!("Terrain(terrain: {}, area: Column(1))", quoted(other)),
    );
    if rows >= 2 {
        if let Some(feature) = system.hexside_features.first() {
            example(
                "A hexside feature from hex to hex (a road, a river's course):",
                format!(
                    "Path(feature: {}, hexes: [{}, {}])",
                    quoted(&feature.id),
                    hex(1, 1),
                    hex(1, 2)
                ),
            );
            example(
                "A hexside feature on hexsides, each between two hexes:",
                format!(
                    "Hexsides(feature: {}, sides: [({}, {})])",
                    quoted(&feature.id),
                    hex(1, 1),
                    hex(1, 2)
                ),
            );
        }
        example(
            "A hex entered only from some of its neighbours:",
            format!("Access(hex: {}, from: [{}])", hex(1, 2), hex(1, 1)),
        );
    }
    // A second terrain in a hex only where the system says how terrains combine (else
    // `maps::no-combine-rule`), and one that is not the hex's own (`maps::redundant-feature`).
    let own = if columns == 1 { other } else { base };
    let feature = system
        .terrain
        .iter()
        .find(|t| t.id != own && !t.base_only)
        .filter(|_| system.rules.terrain_combine.is_some());
    if let Some(feature) = feature {
        example(
            "A second terrain in hexes, beside their own (the system's `terrain_combine` says how they combine):",
            format!(
                "AddTerrain(terrain: {}, area: List([{}]))",
                quoted(&feature.id),
                hex(columns, rows)
            ),
        );
    }
    example(
        "A name printed on the map:",
        format!("Label(hex: {}, text: \"Village\")", hex(columns, rows)),
    );
    text
}

/// The files of a new project: (path relative to the project folder, contents).
pub fn project() -> Vec<(&'static str, String)> {
    vec![
        ("muster.toml", PROJECT_TOML.to_string()),
        ("README.md", PROJECT_README.to_string()),
        ("scenarios/.gitkeep", String::new()),
        ("maps/.gitkeep", String::new()),
        (".gitignore", "/target/\n/build/\n".to_string()),
        (".github/workflows/muster.yml", WORKFLOW.to_string()),
        (".pre-commit-config.yaml", PRE_COMMIT.to_string()),
    ]
}

const PROJECT_TOML: &str = r#"# muster project file: this folder is the project root. muster finds it from any
# folder below, and references (system, counters, map) never leave it.
#
# A new project has no rules system. Add one before writing scenarios:
#   scenarios/<system>/<system>.system.ron   `muster new system <system>`
#   scenarios/<system>/<sheet>.counters.ron  `muster new counters <sheet> --system <system>`
#   maps/<system>/<map>.map.ron              `muster new map <map> --system <system>`
# then `muster new scenario NAME --system <system> --map <map> --armies A,B`.
# The systems bundled with muster (`scenarios/lrf/` in its repository) are complete
# examples to copy. A line starting `#~ ` is an example: delete those three characters
# to use it.

[paths]
check = ["scenarios", "maps"]   # what `muster validate` and `muster watch` check

[checks]
#~ "morale::threshold-unreachable" = "off"   # or "warning" / "error"

[compile]
out = "build/tables"            # where `muster compile` writes terrain tables
"#;

const PROJECT_README: &str = r#"# Scenarios checked by muster

- `scenarios/<system>/`: each rules system, its counter sheet and its scenarios.
- `maps/<system>/`: the maps.
- `muster.toml`: the project file (what is checked, check levels, compile output).

This project starts without a rules system. Write the skeletons of one, of its
counter sheet, a map and a scenario, then fill in every line marked
`// muster: placeholder` (`muster validate` warns about each until it is done):

```sh
muster new system my-rules
muster new counters my-counters --system my-rules
muster new map my-map --system my-rules --columns 15 --rows 12
muster new scenario my-battle --system my-rules --map my-map --armies my-counters-red,my-counters-blue
muster validate
```

`muster list systems`, `muster list armies` and `muster list counters --army A` show
what the project holds. `.github/workflows/muster.yml` runs `muster validate` on every
push and uploads its SARIF log to GitHub code scanning; `.pre-commit-config.yaml` runs
it before every commit (`pre-commit install`).
"#;

const WORKFLOW: &str = r#"# Validates the project on every push and pull request and uploads the findings to
# GitHub code scanning (they appear on the pull request, at their line).
name: muster
on:
  push:
  pull_request:
permissions:
  contents: read
  security-events: write
jobs:
  validate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: dtolnay/rust-toolchain@stable
      - name: Install muster
        # Set the repository variable MUSTER_GIT (Settings > Secrets and variables >
        # Actions > Variables) to the git URL of muster; add `--tag` or `--rev` to pin
        # the version the project was written for.
        run: cargo install --locked --git "${{ vars.MUSTER_GIT }}" muster-cli
      - name: Validate (SARIF)
        run: muster validate --format sarif > muster.sarif
        continue-on-error: true
      - name: Upload to code scanning
        uses: github/codeql-action/upload-sarif@v3
        with:
          sarif_file: muster.sarif
          category: muster
      - name: Validate (fail on errors)
        run: muster validate --format github
"#;

const PRE_COMMIT: &str = r#"# Runs `muster validate` before every commit that touches data (`pre-commit install`).
repos:
  - repo: local
    hooks:
      - id: muster
        name: muster validate
        entry: muster validate --format short
        language: system
        files: \.(ron|json|toml)$
        pass_filenames: false
"#;
