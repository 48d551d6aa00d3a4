//! Kept states played out: the units that enter or leave a state when they do an act
//! together (PRESTAGS 18.0 contact, Excl 3.32-3.33 mooring).

mod common;

use common::{hamburg_melee, with_scenario};
use muster_engine::{Engine, Position, StateChange};
use muster_model::vocab::Act;

/// `(unit, state, enters)` of each change, in order.
fn changes(list: &[StateChange]) -> Vec<(&str, &str, bool)> {
    list.iter()
        .map(|c| (c.unit.as_str(), c.state.as_str(), c.enters))
        .collect()
}

#[test]
fn prestags_a_melee_puts_both_sides_in_contact_until_one_is_disrupted() {
    with_scenario(
        "scenarios/prestags/4-6-hamburg.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let mut p = hamburg_melee(cx, &set_up);
            let melee = |p: &Position, result: &str| {
                let e = Engine::new(system, map, p);
                e.states_after(Act::Melee, &["viking", "german"], result)
                    .unwrap()
            };
            // Contact is optional (18.0): with the option off, a melee sets nothing.
            assert_eq!(melee(&p, "-"), []);

            p.rules_on = vec!["contact".into()];
            // 18.1: a melee that disrupts nobody leaves both sides in contact.
            let drawn = melee(&p, "-");
            assert_eq!(
                changes(&drawn),
                [("viking", "contact", true), ("german", "contact", true)]
            );
            assert_eq!(drawn[0].rule.section.as_deref(), Some("18.0"));
            let e = Engine::new(system, map, &p);
            let twice = e.states_after(Act::Melee, &["viking", "german", "viking"], "-");
            assert_eq!(twice.unwrap(), drawn, "a unit named twice takes part once");
            // 18.1: a disruption, a half or a whole elimination leaves no contact.
            for decided in ["D", "1/2E", "E"] {
                assert_eq!(melee(&p, decided), [], "{decided}");
            }
            // `unless` alone keeps the state from being set: with nothing clearing it, a
            // disruption still sets no contact.
            let mut uncleared = system.clone();
            uncleared.rules.states[0].cleared_by.clear();
            let e = Engine::new(&uncleared, map, &p);
            let disrupted = e.states_after(Act::Melee, &["viking", "german"], "D");
            assert_eq!(disrupted.unwrap(), []);
            // Already in contact, a drawn melee changes nothing; 18.5: a disruption in a
            // later melee ends it for both.
            for u in &mut p.units {
                u.states = vec!["contact".into()];
            }
            assert_eq!(melee(&p, "-"), []);
            assert_eq!(
                changes(&melee(&p, "D")),
                [("viking", "contact", false), ("german", "contact", false)]
            );
            // A cell that is not made of the table's codes is refused.
            let e = Engine::new(system, map, &p);
            assert!(e.states_after(Act::Melee, &["viking"], "Q").is_err());
        },
    );
}

#[test]
fn prestags_a_fleet_is_moored_from_mooring_to_unmooring() {
    with_scenario(
        "scenarios/prestags/4-6-hamburg.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let mut p = set_up.clone();
            let act = |p: &Position, act: Act| {
                let e = Engine::new(system, map, p);
                e.states_after(act, &["VF"], "").unwrap()
            };
            assert_eq!(changes(&act(&p, Act::Moor)), [("VF", "moored", true)]);
            assert_eq!(
                act(&p, Act::Unmoor),
                [],
                "a sailing fleet has nothing to end"
            );
            let fleet = p.units.iter().position(|u| u.id == "VF").unwrap();
            p.units[fleet].states = vec!["moored".into()];
            assert_eq!(changes(&act(&p, Act::Unmoor)), [("VF", "moored", false)]);
            assert_eq!(act(&p, Act::Moor), [], "moored already");
        },
    );
}
