//! The rules the bundled systems print, typed (`rules: (...)` in each system file), as
//! the validator loads them; and the summary lines that use them.

mod common;

use std::path::Path;

use common::repo;

use muster_check::Db;
use muster_check::load::Document;
use muster_check::project::project_files;
use muster_check::semantic::rules::{permission_for, unled_sides};
use muster_check::semantic::{FileCx, ScenarioCx};
use muster_check::summary::summarize;
use muster_model::rules::{
    Action, Actor, Allowance, BandResult, MoraleEvent, MoraleUnaffected, ResultIndex,
    TerrainEffect, VictoryOrder,
};
use muster_model::system::{GridKind, RulesSystem};

fn bundled() -> Db {
    let display = |p: &Path| {
        p.strip_prefix(repo())
            .map(|r| r.display().to_string())
            .unwrap_or_else(|_| p.display().to_string())
    };
    Db::load(&repo(), &project_files(&repo()), &display)
}

fn index(db: &Db, rel: &str) -> usize {
    db.index_of(&repo().join(rel))
        .unwrap_or_else(|| panic!("{rel} is not loaded"))
}

fn system<'a>(db: &'a Db, id: &str) -> &'a RulesSystem {
    match db.doc(index(db, &format!("scenarios/{id}/{id}.system.ron"))) {
        Some(Document::System(s)) => s,
        _ => panic!("no system {id}"),
    }
}

/// The summary's rule lines of a bundled scenario, as `topic: text`.
fn rule_lines(db: &Db, rel: &str) -> Vec<String> {
    let cx = ScenarioCx::new(FileCx::new(db, index(db, rel)).unwrap()).unwrap();
    summarize(&cx)
        .rules
        .iter()
        .map(|r| format!("{}: {}", r.topic, r.text))
        .collect()
}

fn bands(s: &RulesSystem, table: &str) -> Vec<(Option<i16>, Option<i16>, BandResult)> {
    s.rules
        .result_tables
        .iter()
        .find(|t| t.id == table)
        .unwrap_or_else(|| panic!("no table {table}"))
        .bands
        .iter()
        .map(|b| (b.from, b.to, b.result.clone()))
        .collect()
}

/// Chanson de Geste, dice results (l. 150-151): fire by difference, melee by margin
/// with a tie costing both a level; 3 or less one level, 4-5 two, 6-7 three, 8 or more
/// destroyed.
#[test]
fn cdg_fire_and_melee_bands_are_as_printed() {
    let db = bundled();
    let cdg = system(&db, "cdg");
    let destroyed = BandResult::ToLevel("destroyed".into());
    assert_eq!(
        bands(cdg, "fire"),
        vec![
            (None, Some(0), BandResult::NoEffect),
            (Some(1), Some(3), BandResult::LoseLevels(1)),
            (Some(4), Some(5), BandResult::LoseLevels(2)),
            (Some(6), Some(7), BandResult::LoseLevels(3)),
            (Some(8), None, destroyed.clone()),
        ]
    );
    assert_eq!(
        bands(cdg, "melee"),
        vec![
            (Some(0), Some(0), BandResult::BothLoseLevels(1)),
            (Some(1), Some(3), BandResult::LoseLevels(1)),
            (Some(4), Some(5), BandResult::LoseLevels(2)),
            (Some(6), Some(7), BandResult::LoseLevels(3)),
            (Some(8), None, destroyed),
        ]
    );
    let by: Vec<ResultIndex> = cdg.rules.result_tables.iter().map(|t| t.by).collect();
    assert_eq!(by, vec![ResultIndex::Difference, ResultIndex::Margin]);
}

/// Chanson de Geste, Unit Status (l. 137-143), regroup (l. 65), leader casualties
/// (l. 152), devastating fire (l. 108, 150), break points (l. 159).
#[test]
fn cdg_status_ladder_leader_loss_and_devastating_fire() {
    let db = bundled();
    let cdg = system(&db, "cdg");
    let ladder = cdg.rules.status.as_ref().unwrap();
    let ids: Vec<&str> = ladder.levels.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["ok", "disordered", "demoralized", "destroyed"]);
    assert_eq!(ladder.floor.as_deref(), Some("demoralized"));
    assert_eq!(ladder.removed_at_share_lost, Some(0.5));
    assert_eq!(ladder.recovery[0].by, "regroup");
    assert_eq!(ladder.recovery[0].levels, [1, 2]);
    let loss = cdg.rules.leader_loss.as_ref().unwrap();
    assert_eq!(
        (loss.die, loss.escape_only_from, loss.escape_roll),
        (6, Some(6), Some(1))
    );
    let stop = cdg.rules.charge_stop.as_ref().unwrap();
    assert_eq!(
        (stop.table.as_str(), stop.levels_at_least, stop.short_by),
        ("fire", 2, 1.0)
    );
    let bp = cdg.break_point.as_ref().unwrap();
    assert_eq!(bp.status_points[0].level, "demoralized");
    assert_eq!(bp.status_points[0].points, 1);
    let los = cdg.rules.line_of_sight.as_ref().unwrap();
    assert_eq!(los.lower_units_block_within, Some(1.0));
    let men = cdg.rules.representation.as_ref().unwrap();
    assert_eq!((men.mounted.min, men.mounted.max), (200, 250));
    assert_eq!((men.foot.min, men.foot.max), (400, 500));
    let ratios: Vec<(&str, f64, Option<f64>)> = cdg
        .rules
        .force_ratios
        .iter()
        .map(|r| (r.name.as_str(), r.from, r.to))
        .collect();
    assert_eq!(
        ratios,
        [
            ("Force Even", 1.0, Some(1.0)),
            ("Outnumbered", 1.0, Some(2.0)),
            ("Badly Outnumbered", 2.0, None)
        ]
    );
}

/// Chanson de Geste: who charges, counter-charges, evades and may be passed through
/// (l. 85, 107, 109-110); choke points for Leaders and Transport (l. 92).
#[test]
fn cdg_permissions_and_terrain_exceptions() {
    let db = bundled();
    let cdg = system(&db, "cdg");
    let allowed =
        |kind: &str, action| permission_for(cdg, kind, action, None).map(|(_, p)| p.allowed);
    assert_eq!(
        allowed("mounted-knights", Action::CounterCharge),
        Some(Allowance::Must)
    );
    assert_eq!(
        allowed("medium-horsemen", Action::CounterCharge),
        Some(Allowance::May)
    );
    assert_eq!(
        allowed("spearmen", Action::CounterCharge),
        Some(Allowance::Never)
    );
    assert_eq!(allowed("transport", Action::Charge), Some(Allowance::Never));
    assert_eq!(allowed("levy", Action::Charge), Some(Allowance::May));
    for k in ["irregulars", "light-horsemen", "medium-horsemen"] {
        assert_eq!(allowed(k, Action::Evade), Some(Allowance::May), "{k}");
        assert_eq!(
            allowed(k, Action::BePassedThrough),
            Some(Allowance::May),
            "{k}"
        );
    }
    assert_eq!(
        allowed("mounted-knights", Action::Evade),
        Some(Allowance::Never)
    );
    assert_eq!(
        allowed("archers", Action::BePassedThrough),
        Some(Allowance::Never)
    );
    let choke = |troop: &str| {
        cdg.rules
            .terrain_exceptions
            .iter()
            .find(|e| {
                e.troops.iter().any(|t| t == troop) && e.terrain.iter().any(|t| t == "bridge")
            })
            .map(|e| e.effect.clone())
    };
    assert_eq!(choke("leader"), Some(TerrainEffect::NoCrossingCost));
    assert_eq!(choke("transport"), Some(TerrainEffect::WholeMove));
}

/// The raid: when morale is tested (l. 17-23), who need not test to charge (l. 19),
/// bow fire despite a failure (l. 16), turning to face (l. 44), defensive fire (l. 95).
#[test]
fn raid_morale_triggers_and_melee_restrictions() {
    let db = bundled();
    let raid = system(&db, "raid");
    let morale = raid.rules.morale.as_ref().unwrap();
    let events: Vec<&MoraleEvent> = morale.triggers.iter().map(|t| &t.event).collect();
    assert_eq!(events.len(), 6);
    assert!(events.contains(&&MoraleEvent::FriendRoutingWithin(6.0)));
    let charging = morale
        .triggers
        .iter()
        .find(|t| t.event == MoraleEvent::Charging)
        .unwrap();
    assert_eq!(charging.exempt, ["leader", "berserker"]);
    assert_eq!(morale.failure_does_not_stop, [MoraleUnaffected::Fire]);
    let allowed =
        |status, action| permission_for(raid, "foot", action, status).map(|(_, p)| p.allowed);
    assert_eq!(
        allowed(Some("routing"), Action::TurnToFace),
        Some(Allowance::Never)
    );
    assert_eq!(
        allowed(Some("marked"), Action::Charge),
        Some(Allowance::Never)
    );
    assert_eq!(allowed(None, Action::BreakOffMelee), Some(Allowance::Never));
    assert_eq!(
        raid.rules
            .defensive_fire
            .as_ref()
            .unwrap()
            .first_melee_round_modifier,
        -2
    );
    // The wall halves the move that crosses it.
    let GridKind::Table { features, .. } = &raid.grid else {
        panic!("the raid plays on a table")
    };
    let wall = features.iter().find(|f| f.id == "wall").unwrap();
    assert_eq!(wall.crossing_factor, Some(2.0));
}

/// PRESTAGS 4.2 (the phases of a player-turn), 11.24, 11.41-11.42; LRF section 4.
#[test]
fn sequences_of_play_victory_order_and_exit() {
    let db = bundled();
    let prestags = system(&db, "prestags");
    let seq = prestags.rules.sequence.as_ref().unwrap();
    let phases: Vec<&str> = seq.player_turn.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(phases, ["fire", "movement", "melee", "disruption-recovery"]);
    assert_eq!(seq.player_turn[3].acts, [Actor::Both]);
    assert_eq!(
        prestags.rules.victory_order,
        Some(VictoryOrder::HigherSatisfiesLower)
    );
    let exit = prestags.rules.exit.as_ref().unwrap();
    assert_eq!((exit.cost, exit.may_return), (1.0, false));
    let lrf = system(&db, "lrf");
    let seq = lrf.rules.sequence.as_ref().unwrap();
    let all: Vec<&str> = seq.phases().iter().map(|(_, _, p)| p.id.as_str()).collect();
    assert_eq!(all, ["movement", "combat", "victory-check", "turn-marker"]);
}

/// El Mansura (6.6): the Arabs have `Mt. Ex.` and no leader, so by 10.23 their foot
/// begin every movement phase out of control and move at half rate.
#[test]
fn el_mansura_arab_foot_move_at_half_rate() {
    let db = bundled();
    let rel = "scenarios/prestags/6-6-el-mansura.scenario.ron";
    let cx = ScenarioCx::new(FileCx::new(&db, index(&db, rel)).unwrap()).unwrap();
    let unled = unled_sides(&cx);
    assert_eq!(unled.len(), 1);
    assert_eq!(cx.scenario.sides[unled[0].side].id, "arabs");
    assert_eq!(unled[0].reduced, ["CB", "MI"]);
    assert_eq!(unled[0].exempt, ["HB", "MC"]);
    assert_eq!(unled[0].factor, 0.5);
    let lines = rule_lines(&db, rel);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("leader control: Arabs have no leader: CB, MI")),
        "{lines:#?}"
    );
}

/// Every structure is used by the summary of a scenario of its system.
#[test]
fn the_summary_words_the_typed_rules() {
    let db = bundled();
    let has = |lines: &[String], start: &str| lines.iter().any(|l| l.starts_with(start));
    let cdg = rule_lines(&db, "scenarios/cdg/courtrai.scenario.ron");
    for start in [
        "unit status: OK > Disordered > Demoralized > Destroyed",
        "result table: Fire (by difference): 0 or less no effect; 1-3 1 level; 4-5 2 levels",
        "result table: Melee (by margin): 0 both lose 1 level",
        "force ratios: Force Even",
        "leader loss: after melee",
        "charge stop:",
        "counter-charge: must: mounted-knights; may: medium-horsemen",
        "terrain exception: leader: no crossing cost at bridge, gate",
        "morale tests: mounted-knights on an enemy in the frontal arc within 12 inches",
        "line of sight:",
        "break points: each unbroken Demoralized unit scores 1",
        "men represented:",
    ] {
        assert!(has(&cdg, start), "{start}\n{cdg:#?}");
    }
    let raid = rule_lines(&db, "scenarios/raid/raid-example.scenario.ron");
    for start in [
        "sequence of play: each player-turn: Morale check (phasing)",
        "unit status: Steady > Morale marker > Routing",
        "morale tests: all on enemy cavalry within charge range",
        "defensive fire: bowman",
        "turn to face: never: all at Routing",
    ] {
        assert!(has(&raid, start), "{start}\n{raid:#?}");
    }
    let hastings = rule_lines(&db, "scenarios/prestags/5-7-hastings.scenario.ron");
    assert!(
        has(
            &hastings,
            "victory levels: Marginal < Substantive < Decisive; a higher level"
        ),
        "{hastings:#?}"
    );
    let mansura = rule_lines(&db, "scenarios/prestags/6-6-el-mansura.scenario.ron");
    assert!(
        has(&mansura, "exiting: a unit needs 1 movement point"),
        "{mansura:#?}"
    );
    let fontenoy = rule_lines(&db, "scenarios/lrf/fontenoy.scenario.ron");
    assert!(
        has(
            &fontenoy,
            "result table: Morale check (by difference): -1 or less no effect; 0 `R`"
        ),
        "{fontenoy:#?}"
    );
}
