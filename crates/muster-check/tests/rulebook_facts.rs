//! Facts of the bundled data that an audit against the rulebooks found wrong once, checked
//! on the data as the validator loads and compiles it, so that they stay fixed.

use muster_testkit::db::bundled;
use muster_testkit::db::index;

use muster_db::Db;
use muster_db::load::Document;
use muster_model::scenario::{Forces, Scenario, ZonedForces};
use muster_model::system::{FeatureClass, GridKind};
use muster_model::table::TerrainTable;

fn scenario<'a>(db: &'a Db, rel: &str) -> &'a Scenario {
    match db.doc(index(db, rel)) {
        Some(Document::Scenario(s)) => s,
        _ => panic!("{rel} is not a scenario"),
    }
}

fn zoned<'a>(s: &'a Scenario, side: &str) -> &'a ZonedForces {
    match &s.side(side).unwrap().forces {
        Forces::Zoned(z) => z,
        _ => panic!("side {side} is not zoned"),
    }
}

/// The scenario's own compiled map (its terrain modifications applied).
fn scenario_table(db: &Db, rel: &str) -> TerrainTable {
    db.compile_scenario(index(db, rel))
        .unwrap_or_else(|| panic!("{rel} has no compiled map of its own"))
        .table()
        .clone()
}

fn hexsides_with(table: &TerrainTable, feature: &str) -> usize {
    table
        .hexsides
        .iter()
        .filter(|s| s.features.iter().any(|f| f == feature))
        .count()
}

fn hexes_of(table: &TerrainTable, terrain: &str) -> usize {
    table.hexes.iter().filter(|h| h.terrain == terrain).count()
}

/// Chanson de Geste, movement factors table (l. 89) and the terrain paragraph (l. 94):
/// Irregulars move at full speed in rough ground, and open woods and water-logged fields
/// are rough ground.
#[test]
fn cdg_irregulars_move_at_full_speed_in_all_rough_ground() {
    let db = bundled();
    let Some(Document::System(system)) = db.doc(index(&db, "scenarios/cdg/cdg.system.ron")) else {
        panic!("no cdg system");
    };
    let GridKind::Table { features, .. } = &system.grid else {
        panic!("cdg plays on a table");
    };
    let rough = [
        FeatureClass::Rough,
        FeatureClass::Woods,
        FeatureClass::WaterLogged,
    ];
    let irregulars = |factors: &[muster_model::system::TroopFactor]| {
        factors
            .iter()
            .find(|t| t.troop == "irregulars")
            .map(|t| t.factor)
    };
    let mut seen = 0;
    for kind in features.iter().filter(|f| rough.contains(&f.class)) {
        assert_eq!(kind.movement_factor, Some(2.0), "{}", kind.id);
        assert_eq!(irregulars(&kind.troop_factors), Some(1.0), "{}", kind.id);
        seen += 1;
    }
    assert!(seen >= 3, "rough, woods and water-logged");

    // The compiled Courtrai table carries the exception on its meadows and abbey grounds.
    let table = db
        .table(index(&db, "maps/cdg/courtrai.map.ron"))
        .expect("courtrai compiles");
    for id in ["water-logged", "woods"] {
        let feature = table
            .features
            .iter()
            .find(|f| f.feature == id)
            .unwrap_or_else(|| panic!("courtrai has {id}"));
        assert_eq!(feature.movement_factor, Some(2.0), "{id}");
        assert_eq!(irregulars(&feature.troop_factors), Some(1.0), "{id}");
    }
}

/// PRESTAGS 6.3 Dorylaeum: all terrain and its effects are ignored but slopes and
/// hilltops, roads included.
#[test]
fn dorylaeum_keeps_slopes_and_hilltops_and_nothing_else() {
    let db = bundled();
    let map = db
        .terrain_map(index(&db, "maps/prestags/mapsheet.map.ron"))
        .expect("the mapsheet compiles")
        .table()
        .clone();
    assert!(hexsides_with(&map, "road") > 0, "the mapsheet has roads");

    let table = scenario_table(&db, "scenarios/prestags/6-3-dorylaeum.scenario.ron");
    assert_eq!(table.scenario.as_deref(), Some("dorylaeum"));
    assert_eq!(hexsides_with(&table, "road"), 0);
    assert!(
        table.hexsides.iter().all(|s| s.features.is_empty()),
        "no hexside feature at all: {:?}",
        table.hexsides.first()
    );
    assert_eq!(hexes_of(&table, "slope"), hexes_of(&map, "slope"));
    assert_eq!(hexes_of(&table, "hilltop"), hexes_of(&map, "hilltop"));
    assert!(hexes_of(&table, "slope") > 0 && hexes_of(&table, "hilltop") > 0);
    for hex in &table.hexes {
        assert!(
            ["clear", "slope", "hilltop"].contains(&hex.terrain.as_str()),
            "{} is {}",
            hex.id,
            hex.terrain
        );
    }
}

/// PRESTAGS 4.1 Qadisiya: all terrain but slopes is ignored; roads are terrain (5.51,
/// 5.53), so they go too. Scenarios that ignore named terrain keep their roads.
#[test]
fn qadisiya_ignores_roads_and_named_ignores_keep_them() {
    let db = bundled();
    let table = scenario_table(&db, "scenarios/prestags/4-1-qadisiya.scenario.ron");
    assert_eq!(hexsides_with(&table, "road"), 0);
    assert!(hexes_of(&table, "slope") > 0);
    assert_eq!(hexes_of(&table, "hilltop"), 0);

    let map = db
        .terrain_map(index(&db, "maps/prestags/mapsheet.map.ron"))
        .unwrap()
        .table()
        .clone();
    let cerami = scenario_table(&db, "scenarios/prestags/5-5-cerami.scenario.ron");
    assert_eq!(cerami.hexsides, map.hexsides, "Cerami ignores only woods");
}

/// PRESTAGS 5.2 Clontarf: the "2" leader is listed with the fleet group (9AX, 3VF, 1
/// "2", any all-sea hex), so the sample puts him aboard a fleet, not ashore.
#[test]
fn clontarf_fleet_leader_starts_aboard() {
    let db = bundled();
    let vikings = zoned(
        scenario(&db, "scenarios/prestags/5-2-clontarf.scenario.ron"),
        "vikings",
    );
    let fleet = vikings
        .deploy
        .iter()
        .find(|d| d.id.as_deref() == Some("fleet"))
        .expect("a fleet group");
    assert!(fleet.units.iter().any(|u| u.kind == "2L"));
    let count = |list: &[muster_model::scenario::TypeCount]| -> u16 {
        list.iter()
            .filter(|u| u.kind == "2L")
            .map(|u| u.count)
            .sum()
    };
    let aboard: u16 = vikings
        .sample
        .iter()
        .filter(|s| s.units.iter().any(|u| u.kind == "VF"))
        .map(|s| count(&s.aboard))
        .sum();
    let ashore: u16 = vikings.sample.iter().map(|s| count(&s.units)).sum();
    assert_eq!((aboard, ashore), (1, 0), "the 2 leader: aboard, ashore");
}

/// The raid, melee modifiers (l. 48): shield and armour add +1 each to the melee die.
/// Each foot type's name says what it wears, so the rules the armour modifiers give a
/// kind must add up to the count its name gives; a rider has what the foot it becomes
/// unhorsed wears (l. 68).
#[test]
fn raid_armour_and_shields_add_to_the_melee_die_by_figure_type() {
    use muster_model::vocab::Effect;
    use muster_semantic::rules::vocab::admits_kind;
    let db = bundled();
    let Some(Document::System(system)) = db.doc(index(&db, "scenarios/raid/raid.system.ron"))
    else {
        panic!("the raid's system");
    };
    let armour = ["armour-and-shield", "armour-or-shield"];
    let worn = |kind: &str| -> i32 {
        let k = system.unit_kinds.iter().find(|k| k.id == kind).unwrap();
        system
            .rules
            .effects
            .iter()
            .filter(|r| armour.contains(&r.id.as_str()))
            .filter(|r| r.when.as_ref().is_none_or(|c| admits_kind(c, system, k)))
            .flat_map(|r| &r.then)
            .map(|e| match e {
                Effect::DieModifier(n) => i32::from(*n),
                _ => 0,
            })
            .sum()
    };
    let by_name = |kind: &str| -> i32 {
        let name = &system
            .unit_kinds
            .iter()
            .find(|k| k.id == kind)
            .unwrap()
            .name;
        match () {
            _ if name.contains("no armour or shield") => 0,
            _ if name.contains("armour and shield") => 2,
            _ if name.contains("armour or shield") => 1,
            _ => panic!("{kind}'s name says nothing of armour: {name}"),
        }
    };
    for kind in ["light-infantry", "medium-infantry", "heavy-infantry"] {
        assert_eq!(worn(kind), by_name(kind), "{kind}");
    }
    let fallen = |rule: &str| -> String {
        let r = system.rules.effects.iter().find(|r| r.id == rule).unwrap();
        r.then
            .iter()
            .find_map(|e| match e {
                Effect::Becomes(k) => Some(k.clone()),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(worn("light-cavalry"), worn(&fallen("fallen-light-rider")));
    assert_eq!(worn("heavy-cavalry"), worn(&fallen("fallen-heavy-rider")));
}
