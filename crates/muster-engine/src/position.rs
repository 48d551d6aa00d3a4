//! A position: the units on their hexes with their status, and the moment of play (turn,
//! phase, phasing side, weather). Read from JSON (its schema is `schema/position.schema.json`)
//! or built from a scenario's set-up ([`from_scenario`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use muster_model::scenario::MoraleThreshold;
use muster_model::vocab::{Act, Past};
use muster_semantic::ScenarioCx;
use muster_semantic::board::SupplyAt;

/// The state of play an engine answers questions about.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// The scenario the position comes from, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// The rules system's id.
    pub system: String,
    /// The map's id.
    pub map: String,
    /// The game turn (`1`: the first).
    pub turn: u8,
    /// The phase of the sequence of play, by id (`"movement"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// The phasing side, by id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// The turn's weather, by the system's weather id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weather: Option<String>,
    /// The system's optional and special rules in force, by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules_on: Vec<String>,
    /// Further rules in force, stated in the vocabulary: from a scenario, its special
    /// rules and the rules its hooks desugar into
    /// (`muster_semantic::rules::scenario::scenario_rules`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<muster_model::vocab::EffectRule>,
    pub sides: Vec<PositionSide>,
    pub units: Vec<Unit>,
}

/// A side of the position.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionSide {
    pub id: String,
    /// The system faction the side belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faction: Option<String>,
    /// Units of the side that may share a hex (PRESTAGS: set by the scenario).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stacking_limit: Option<u8>,
    /// The scenario's leadership note (PRESTAGS 10.22: `Mt. Ex.`), which the system's
    /// leader control reads to exempt some troop types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leadership: Option<String>,
    /// Hexes the side traces supply to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supply_sources: Vec<String>,
    /// Its losses so far, counted as its morale threshold counts them (LRF: points).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub losses: u16,
    /// The loss total at which the side is demoralised (`SideFact::Demoralised`), if it
    /// has one: from the scenario, at no losses yet where it moves with them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale_threshold: Option<u16>,
    /// The map labels of the hexes the side holds (`SideFact::Controls`). Where the
    /// system has a `control` rule, this is the record of who held a hex last, read for
    /// hexes no unit stands in ([`Engine::control`](crate::Engine::control)); without
    /// one, the position alone says who holds what.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controls: Vec<String>,
    /// Acts the side's units did in earlier player-turns of the game
    /// (`SideFact::ActedBefore`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acted: Vec<Act>,
    /// Acts the side's units did in earlier game turns (`SideFact::ActedInEarlierTurn`);
    /// an act listed here counts as done in an earlier player-turn too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acted_earlier_turns: Vec<Act>,
}

fn is_zero(n: &u16) -> bool {
    *n == 0
}

/// An act a unit did earlier, and when (`Condition::Did`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Done {
    pub act: Act,
    pub when: Past,
}

/// A unit on the map.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Unique in the position: the counter id, with `#2`, `#3`... for further copies.
    pub id: String,
    /// The unit kind (a system `unit_kinds` id).
    pub kind: String,
    /// The counter of the counter sheet it is a copy of (`Condition::Counter`); when left
    /// out, its id up to any `#`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<String>,
    /// The side's id; neutral when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// The hex it stands on (`"0708"`).
    pub hex: String,
    /// Its level on the system's status ladder; the first level when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Combat (melee) strength at its present status.
    pub strength: f64,
    /// Movement allowance.
    pub movement: f64,
    /// Fire range in hexes, for missile units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<u8>,
    /// Fire strength, where the system has fire apart from melee.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fire: Option<f64>,
    /// What it did before now (`Condition::Did`): an act done this player-turn was also
    /// done this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub did: Vec<Done>,
    /// The kept states it is in, by the system's `states` ids (`Condition::InState`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<String>,
    /// Its army panicked and struck it, and it has not rallied (`Condition::Panicked`,
    /// the system's `panic`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub panicked: bool,
    /// Its plotted task this turn (`Condition::Plotted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plotted: Option<String>,
    /// The hexside it faces, where the system has facing: 0 north, then clockwise to 5
    /// north-west (`Condition::Through`, `Condition::AttackedThrough`). A unit without
    /// one, or with a number above 5, has no facing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = 5))]
    pub facing: Option<u8>,
}

/// A unit's melee strength, movement allowance, fire range and fire strength: its
/// counter's where the sheet has one, else its kind's printed stats (zeros for a kind
/// without them).
fn figures(
    counter: Option<&muster_model::counters::Counter>,
    stats: Option<&muster_model::system::KindStats>,
) -> (f64, f64, Option<u8>, Option<f64>) {
    use muster_model::system::KindStats;
    match (counter, stats) {
        (Some(c), _) => (
            f64::from(c.strength),
            c.movement.unwrap_or(0.0),
            c.range,
            None,
        ),
        (
            None,
            Some(KindStats::Counter {
                melee,
                fire,
                range,
                movement,
                ..
            }),
        ) => (
            f64::from(melee.points()),
            *movement,
            *range,
            fire.map(f64::from),
        ),
        (None, Some(KindStats::Leader { movement, .. })) => (0.0, *movement, None, None),
        (None, _) => (0.0, 0.0, None, None),
    }
}

/// A unit of kind `kind` (a system `unit_kinds` id) of side `side` (an index of the
/// scenario's sides) on `hex`, at the first status, with its kind's printed figures:
/// a unit a zoned force brings, which has no counter of its own.
pub fn unit_of_kind(cx: &ScenarioCx, side: usize, kind: &str, hex: muster_hex::HexId) -> Unit {
    let stats = cx.unit_kind(kind).and_then(|k| k.stats.as_ref());
    let (strength, movement, range, fire) = figures(None, stats);
    Unit {
        id: kind.to_string(),
        kind: kind.to_string(),
        side: cx.scenario.sides.get(side).map(|s| s.id.clone()),
        hex: hex.to_string(),
        status: cx
            .status_ladder()
            .and_then(|l| l.levels.first())
            .map(|l| l.id.clone()),
        strength,
        movement,
        range,
        fire,
        ..Unit::default()
    }
}

/// The units a set-up puts aboard carriers (a sample stack's `aboard`), each a unit of
/// its kind on its carrier's hex, where the engine reads a friendly unit that is no
/// carrier as aboard (`Condition::Carrying`, [`Engine::reach_unloading`]). Their ids
/// go on from the board's: the kind id, then `#2`, `#3`... past any id taken.
///
/// [`Engine::reach_unloading`]: crate::Engine::reach_unloading
fn add_carried(cx: &ScenarioCx, board: &muster_semantic::board::Board, units: &mut Vec<Unit>) {
    for piece in board.pieces.iter().filter(|p| !p.carried.is_empty()) {
        let Some(side) = piece.side else { continue };
        for t in &piece.carried {
            for _ in 0..t.count {
                let mut unit = unit_of_kind(cx, side, &t.kind, piece.hex);
                let taken = |id: &str| units.iter().any(|u| u.id == id);
                let mut n = 1;
                while taken(&unit.id) {
                    n += 1;
                    unit.id = format!("{}#{n}", t.kind);
                }
                units.push(unit);
            }
        }
    }
}

/// The labels of the map's hexes that side `side` holds on `board`: those its pieces
/// stand on, with no enemy piece beside them in the hex. Each label once, in the map's
/// order.
fn held_at_start(
    cx: &ScenarioCx,
    board: &muster_semantic::board::Board,
    side: usize,
) -> Vec<String> {
    let Some(map) = cx.map else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for label in &map.table().labels {
        let Ok(hex) = muster_hex::HexId::parse(&label.hex) else {
            continue;
        };
        let mut there = board.pieces.iter().filter(|p| p.hex == hex).map(|p| p.side);
        let first = there.next();
        if first == Some(Some(side)) && there.all(|s| s == Some(side)) && !out.contains(&label.text)
        {
            out.push(label.text.clone());
        }
    }
    out
}

/// Builds the position of a scenario at the start of `turn` (`1`: its set-up), with the
/// reinforcements arrived by then. Units the board cannot place are left out.
pub fn from_scenario(cx: &ScenarioCx, turn: u8) -> Position {
    from_board(cx, &cx.board(turn))
}

/// [`from_scenario`] from a board already drawn: its units are the board's pieces, in
/// the same order.
pub fn from_board(cx: &ScenarioCx, board: &muster_semantic::board::Board) -> Position {
    let turn = board.turn;
    let scenario = cx.scenario;
    let sides: Vec<PositionSide> = scenario
        .sides
        .iter()
        .enumerate()
        .map(|(i, s)| PositionSide {
            id: s.id.clone(),
            faction: s.faction.clone(),
            stacking_limit: match &s.forces {
                muster_model::scenario::Forces::Zoned(z) => Some(z.stacking_limit),
                _ => None,
            },
            leadership: match &s.forces {
                muster_model::scenario::Forces::Zoned(z) => z.leadership.clone(),
                muster_model::scenario::Forces::Placed { .. }
                | muster_model::scenario::Forces::Table(_) => None,
            },
            supply_sources: board
                .supply
                .iter()
                .filter(|m| m.side == Some(i))
                .flat_map(|m| match &m.at {
                    SupplyAt::Hex(h) | SupplyAt::Label(_, h) => vec![h.to_string()],
                    SupplyAt::Edge(_, hexes) => hexes.iter().map(|h| h.to_string()).collect(),
                })
                .collect(),
            losses: 0,
            morale_threshold: s.morale_threshold.as_ref().and_then(|t| match t {
                MoraleThreshold::Fixed(n) => Some(*n),
                MoraleThreshold::ByLosses { thresholds, .. } => thresholds.first().copied(),
            }),
            controls: held_at_start(cx, board, i),
            acted: Vec::new(),
            acted_earlier_turns: Vec::new(),
        })
        .collect();
    let first_status = cx
        .status_ladder()
        .and_then(|l| l.levels.first())
        .map(|l| l.id.clone());
    let mut units: Vec<Unit> = Vec::new();
    for (piece, id) in board.pieces.iter().zip(board.unit_ids()) {
        let kind = cx.unit_kind(&piece.kind);
        let stats = kind.and_then(|k| k.stats.as_ref());
        let counter = piece
            .side
            .and_then(|s| cx.side_army(s))
            .and_then(|a| cx.counter(a, &piece.counter))
            .or_else(|| {
                cx.counters?
                    .armies
                    .iter()
                    .find_map(|a| a.counters.iter().find(|c| c.id == piece.counter))
            });
        let (mut strength, movement, range, fire) = figures(counter, stats);
        // A unit set up below the ladder's first level shows its counter's reduced side.
        let below_first = piece
            .status
            .as_deref()
            .and_then(|s| cx.status_ladder()?.index_of(s))
            .is_some_and(|i| i > 0);
        if let Some(reduced) = counter.and_then(|c| c.reduced).filter(|_| below_first) {
            strength = f64::from(reduced);
        }
        units.push(Unit {
            id,
            kind: piece.kind.clone(),
            counter: Some(piece.counter.clone()),
            side: piece
                .side
                .and_then(|s| scenario.sides.get(s))
                .map(|s| s.id.clone()),
            hex: piece.hex.to_string(),
            status: piece.status.clone().or_else(|| first_status.clone()),
            strength,
            movement,
            range,
            fire,
            ..Unit::default()
        });
    }
    add_carried(cx, board, &mut units);
    let weather = scenario
        .turn_record
        .iter()
        .find(|t| t.turn == turn)
        .and_then(|t| t.weather.clone());
    Position {
        scenario: Some(scenario.id.clone()),
        system: scenario.system.clone(),
        map: scenario.map.clone(),
        turn,
        phase: None,
        side: Some(scenario.plays_first.clone()),
        weather,
        rules_on: muster_semantic::rules::scenario::optional_rules_on(cx)
            .iter()
            .map(|o| o.id.to_string())
            .collect(),
        rules: muster_semantic::rules::scenario::scenario_rules(cx),
        sides,
        units,
    }
}
