use std::collections::HashSet;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_engine::{Engine, from_scenario};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks, where the system gives a minimum move (`movement.minimum_move`, PRESTAGS
    /// 5.15: one hex into passable terrain whatever it costs), that every unit of the
    /// set-up could take that one hex: alone on the map, it can step into some hex
    /// beside it, in its ordinary movement or a movement mode open to it.
    ///
    /// It assumes the unit at its first status level and every other unit gone (friends
    /// move away; enemies do not make a unit isolated for good), so what it finds is the
    /// ground itself: impassable or prohibited terrain and hexsides all round. A unit
    /// standing where the terrain chart gives no cost (a fleet on a river, in a system
    /// with no sailing mode) is not judged.
    ///
    /// ## Why is this bad?
    /// The minimum move exists so that no unit is ever trapped; a unit that cannot take
    /// even that hex stays put all game, which the map or the set-up did not mean.
    ///
    /// ## Example
    /// ```ron
    ///                     (hex: "2020", units: [(kind: "MI", count: 1)]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///                     (hex: "2018", units: [(kind: "MI", count: 1)]),
    /// ```
    pub META = ("setup::isolated", Warning, "a unit set up where it can never move, not even the minimum move");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let (Some(system), Some(map)) = (cx.system, cx.map) else {
        return;
    };
    let Some(min) = system
        .rules
        .movement
        .as_ref()
        .and_then(|m| m.minimum_move.as_ref())
    else {
        return;
    };
    // The rest of the position, with one unit at a time in it: once per kind and hex,
    // never its whole list of units again.
    let mut alone = from_scenario(cx, 1);
    let units = std::mem::take(&mut alone.units);
    let mut seen = HashSet::new();
    for unit in &units {
        if !seen.insert((unit.hex.as_str(), unit.kind.as_str())) {
            continue;
        }
        alone.units = vec![unit.clone()];
        let engine = Engine::new(system, map, &alone);
        let Ok(start) = engine.hex(&unit.hex) else {
            continue;
        };
        // A unit on ground the table gives no cost for (a fleet on a river the system
        // types no sailing for) has no movement muster can judge.
        let modes = engine.modes_of(0);
        if modes.len() == 1 && map.effects_at(start).is_none_or(|e| e.move_cost.is_none()) {
            continue;
        }
        let moves = modes.into_iter().any(|mode| {
            map.neighbours(start)
                .into_iter()
                .any(|n| engine.step_cost(0, start, n, mode).is_some() && engine.may_end(0, n))
        });
        if moves {
            continue;
        }
        let section = min
            .section
            .as_deref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        sink.push(
            Report::new(
                &META,
                place_of(cx, &unit.hex, &unit.kind),
                format!(
                    "`{}` in {} can never move: every hex beside it is impassable or closed to it, so not even the minimum move{section} takes it out",
                    unit.kind, unit.hex
                ),
            )
            .help("set the unit up on ground it can leave, or check the map's terrain round this hex"),
        );
    }
}

/// Where the scenario puts a unit of `kind` on `hex`: its sample line, or the hex of its
/// set-up group.
fn place_of(cx: &ScenarioCx, hex: &str, kind: &str) -> Place {
    if let Some(s) = cx
        .sample_units()
        .iter()
        .find(|s| s.hex.to_string() == hex && s.kind == kind)
    {
        return s.place();
    }
    cx.groups()
        .iter()
        .flat_map(|g| g.hexes.iter())
        .find(|(h, _)| h.to_string() == hex)
        .map_or_else(|| Place::root().field("sides"), |(_, p)| p.clone())
}
