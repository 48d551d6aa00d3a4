//! The rules the bundled systems print, typed (`rules: (...)` in each system file), as
//! the validator loads them; and the summary lines that use them.

use muster_testkit::db::bundled;
use muster_testkit::db::index;

use muster_check::checks::rules::compulsory_conflict::compulsory_conflicts;
use muster_check::checks::rules::compulsory_unmeetable::unmeetable;
use muster_check::checks::rules::defence_conflict::defence_conflicts;
use muster_check::checks::rules::elimination_conflict::elimination_conflicts;
use muster_check::checks::rules::follow_up_conflict::follow_up_conflicts;
use muster_check::checks::rules::split_strength_conflict::split_strength_conflicts;
use muster_check::checks::rules::voluntary_binds::voluntary_binds;
use muster_db::Db;
use muster_db::load::Document;
use muster_db::report::Loc;
use muster_ide::summary::summarize;
use muster_model::combat::{DefenderGroup, Obligation};
use muster_model::rules::{
    Action, Actor, Allowance, BandResult, HexsideSight, MoraleEvent, MoraleUnaffected,
    PanicTieBreak, PanicTrigger, Permission, Proximity, ResultIndex, VictoryOrder,
};
use muster_model::system::{
    FeatureClass, GridKind, RulesSystem, StackingPolicy, UnitRole, odds_ratio,
};
use muster_model::vocab::{Act, Condition, Effect, EffectRule};
use muster_semantic::rules::{permission_for, unled_sides};
use muster_semantic::{FileCx, ScenarioCx};

/// The place a report names, as a pointer.
fn place_of(at: &Loc) -> String {
    match at {
        Loc::Value(place) | Loc::Key(place) => place.to_string(),
        Loc::Span(span) => format!("{span:?}"),
    }
}

fn system<'a>(db: &'a Db, id: &str) -> &'a RulesSystem {
    match db.doc(index(db, &format!("scenarios/{id}/{id}.system.ron"))) {
        Some(Document::System(s)) => s,
        _ => panic!("no system {id}"),
    }
}

/// The rule of a system's vocabulary (`rules.effects`) with this id.
fn effect_rule<'a>(system: &'a RulesSystem, id: &str) -> &'a EffectRule {
    system
        .rules
        .effects
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("no rule {id} in {}", system.id))
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
    let stop = effect_rule(cdg, "devastating-fire");
    assert_eq!(
        stop.when,
        Some(Condition::All(vec![
            Condition::Event(MoraleEvent::Charging),
            Condition::Event(MoraleEvent::LosesLevels {
                table: "fire".into(),
                at_least: 2
            }),
        ]))
    );
    assert_eq!(stop.then, [Effect::ChargeHalted { short_by: 1.0 }]);
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
        let at_choke = Condition::Any(vec![
            Condition::InTerrain("bridge".into()),
            Condition::InTerrain("gate".into()),
        ]);
        let when = Condition::All(vec![Condition::Troop(troop.into()), at_choke]);
        cdg.rules
            .effects
            .iter()
            .find(|r| r.when.as_ref() == Some(&when))
            .map(|r| (r.section.as_str(), r.then.clone()))
    };
    assert_eq!(
        choke("leader"),
        Some(("l. 92", vec![Effect::NoCrossingCost]))
    );
    assert_eq!(choke("transport"), Some(("l. 92", vec![Effect::WholeMove])));
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
        "rule: devastating-fire: its charge halts 1 inch short of its target, and no melee follows",
        "counter-charge: must: mounted-knights; may: medium-horsemen",
        "rule: leaders-through-choke-points: pays no crossing cost: `leader` units and (in `bridge` or in `gate`) (l. 92)",
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

/// LRF section 6 and 9.10: the commander adds 1 to the morale value of the unit he is
/// stacked with and of units next to him. 9.4: baggage never attacks, has no zone of
/// control, is attacked hand to hand only and ignores R and T; a unit stacked with it
/// ignores R.
#[test]
fn lrf_commander_morale_bonus_and_baggage_immunities() {
    let db = bundled();
    let lrf = system(&db, "lrf");
    let m = lrf.rules.morale.as_ref().unwrap();
    let mods: Vec<_> = m
        .modifiers
        .iter()
        .map(|md| (md.value, md.from.clone(), md.reach, md.to.clone()))
        .collect();
    assert_eq!(
        mods,
        [(
            1,
            vec!["commander".to_string()],
            Proximity::StackedOrAdjacent,
            vec!["*".to_string()]
        )]
    );
    let allowed =
        |kind: &str, action| permission_for(lrf, kind, action, None).map(|(_, p)| p.allowed);
    for action in [
        Action::Attack,
        Action::ExertZoneOfControl,
        Action::BeFiredOn,
    ] {
        assert_eq!(
            allowed("baggage", action),
            Some(Allowance::Never),
            "{action:?}"
        );
        assert_eq!(allowed("infantry", action), None, "{action:?}");
    }
    let immunities: Vec<_> = lrf
        .rules
        .effects
        .iter()
        .filter_map(|r| match r.then.as_slice() {
            [muster_model::vocab::Effect::Immune(codes)] => {
                Some((r.section.as_str(), r.when.clone(), codes.join(",")))
            }
            _ => None,
        })
        .collect();
    use muster_model::vocab::Condition;
    assert_eq!(
        immunities,
        [
            (
                "9.4",
                Some(Condition::Troop("baggage".into())),
                "R,T".to_string()
            ),
            (
                "9.4",
                Some(Condition::StackedWith("baggage".into())),
                "R".to_string()
            ),
        ]
    );
}

/// PRESTAGS 6.32-6.38: what blocks a fire unit's line of sight.
#[test]
fn prestags_line_of_sight_by_terrain_elevation_and_occupation() {
    let db = bundled();
    let prestags = system(&db, "prestags");
    let los = prestags.rules.line_of_sight.as_ref().unwrap();
    assert!(los.units_block);
    let blocking: Vec<_> = los
        .blocking
        .iter()
        .map(|b| {
            (
                b.terrain.join(","),
                b.firer_at.join(","),
                b.unless_next_to.join(","),
            )
        })
        .collect();
    let t = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
    assert_eq!(
        blocking,
        [
            t("woods,village", "", ""),
            t("hilltop", "slope", ""),
            t("slope", "", "hilltop"),
        ]
    );
    let elevations: Vec<_> = los
        .elevations
        .iter()
        .map(|e| (e.id.as_str(), e.terrain.join(",")))
        .collect();
    assert_eq!(
        elevations,
        [
            ("ground", String::new()),
            ("slope", "slope".to_string()),
            ("hilltop", "hilltop".to_string()),
        ]
    );
    let occupied: Vec<_> = los
        .occupied_blocks
        .iter()
        .map(|o| {
            (
                o.firer_at.as_str(),
                o.blocked_by.join(","),
                o.unless_through_adjacent.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        occupied,
        [
            ("ground", "ground,slope,hilltop".to_string(), None),
            ("slope", "slope,hilltop".to_string(), None),
            ("hilltop", "ground,slope,hilltop".to_string(), Some("slope")),
        ]
    );
    assert_eq!(los.along_hexside, Some(HexsideSight::ClearIfEitherClear));
}

/// PRESTAGS 5.15: an undisrupted unit may always move one hex, and then no further; it
/// agrees with 10.24.
#[test]
fn prestags_minimum_move() {
    let db = bundled();
    let prestags = system(&db, "prestags");
    let m = prestags
        .rules
        .movement
        .as_ref()
        .and_then(|m| m.minimum_move.as_ref())
        .unwrap();
    assert_eq!(
        (m.hexes, m.status.as_slice(), m.whole_move),
        (1, &["normal".to_string()][..], true)
    );
}

/// PRESTAGS 12.0-13.2: panic; Excl 3.22, 3.23, 3.28 and 3.5: fleets.
#[test]
fn prestags_panic_and_fleet_rules() {
    let db = bundled();
    let prestags = system(&db, "prestags");
    let p = prestags.rules.panic.as_ref().unwrap();
    assert!(p.optional && p.once);
    assert_eq!(p.trigger, PanicTrigger::LossesReachPanicLevel);
    assert_eq!(
        (p.both_reach, p.both_pass),
        (
            Some(PanicTieBreak::Defender),
            Some(PanicTieBreak::FurtherPast)
        )
    );
    let near = |list: &[muster_model::rules::NearLeader]| {
        list.iter()
            .map(|n| (n.leaders.join(","), n.reach))
            .collect::<Vec<_>>()
    };
    let leaders = [
        ("1L,2L".to_string(), Proximity::StackedOrAdjacent),
        ("3L,4L".to_string(), Proximity::Stacked),
    ];
    assert_eq!(near(&p.spared_near), leaders);
    // What panicked units do (13.0) is vocabulary rules that hold only under `Panicked`.
    let panicked = |id: &str| {
        let r = effect_rule(prestags, id);
        assert_eq!(r.section, "13.0", "{id}");
        let when = r.when.as_ref().unwrap();
        assert!(
            *when == Condition::Panicked
                || matches!(when, Condition::All(list) if list.contains(&Condition::Panicked)),
            "{id} holds beyond panicked units: {when:?}"
        );
        (r.when.clone().unwrap(), r.then.clone())
    };
    assert_eq!(panicked("panicked-flee").1, [Effect::Flees]);
    assert_eq!(
        panicked("panicked-never-attack").1,
        [Effect::MayNot(Act::Attack)]
    );
    assert_eq!(
        panicked("panicked-defend-at-half"),
        (
            Condition::All(vec![
                Condition::Panicked,
                Condition::Defending,
                Condition::Phase("melee".into())
            ]),
            vec![Effect::Strength(0.5)]
        )
    );
    assert_eq!(
        panicked("panicked-fall-to-disruption").1,
        [Effect::ResultBecomes {
            from: "D".into(),
            to: "E".into()
        }]
    );
    let rally = p.rally.as_ref().unwrap();
    assert_eq!(rally.after_phase, "movement");
    assert_eq!(near(&rally.by), leaders);
    assert!(
        !prestags.notes.iter().any(|n| n.starts_with("13.")),
        "panic rules left in notes"
    );

    let allowed =
        |kind: &str, action| permission_for(prestags, kind, action, None).map(|(_, p)| p.allowed);
    assert_eq!(allowed("VF", Action::Attack), Some(Allowance::Never));
    let sailing = prestags
        .rules
        .permissions
        .iter()
        .find(|p| p.action == Action::BeAttackedInMelee)
        .unwrap();
    assert_eq!(
        (sailing.troops.as_slice(), sailing.allowed),
        (&["VF".to_string()][..], Allowance::Never)
    );
    assert_eq!(
        sailing.when,
        Some(Condition::Not(Box::new(Condition::InState(
            "moored".into()
        )))),
        "Excl 3.28: only while sailing"
    );
    let half = effect_rule(prestags, "disrupted-fleet-at-half");
    assert_eq!(
        half.when,
        Some(Condition::All(vec![
            Condition::Troop("VF".into()),
            Condition::Status("disrupted".into())
        ]))
    );
    assert_eq!(half.then, [Effect::MoveAllowance(0.5)]);
    // Excl 3.22: fleets always count as within a leader's control radius.
    let control = effect_rule(prestags, "beyond-leader-control");
    let Some(Condition::All(when)) = &control.when else {
        panic!("{:?}", control.when)
    };
    assert_eq!(when[0], Condition::Not(Box::new(Condition::InCommand)));
    assert_eq!(
        when[1],
        Condition::Not(Box::new(Condition::Troop("VF".into())))
    );
    assert_eq!(control.then, [Effect::MoveAllowance(0.5)]);
}

/// The new structures are worded in the summary's "rules in play".
#[test]
fn the_summary_words_the_new_rules() {
    let db = bundled();
    let has = |lines: &[String], start: &str| lines.iter().any(|l| l.starts_with(start));
    let brissarthe = rule_lines(&db, "scenarios/lrf/brissarthe.scenario.ron");
    for start in [
        "morale tests: all on combat result `T`; all on displaced by a retreating friend; commander never test; +1 morale for all stacked with or next to commander",
        "rule: baggage-unshaken: unaffected by R, T: `baggage` units (9.4)",
        "rule: held-by-the-baggage: unaffected by R: stacked with a friendly `baggage` unit (9.4)",
        "exert a zone of control: never: baggage",
        "be fired on: never: baggage",
    ] {
        assert!(has(&brissarthe, start), "{start}\n{brissarthe:#?}");
    }
    let hamburg = rule_lines(&db, "scenarios/prestags/4-6-hamburg.scenario.ron");
    for start in [
        "line of sight: units block it; occupied hexes that block, by the firer's elevation: ground: ground, slope, hilltop; slope: slope, hilltop",
        "minimum move: a unit at Normal may always move 1 hex, its whole move for the turn",
        "rule: disrupted-fleet-at-half: moves at half its allowance: `VF` units and units at status `disrupted` (Excl 3.23)",
        "panic: (optional) the army panics at once when its losses reach the panic level, once a game; not units stacked with or next to 1L, 2L or stacked with 3L, 4L; rallied after movement by the same leaders",
        "rule: panicked-flee: flees the nearest enemy each movement phase: while panicked (13.0)",
        "attack: never: VF",
    ] {
        assert!(has(&hamburg, start), "{start}\n{hamburg:#?}");
    }
}

/// PRESTAGS Excl 3.25: a fleet, sailing or moored, has fire protection 4 wherever it is;
/// the value is a vocabulary rule, not a note, and the defence check reads it.
#[test]
fn prestags_fleets_have_their_own_fire_protection() {
    let db = bundled();
    let prestags = system(&db, "prestags");
    let rule = effect_rule(prestags, "fleet-protection");
    assert_eq!(rule.section, "Excl 3.25");
    assert_eq!(rule.when, Some(Condition::Troop("VF".into())));
    assert_eq!(rule.then, [Effect::FireProtection(4)]);
    assert!(
        !prestags.notes.iter().any(|n| n.starts_with("Excl 3.25")),
        "the fleets' fire protection left in notes"
    );
    // The fleets' own value replaces every hex's, even the sea's and the river's.
    for id in ["sea", "river"] {
        let hex = prestags.terrain.iter().find(|t| t.id == id).unwrap();
        assert_ne!(hex.fire_protection, Some(4), "{id}");
    }
    assert!(defence_conflicts(prestags).is_empty());
    // A fleet that could never be fired on would make the value dead: the check says so.
    let mut never_fired_on = prestags.clone();
    never_fired_on.rules.permissions.push(Permission {
        action: Action::BeFiredOn,
        troops: vec!["VF".into()],
        allowed: Allowance::Never,
        except: vec![],
        status: None,
        when: None,
        condition: None,
        note: None,
    });
    let found = defence_conflicts(&never_fired_on);
    assert_eq!(found.len(), 1, "{found:?}");
    let at = place_of(&found[0].at);
    assert!(
        at.starts_with("/rules/effects/") && at.ends_with("/then/0/FireProtection"),
        "{at}"
    );
    let hamburg = rule_lines(&db, "scenarios/prestags/4-6-hamburg.scenario.ron");
    assert!(
        hamburg
            .iter()
            .any(|l| l.contains("fleet-protection: protected at 4 against fire")),
        "{hamburg:#?}"
    );
    // A battle without fleets does not list it, but lists the leaders' 10.3 rules down
    // to a 4L, which its 3L may become.
    let hastings = rule_lines(&db, "scenarios/prestags/5-7-hastings.scenario.ron");
    assert!(
        !hastings.iter().any(|l| l.contains("fleet-protection")),
        "{hastings:#?}"
    );
    assert!(
        hastings.iter().any(|l| l.contains("leader-4-falls")),
        "{hastings:#?}"
    );
}

/// LRF 9.4: baggage always defends at 1, never modified by terrain, and is eliminated
/// with the combat unit it is stacked with when that unit is eliminated defending.
#[test]
fn lrf_baggage_defends_at_one_and_falls_with_its_unit() {
    let db = bundled();
    let lrf = system(&db, "lrf");
    let defends = effect_rule(lrf, "baggage-defends-at-1");
    assert_eq!(
        defends.when,
        Some(Condition::All(vec![
            Condition::Troop("baggage".into()),
            Condition::Defending
        ]))
    );
    assert_eq!(
        defends.then,
        [Effect::FixedStrength(1), Effect::TerrainProof]
    );
    let falls = effect_rule(lrf, "baggage-falls-with-its-unit");
    // "When that unit is eliminated defending": the baggage defends with it.
    assert_eq!(falls.when, defends.when);
    assert_eq!(
        falls.then,
        [Effect::FallsWith {
            with: ["infantry", "missile-infantry", "cavalry", "missile-cavalry"]
                .map(String::from)
                .to_vec(),
            reach: Proximity::Stacked
        }]
    );
    assert!(defence_conflicts(lrf).is_empty());
    assert!(elimination_conflicts(lrf).is_empty());
    // Without a baggage rider in the stacking rules, baggage could never fall with the
    // unit it rides: the check reads the stacking policy.
    let mut no_riders = lrf.clone();
    if let StackingPolicy::UnitsPerHex { riders, .. } = &mut no_riders.stacking {
        riders.retain(|r| r.role != UnitRole::Baggage);
    }
    let found = elimination_conflicts(&no_riders);
    assert_eq!(found.len(), 1, "{found:?}");
    let at = place_of(&found[0].at);
    assert!(at.ends_with("/then/0/FallsWith/with"), "{at}");
    let brissarthe = rule_lines(&db, "scenarios/lrf/brissarthe.scenario.ron");
    for line in [
        "rule: baggage-defends-at-1: strength is 1, its defence is never changed by terrain: `baggage` units and when defending (9.4)",
        "rule: baggage-falls-with-its-unit: eliminated with a unit stacked with it (`infantry`, `missile-infantry`, `cavalry`, `missile-cavalry`): `baggage` units and when defending (9.4)",
    ] {
        assert!(
            brissarthe.contains(&line.to_string()),
            "{line}\n{brissarthe:#?}"
        );
    }
}

/// Chanson de Geste (l. 131): Mounted Knights are never tempted to charge targets in or
/// across fortifications, a feature kind of its own whose other values are assumed.
#[test]
fn cdg_fortifications_are_a_feature_kind() {
    let db = bundled();
    let cdg = system(&db, "cdg");
    let GridKind::Table { features, .. } = &cdg.grid else {
        panic!("cdg plays on a table")
    };
    let fort = features
        .iter()
        .find(|f| f.id == "fortification")
        .expect("a fortification kind");
    assert_eq!(fort.class, FeatureClass::Fortification);
    for field in ["movement_factor", "crossing_cost", "cover"] {
        assert!(fort.assumed.contains_key(field), "{field} is not printed");
    }
    let temptation = cdg
        .rules
        .effects
        .iter()
        .find(|r| r.then == [Effect::NoTemptation])
        .unwrap();
    let Some(Condition::All(when)) = &temptation.when else {
        panic!("{:?}", temptation.when)
    };
    assert_eq!(when[0], Condition::Troop("mounted-knights".into()));
    let Condition::Any(ground) = &when[1] else {
        panic!("{when:?}")
    };
    assert!(ground.contains(&Condition::OpponentIn("fortification".into())));
    assert_eq!(
        ground.len(),
        5,
        "rough, very rough, woods, water-logged, fortification"
    );
    let courtrai = rule_lines(&db, "scenarios/cdg/courtrai.scenario.ron");
    assert!(
        courtrai.contains(
            &"rule: knights-untempted-by-rough-ground: never tempted to charge: `mounted-knights` units and (against a unit in `rough` or against a unit in `very-rough` or against a unit in `woods` or against a unit in `water-logged` or against a unit in `fortification`) (l. 131)".to_string()
        ),
        "{courtrai:#?}"
    );
}

/// LRF 9.5 and PRESTAGS 7.32: odds are rounded for the defender to the column at or
/// below them; the books' own examples land in the columns they name.
#[test]
fn combat_results_are_read_by_odds() {
    let db = bundled();
    let lrf = system(&db, "lrf");
    let crt = lrf.combat_results.as_ref().unwrap();
    let ratios: Vec<_> = crt.odds.iter().map(|h| odds_ratio(h).unwrap()).collect();
    assert_eq!(
        ratios,
        [(1, 2), (2, 3), (1, 1), (3, 2), (2, 1), (3, 1), (4, 1)]
    );
    let column = |a: f64, d: f64| crt.column_for(a, d).map(|i| crt.odds[i].as_str());
    // The example of combat: 5 to 2 is 2 to 1, 6 to 2 is 3 to 1, 11 to 2 is 4 to 1.
    assert_eq!(column(5.0, 2.0), Some("2/1"));
    assert_eq!(column(6.0, 2.0), Some("3/1"));
    assert_eq!(column(11.0, 2.0), Some("4/1"));
    // 9.5: worse than 1/2 is read at 1/2, better than 4/1 at 4/1.
    assert_eq!(column(1.0, 3.0), Some("1/2"), "below the first column");
    assert_eq!(column(9.0, 1.0), Some("4/1"), "above the last column");
    let prestags = system(&db, "prestags");
    let crt = prestags.combat_results.as_ref().unwrap();
    // 7.32: 26 to 9 is 2-1.
    assert_eq!(
        crt.column_for(26.0, 9.0).map(|i| crt.odds[i].as_str()),
        Some("2-1")
    );
    let dice: Vec<u8> = crt.rows.iter().map(|r| r.die).collect();
    assert_eq!(dice, [1, 2, 3, 4, 5, 6]);
    let fontenoy = rule_lines(&db, "scenarios/lrf/fontenoy.scenario.ron");
    assert!(
        fontenoy.contains(&"combat results: by odds, 7 columns from 1/2 to 4/1, an attack read in the column at or below its odds; die rolls 1 to 3".to_string()),
        "{fontenoy:#?}"
    );
}

/// PRESTAGS 7.11, 7.14, 7.2, 7.4, 8.4 and LRF 9.1, 9.11: attacks are voluntary; a
/// unit attacks and is attacked once a phase; PRESTAGS attacks may take several hexes,
/// LRF's one defending unit; PRESTAGS strength is never split (LRF prints nothing on
/// it); the advance after combat as each book prints it. Neither system contradicts
/// its permissions, and the summaries say the rules.
#[test]
fn combat_is_organised_as_the_books_print() {
    let db = bundled();
    let prestags = system(&db, "prestags");
    let lrf = system(&db, "lrf");
    let p = prestags.rules.combat.as_ref().unwrap();
    let l = lrf.rules.combat.as_ref().unwrap();
    for (c, section) in [(p, "7.11"), (l, "9.1")] {
        let compulsory = c.compulsory.as_ref().unwrap();
        assert_eq!(
            (compulsory.attacks, compulsory.section.as_str()),
            (Obligation::Voluntary, section)
        );
        let once = c.once_per_phase.as_ref().unwrap();
        assert!(once.each_attacker_once && once.each_defender_once);
        assert!(c.combined.as_ref().unwrap().attackers);
    }
    assert_eq!(
        p.combined.as_ref().unwrap().defenders,
        DefenderGroup::MultiHex
    );
    assert_eq!(
        l.combined.as_ref().unwrap().defenders,
        DefenderGroup::OneDefender
    );
    let split = p.split_strength.as_ref().unwrap();
    assert!(!split.allowed && split.section == "7.4");
    assert!(
        l.split_strength.is_none(),
        "LRF prints nothing on split strength"
    );
    let (pa, la) = (p.advance.as_ref().unwrap(), l.advance.as_ref().unwrap());
    assert_eq!(
        (pa.units, pa.ignores_zoc, pa.defender_too),
        (None, false, false)
    );
    assert_eq!(
        (la.units, la.ignores_zoc, la.defender_too),
        (Some(1), true, true)
    );
    for s in [prestags, lrf] {
        assert!(compulsory_conflicts(s).is_empty(), "{}", s.id);
        assert!(unmeetable(s).is_empty(), "{}", s.id);
        assert!(split_strength_conflicts(s).is_empty(), "{}", s.id);
        assert!(voluntary_binds(s).is_empty(), "{}", s.id);
    }
    let fontenoy = rule_lines(&db, "scenarios/lrf/fontenoy.scenario.ron");
    for line in [
        "combat: no attack is compulsory (9.1)",
        "combat: units in several hexes may attack together; an attack takes one defending unit (9.1)",
        "combat: one attacking unit may advance into a hex combat empties, whatever the zones of control; a defender likewise (9.11)",
    ] {
        assert!(fontenoy.contains(&line.to_string()), "{fontenoy:#?}");
    }
}

/// A designer's table read by differential: LRF's table with differential headings
/// validates, reads an attack in the column whose range holds its differential and is
/// said so in the summary; a gap between two columns is `system::crt-coverage`.
#[test]
fn a_table_read_by_differential_validates_reads_and_is_said() {
    const SYSTEM: &str = "scenarios/lrf/lrf.system.ron";
    const ODDS: &str = r#"odds: ["1/2", "2/3", "1/1", "3/2", "2/1", "3/1", "4/1"],"#;
    let by_differential = |headings: &str| {
        let dir = muster_testkit::copy_project();
        muster_testkit::replace(
            &dir.path().join(SYSTEM),
            ODDS,
            &format!("index: Differential, odds: [{headings}],"),
        );
        dir
    };
    let display = |p: &std::path::Path| p.display().to_string();
    let dir = by_differential(r#""-3..-2", "-1", "0", "+1", "+2..+3", "+4..+6", "+7""#);
    let found =
        muster_check::validate_project(dir.path(), &[], &muster_check::Config::default(), &display)
            .1;
    assert!(found.is_empty(), "{found:#?}");
    let db = muster_testkit::db::load(dir.path());
    let at = |rel: &str| db.index_of(&dir.path().join(rel)).unwrap();
    let Some(Document::System(lrf)) = db.doc(at(SYSTEM)) else {
        panic!("no system");
    };
    let crt = lrf.combat_results.as_ref().unwrap();
    let column = |a: f64, d: f64| crt.column_for(a, d).map(|i| crt.odds[i].as_str());
    assert_eq!(column(5.0, 2.0), Some("+2..+3"));
    assert_eq!(column(2.0, 5.0), Some("-3..-2"));
    // 9.5 reads beyond the edges in the edge columns, whatever the index.
    assert_eq!(column(1.0, 9.0), Some("-3..-2"));
    assert_eq!(column(19.0, 2.0), Some("+7"));
    let cx = ScenarioCx::new(FileCx::new(&db, at("scenarios/lrf/fontenoy.scenario.ron")).unwrap())
        .unwrap();
    let lines: Vec<String> = summarize(&cx)
        .rules
        .iter()
        .map(|r| format!("{}: {}", r.topic, r.text))
        .collect();
    assert!(
        lines.contains(&"combat results: by differential, 7 columns from -3..-2 to +7, an attack read in the column at or below its differential; die rolls 1 to 3".to_string()),
        "{lines:#?}"
    );
    let dir = by_differential(r#""-3..-2", "-1", "0", "+1", "+3", "+4..+6", "+7""#);
    let found =
        muster_check::validate_project(dir.path(), &[], &muster_check::Config::default(), &display)
            .1;
    let codes: Vec<(&str, &str)> = found.iter().map(|d| (d.code, d.message.as_str())).collect();
    assert_eq!(
        codes,
        [(
            "system::crt-coverage",
            "no column reads a differential of +2: `+3` starts after `+1` ends"
        )]
    );
}

/// The raid (l. 42-43, thought 4 at l. 66): a loser who is not killed is pushed back an
/// inch and stays locked in the melee, and the winner must follow it. The article has
/// no "no follow-up" rule.
#[test]
fn raid_winners_follow_the_loser_they_push_back() {
    let db = bundled();
    let raid = system(&db, "raid");
    let push = effect_rule(raid, "loser-pushed-back");
    assert_eq!(
        push.when,
        Some(Condition::Event(MoraleEvent::LostMeleeRound))
    );
    assert_eq!(
        push.then,
        [Effect::PushedBack {
            inches: 1.0,
            stays_locked: true
        }]
    );
    for kind in &raid.unit_kinds {
        assert_eq!(
            permission_for(raid, &kind.id, Action::FollowUp, None).map(|(_, p)| p.allowed),
            Some(Allowance::Must),
            "{}",
            kind.id
        );
    }
    assert!(
        !raid.notes.iter().any(|n| n.contains("pushed back")),
        "the push-back left in notes"
    );
    assert!(follow_up_conflicts(raid).is_empty());
    // Forbidding the follow-up while the loser stays locked is the contradiction the
    // check is for.
    let mut no_follow = raid.clone();
    for p in &mut no_follow.rules.permissions {
        if p.action == Action::FollowUp {
            p.allowed = Allowance::Never;
        }
    }
    assert_eq!(follow_up_conflicts(&no_follow).len(), 1);
    let lines = rule_lines(&db, "scenarios/raid/raid-example.scenario.ron");
    for line in [
        "rule: loser-pushed-back: pushed back 1 inch, both sides staying locked in the melee: on losing a round of melee (l. 42-43)",
        "follow up a pushed-back loser: must: cattle, foot, bowman, berserker, leader",
    ] {
        assert!(lines.contains(&line.to_string()), "{line}\n{lines:#?}");
    }
}

/// The rules vocabulary in the summary: a system's effects, zones of control (LRF 8,
/// as bundled), movement mode and supply, a scenario's turn record and supply sources, and special
/// rules stated as data (the system's, narrowed, and the scenario's own), in words.
#[test]
fn the_vocabulary_reads_as_words_in_the_summary() {
    use muster_testkit::{copy_project, replace};
    let dir = copy_project();
    replace(
        &dir.path().join("scenarios/lrf/lrf.system.ron"),
        "    rules: (\n",
        r#"    rules: (
        weather: [(id: "clear", name: "Clear"), (id: "rain", name: "Rain")],
        special_rules: [(id: "storm", section: "S1", when: Turns(from: 1, to: 2), then: [MoveCost(Points(2.0))])],
        movement_modes: [(id: "road-march", name: "Road march", section: "6", costs: [(on: "road", cost: Points(0.5))], end_on: ["road"], not_adjacent_to_enemy: true)],
        supply: (section: "S9", trace_length: 4, blocked_by_hexsides: ["river"]),
"#,
    );
    replace(
        &dir.path().join("scenarios/lrf/lrf.system.ron"),
        "        effects: [\n            (id: \"baggage-unshaken\"",
        r#"        effects: [
            (id: "rain", section: "S8", when: All([Weather("rain"), Troop("missile-infantry")]), then: [Strength(0.5), MayNot(Fire)]),
            (id: "baggage-unshaken""#,
    );
    replace(
        &dir.path().join("scenarios/lrf/jengland.scenario.ron"),
        "    special_rules: [\n",
        r#"    turn_record: [(turn: 1, weather: "rain"), (turn: 2, weather: "clear", minutes: 60, events: ["the bridge burns"])],
    withdrawals: [(side: "franks", turn: 3, units: [(counter: "saxe", count: 2)])],
    supply_sources: [(side: "franks", at: Edge(East)), (side: "bretons", at: Hex("0101"))],
    special_rules: [
        (hook: "storm", when: Side("bretons"), text: "the storm holds the Bretons"),
        (hook: "hold", section: "S2", when: Turns(from: 3, to: 4), then: [MayNot(Retreat)], text: "the Franks stand"),
"#,
    );
    let db = muster_testkit::db::load(dir.path());
    let rel = dir.path().join("scenarios/lrf/jengland.scenario.ron");
    let sys = dir.path().join("scenarios/lrf/lrf.system.ron");
    let targets = [db.index_of(&rel).unwrap(), db.index_of(&sys).unwrap()];
    let found = muster_check::validate(&db, &targets, &muster_check::Config::default());
    assert!(found.is_empty(), "{found:#?}");
    let cx = ScenarioCx::new(FileCx::new(&db, targets[0]).unwrap()).unwrap();
    let summary = summarize(&cx);
    let lines: Vec<String> = summary
        .rules
        .iter()
        .map(|r| format!("{}: {}", r.topic, r.text))
        .collect();
    for expected in [
        "rule: rain: strength halved, may not fire: in `rain` weather and `missile-infantry` units (S8)",
        "zones of control: exerted by not `baggage` units; a unit entering stops; leaving is free; no move from one enemy zone straight to another; no retreat into one; not across river (8)",
        "movement mode: Road march: 0.5 MP on road; ends on road; never next to an enemy unit (6)",
        "supply: traced up to 4 hexes, not across river (S9)",
        "turn record: turn 1 rain, turn 2 clear (60 minutes; the bridge burns)",
        "withdrawal: franks takes off 2 x saxe at the end of turn 3",
        "supply sources: franks: the east edge; bretons: hex 0101",
    ] {
        assert!(
            lines.iter().any(|l| l == expected),
            "no `{expected}` in {lines:#?}"
        );
    }
    let rules: Vec<String> = summary
        .special_rules
        .iter()
        .map(|r| format!("{} ({})", r.hook, r.params_text))
        .collect();
    assert_eq!(
        rules[..2],
        [
            "storm (movement 2 MP: on turns 1 to 2 and units of `bretons` (S1))",
            "hold (may not retreat: on turns 3 to 4 (S2))",
        ],
        "{rules:#?}"
    );
}

#[test]
fn lrf_optional_rules_are_the_two_the_book_prints() {
    use muster_model::vocab::{Act, Condition, Effect};
    let db = bundled();
    let s = system(&db, "lrf");
    let options: Vec<(&str, &str)> = s
        .rules
        .optional_rules
        .iter()
        .map(|o| (o.id.as_str(), o.section.as_str()))
        .collect();
    assert_eq!(
        options,
        [("zoc-to-zoc", "10.1"), ("counter-charge", "10.2")]
    );
    let rule = |option: &str| {
        let o = s
            .rules
            .optional_rules
            .iter()
            .find(|o| o.id == option)
            .unwrap();
        assert_eq!(o.effects.len(), 1, "{o:#?}");
        &o.effects[0]
    };
    // 10.1: out of one enemy zone straight into another.
    let zoc = rule("zoc-to-zoc");
    assert_eq!(zoc.when, Some(Condition::InEnemyZoc));
    assert_eq!(zoc.then, [Effect::May(Act::Move)]);
    // 10.2: no charge bonus against the one type that may charge itself (9.2).
    let counter = rule("counter-charge");
    assert_eq!(
        counter.when,
        Some(Condition::All(vec![
            Condition::Defending,
            Condition::Troop("cavalry".into())
        ]))
    );
    assert_eq!(counter.then, [Effect::NoChargeBonus]);
    for (kind, allowed) in [("cavalry", Allowance::May), ("infantry", Allowance::Never)] {
        let found = permission_for(s, kind, Action::Charge, None).map(|(_, p)| p.allowed);
        assert_eq!(found, Some(allowed), "{kind}");
    }
}

/// Jengland's `evasion` hook desugars into a rule: the Breton cavalry it names, when
/// attacked, may evade; the roll and the hexes fallen back are the rule's note.
#[test]
fn jengland_evasion_is_a_rule() {
    let db = bundled();
    let rel = "scenarios/lrf/jengland.scenario.ron";
    let cx = ScenarioCx::new(FileCx::new(&db, index(&db, rel)).unwrap()).unwrap();
    let rules = muster_semantic::rules::scenario::scenario_rules(&cx);
    let evasion = rules
        .iter()
        .find(|r| r.id == "evasion")
        .expect("the hook gives a rule");
    assert_eq!(evasion.then, [Effect::May(muster_model::vocab::Act::Evade)]);
    let Some(Condition::All(parts)) = &evasion.when else {
        panic!("{:?}", evasion.when)
    };
    assert_eq!(parts[1], Condition::Defending);
    assert!(
        matches!(&parts[0], Condition::Any(c) if c.len() == 3
            && c.iter().all(|x| matches!(x, Condition::Counter(id) if id.starts_with("jengland-breton-cavalry")))),
        "{parts:?}"
    );
    assert_eq!(
        evasion.note.as_deref(),
        Some("on a roll of 5 or more, falling back 1 or 2 hexes")
    );
}
