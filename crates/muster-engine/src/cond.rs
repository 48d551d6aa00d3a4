//! The vocabulary's conditions read against a position: the facts of one unit at one
//! hex at one moment of play.

use muster_hex::HexId;
use muster_model::rules::MoraleEvent;
use muster_model::system::Melee;
use muster_model::vocab::{Condition, Past, SideFact};
use muster_semantic::rules::vocab::printed_melee;

use crate::{Engine, PositionSide};

/// What a condition is asked about.
#[derive(Debug, Clone, Default)]
pub(crate) struct Facts<'f> {
    /// The unit, by index in the engine.
    pub unit: usize,
    /// The hex it stands on, or enters.
    pub hex: Option<HexId>,
    pub attacking: bool,
    pub defending: bool,
    /// Hexside features it moves or attacks across.
    pub crossing: Vec<&'f str>,
    /// Hexside features every attacker attacks across.
    pub all_attackers_across: Vec<&'f str>,
    /// The opponent's hex, in combat.
    pub opponent: Option<HexId>,
    /// The movement mode it moves in.
    pub mode: Option<&'f str>,
    /// In combat: the attackers occupy, or are next to, every hex around the defender.
    pub flank_attack: bool,
    /// The moment asked about, where one is (a combat result befalling the unit).
    pub event: Option<&'f MoraleEvent>,
    /// The class of its own hexside (by its facing) it attacks through.
    pub through: Option<&'f str>,
    /// The classes of its hexsides (by its facing) the units attacking it in melee come
    /// through.
    pub attacked_through: Vec<&'f str>,
    /// In melee: the highest printed movement allowance among the units attacking it.
    pub fastest_attacker: Option<f64>,
}

impl Facts<'_> {
    pub(crate) fn at(_engine: &Engine, unit: usize, hex: HexId) -> Self {
        Facts {
            unit,
            hex: Some(hex),
            ..Facts::default()
        }
    }
}

/// Whether `c` holds. A unit's supply is traced ([`Engine::in_supply`]); a flank attack
/// is a fact the combat gives, an event the question asked. A side's losses, threshold,
/// labels held and past acts, and a unit's past acts, kept states and plotted task are
/// the position's. `Opponent` asks its condition of each enemy unit in the opponent's
/// hex; `Outnumbers` counts the units of the unit's side in its hex against the enemy
/// units in the opponent's, and `NearestOpponent` compares hex distances to every enemy
/// on the map. `Through` and `AttackedThrough` read the unit's facing in combat; in
/// `reach` a unit that faces is searched by hex and facing (`crate::facing`).
pub(crate) fn holds(engine: &Engine, c: &Condition, f: &Facts) -> bool {
    let unit = &engine.units[f.unit];
    let pos = engine.position;
    match c {
        Condition::All(list) => list.iter().all(|c| holds(engine, c, f)),
        Condition::Any(list) => list.iter().any(|c| holds(engine, c, f)),
        Condition::Not(c) => !holds(engine, c, f),
        Condition::Side(s) => unit.unit.side.as_deref().is_some_and(|own| {
            own == s
                || pos
                    .sides
                    .iter()
                    .any(|side| side.id == own && side.faction.as_deref() == Some(s))
        }),
        Condition::Troop(t) => engine.is_troop(f.unit, t),
        Condition::Status(s) => status_of(engine, f.unit) == Some(s.as_str()),
        Condition::Turns { from, to } => (*from..=*to).contains(&pos.turn),
        Condition::Weather(w) => pos.weather.as_deref() == Some(w),
        Condition::Phase(p) => pos.phase.as_deref() == Some(p),
        Condition::Attacking => f.attacking,
        Condition::Defending => f.defending,
        Condition::InTerrain(t) => f.hex.is_some_and(|h| engine.hex_has(h, t)),
        Condition::Crossing(x) => f.crossing.contains(&x.as_str()),
        Condition::AllAttackersAcross(x) => f.all_attackers_across.contains(&x.as_str()),
        Condition::AdjacentToEnemy => f.hex.is_some_and(|h| {
            engine.map.neighbours(h).into_iter().any(|n| {
                engine
                    .units_at(n)
                    .iter()
                    .any(|&o| engine.enemies(f.unit, o))
            })
        }),
        Condition::StackedWith(t) => f.hex.is_some_and(|h| {
            engine.units_at(h).iter().any(|&o| {
                o != f.unit && engine.units[o].unit.side == unit.unit.side && engine.is_troop(o, t)
            })
        }),
        Condition::InEnemyZoc => f
            .hex
            .is_some_and(|h| engine.enemy_zoc(unit.unit.side.as_deref()).contains(&h)),
        Condition::OpponentIn(t) => f.opponent.is_some_and(|h| engine.hex_has(h, t)),
        Condition::Opponent(inner) => f.opponent.is_some_and(|h| {
            engine.units_at(h).iter().any(|&o| {
                engine.enemies(f.unit, o) && holds(engine, inner, &Facts::at(engine, o, h))
            })
        }),
        // The engine's units stand on hexes, where there are no formations, sides to
        // touch, ranks or bands.
        Condition::InFormation(_)
        | Condition::ContactedOn(_)
        | Condition::PassedThrough(_)
        | Condition::Behind(_)
        | Condition::FollowsLeader(_) => false,
        Condition::Outnumbers(ratio) => outnumbers(engine, f, *ratio),
        Condition::Near {
            within,
            unit: inner,
        } => near(engine, f, *within, inner),
        Condition::NearestOpponent => nearest_opponent(engine, f),
        Condition::Higher => match (f.hex, f.opponent) {
            (Some(a), Some(b)) => elevation(engine, a) > elevation(engine, b),
            _ => false,
        },
        Condition::Lower => match (f.hex, f.opponent) {
            (Some(a), Some(b)) => elevation(engine, a) < elevation(engine, b),
            _ => false,
        },
        Condition::Moving(m) => f.mode == Some(m.as_str()),
        Condition::Counter(c) => {
            let id = &unit.unit.id;
            let own = unit.unit.counter.as_deref();
            own.unwrap_or_else(|| id.split_once('#').map_or(id.as_str(), |(c, _)| c)) == c
        }
        Condition::InCommand => engine.in_command(f.unit, f.hex),
        Condition::InSupply => match (f.hex, unit.unit.side.as_deref()) {
            (Some(h), Some(side)) => engine.in_supply(h, side),
            _ => false,
        },
        Condition::Panicked => unit.unit.panicked,
        Condition::Bracketed => {
            matches!(unit.kind.and_then(printed_melee), Some(Melee::Bracketed(_)))
        }
        Condition::DotMelee => matches!(unit.kind.and_then(printed_melee), Some(Melee::Dot)),
        Condition::StackedWithUnit(inner) => f.hex.is_some_and(|h| {
            engine.units_at(h).iter().any(|&o| {
                o != f.unit
                    && engine.units[o].unit.side == unit.unit.side
                    && holds(engine, inner, &Facts::at(engine, o, h))
            })
        }),
        Condition::Outpaces(by) => {
            f.defending
                && f.fastest_attacker
                    .is_some_and(|m| unit.unit.movement - m >= *by)
        }
        Condition::Surrounded => f.flank_attack,
        Condition::OwnSide(fact) => pos
            .sides
            .iter()
            .filter(|s| unit.unit.side.as_deref() == Some(s.id.as_str()))
            .any(|s| side_fact(engine, s, fact)),
        Condition::EnemySide(fact) => unit.unit.side.as_deref().is_some_and(|own| {
            pos.sides
                .iter()
                .filter(|s| s.id != own)
                .any(|s| side_fact(engine, s, fact))
        }),
        Condition::Did { act, when } => unit.unit.did.iter().any(|d| {
            d.act == *act
                && (d.when == *when || (*when == Past::ThisTurn && d.when == Past::ThisPlayerTurn))
        }),
        Condition::InState(s) => unit.unit.states.iter().any(|x| x == s),
        Condition::Carrying => engine.carrying(f.unit),
        Condition::Plotted(p) => unit.unit.plotted.as_deref() == Some(p.as_str()),
        Condition::Event(e) => f.event == Some(e),
        Condition::Through(x) => f.through == Some(x.as_str()),
        Condition::AttackedThrough(x) => f.attacked_through.contains(&x.as_str()),
    }
}

/// `Outnumbers`: the units of the unit's side in its hex against the enemy units in the
/// opponent's hex.
fn outnumbers(engine: &Engine, f: &Facts, ratio: f64) -> bool {
    let (Some(own), Some(theirs)) = (f.hex, f.opponent) else {
        return false;
    };
    let side = &engine.units[f.unit].unit.side;
    let friends = engine
        .units_at(own)
        .iter()
        .filter(|&&o| engine.units[o].unit.side == *side)
        .count() as f64;
    let enemies = engine
        .units_at(theirs)
        .iter()
        .filter(|&&o| engine.enemies(f.unit, o))
        .count() as f64;
    enemies > 0.0 && friends >= ratio * enemies
}

/// `Near`: another unit of the unit's side within `within` hexes meets `inner`.
fn near(engine: &Engine, f: &Facts, within: f64, inner: &Condition) -> bool {
    let Some(here) = f.hex else {
        return false;
    };
    let side = &engine.units[f.unit].unit.side;
    engine.units.iter().enumerate().any(|(o, other)| {
        o != f.unit
            && side.is_some()
            && other.unit.side == *side
            && other.hex.is_some_and(|h| {
                f64::from(engine.map.distance(here, h)) <= within
                    && holds(engine, inner, &Facts::at(engine, o, h))
            })
    })
}

/// `NearestOpponent`: no enemy on the map is nearer to the unit than its opponent.
fn nearest_opponent(engine: &Engine, f: &Facts) -> bool {
    let (Some(own), Some(theirs)) = (f.hex, f.opponent) else {
        return false;
    };
    let to = engine.map.distance(own, theirs);
    engine.units.iter().enumerate().all(|(o, other)| {
        !engine.enemies(f.unit, o) || other.hex.is_none_or(|h| engine.map.distance(own, h) >= to)
    })
}

/// Whether a fact holds of a side of the position; the labels it holds are
/// [`Engine::control`]'s.
fn side_fact(engine: &Engine, side: &PositionSide, fact: &SideFact) -> bool {
    match fact {
        SideFact::Demoralised => side.morale_threshold.is_some_and(|t| side.losses >= t),
        SideFact::LossesAtLeast(n) => side.losses >= *n,
        SideFact::Controls(label) => held(engine, side).contains(&label.as_str()),
        SideFact::ControlsAtLeast(n) => held(engine, side).len() >= usize::from(*n),
        SideFact::ActedBefore(act) => {
            side.acted.contains(act) || side.acted_earlier_turns.contains(act)
        }
        SideFact::ActedInEarlierTurn(act) => side.acted_earlier_turns.contains(act),
        SideFact::Leadership(note) => side.leadership.as_deref() == Some(note.as_str()),
    }
}

/// The distinct labels a side holds: by the system's `control` rule where it has one,
/// else as the position records them.
fn held<'e>(engine: &'e Engine, side: &'e PositionSide) -> Vec<&'e str> {
    if engine.system.rules.control.is_some() {
        return engine.labels_held(&side.id);
    }
    let mut held: Vec<&str> = side.controls.iter().map(String::as_str).collect();
    held.sort_unstable();
    held.dedup();
    held
}

/// A unit's status: as the position gives it, else the ladder's first level.
pub(crate) fn status_of<'e>(engine: &'e Engine, i: usize) -> Option<&'e str> {
    engine.units[i].unit.status.as_deref().or_else(|| {
        engine
            .system
            .rules
            .status
            .as_ref()
            .and_then(|l| l.levels.first())
            .map(|l| l.id.as_str())
    })
}

/// The elevation of a hex by the line-of-sight rule's levels (their order, lowest
/// first); 0 where the system has none or the hex's terrain is not listed.
pub(crate) fn elevation(engine: &Engine, hex: HexId) -> usize {
    let Some(los) = &engine.system.rules.line_of_sight else {
        return 0;
    };
    los.elevations
        .iter()
        .rposition(|e| e.terrain.iter().any(|t| engine.hex_has_own(hex, t)))
        .unwrap_or(0)
}

impl Engine<'_> {
    /// The hex's own terrain or an added feature (not its hexsides).
    pub(crate) fn hex_has_own(&self, hex: HexId, id: &str) -> bool {
        self.map.terrain_id_at(hex) == Some(id)
            || self.map.feature_ids_at(hex).iter().any(|f| f == id)
    }
}

impl Engine<'_> {
    /// The class of unit `i`'s hexsides (the system's `facing`) that the neighbouring
    /// hex `toward` lies across, by the unit's facing; `None` without facing rules, a
    /// facing, or a neighbour.
    pub(crate) fn side_class(&self, i: usize, toward: HexId) -> Option<&str> {
        let facing = self.units[i].unit.facing.filter(|f| *f < 6)?;
        let classes = &self.system.rules.facing.as_ref()?.classes;
        let dir = self.map.grid().direction(self.hex_of(i), toward)?;
        let relative = (dir + 6 - facing) % 6;
        classes
            .iter()
            .find(|c| c.hexsides.contains(&relative))
            .map(|c| c.id.as_str())
    }
}
