//! Typed rules of a system: the sequence of play, the status levels of a unit, result
//! tables read by a difference of dice, what each troop type may or must do, terrain
//! exceptions by troop type, morale tests, line of sight, victory-level order, exiting
//! and leaders' movement control. Engines read them; checks reason about them (a band
//! that leaves a gap, a permission naming an unknown troop type). Troop types are named
//! by unit kind id, by class (PRESTAGS `"C"`, `"Mf"`) or `"*"` for every type.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Assumed;

/// The rules block of a system (`rules: (...)`). Every part is optional: a system states
/// what its rulebook prints.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The sequence of play: the phases of a turn in order and who acts in each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence: Option<SequenceOfPlay>,
    /// The status levels a unit walks down as it suffers results and up as it recovers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<StatusLadder>,
    /// Result tables read by the difference between two modified die rolls (or a roll
    /// and a value), band by band.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub result_tables: Vec<ResultTable>,
    /// Named force ratios, by the larger side's count over the smaller's (Chanson de
    /// Geste: Outnumbered, Badly Outnumbered).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub force_ratios: Vec<ForceRatio>,
    /// The roll that decides whether a leader with a unit that lost levels is lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader_loss: Option<LeaderLoss>,
    /// A result that halts a charge short of its target (Chanson de Geste: devastating
    /// fire).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge_stop: Option<ChargeStop>,
    /// What troop types must, may or may never do.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub permissions: Vec<Permission>,
    /// Terrain effects that differ by troop type, beyond movement factors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain_exceptions: Vec<TerrainException>,
    /// When morale is tested, who is exempt, and what a failure leaves alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale: Option<MoraleRules>,
    /// Fire at attackers before a melee (the raid's missile troops).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defensive_fire: Option<DefensiveFire>,
    /// What blocks line of sight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_of_sight: Option<LineOfSight>,
    /// How many men a base stands for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub representation: Option<Representation>,
    /// How the system's victory levels relate to each other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory_order: Option<VictoryOrder>,
    /// Leaving the map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<ExitRule>,
    /// Leaders' control of movement (PRESTAGS 10.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader_control: Option<LeaderControl>,
    /// Values of this block that the rulebook does not print: path inside the block
    /// (`status.recovery`) -> the reason.
    #[serde(default, skip_serializing_if = "Assumed::is_empty")]
    pub assumed: Assumed,
}

impl Rules {
    /// Whether nothing is stated (the block is left out when written).
    pub fn is_empty(&self) -> bool {
        *self == Rules::default()
    }
}

/// The sequence of play. A game turn is `start_of_turn`, then each player's player-turn
/// (`player_turn`, the player whose turn it is being the phasing player), then
/// `end_of_turn`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SequenceOfPlay {
    /// Phases before the player-turns, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_of_turn: Vec<Phase>,
    /// The phases of one player-turn, in order; every player plays them in turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub player_turn: Vec<Phase>,
    /// Phases after every player has had a player-turn, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub end_of_turn: Vec<Phase>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl SequenceOfPlay {
    /// Every phase with the part of the turn it belongs to and its index there, in
    /// order of play.
    pub fn phases(&self) -> Vec<(TurnPart, usize, &Phase)> {
        let mut out = Vec::new();
        for (part, list) in [
            (TurnPart::StartOfTurn, &self.start_of_turn),
            (TurnPart::PlayerTurn, &self.player_turn),
            (TurnPart::EndOfTurn, &self.end_of_turn),
        ] {
            out.extend(list.iter().enumerate().map(|(i, p)| (part, i, p)));
        }
        out
    }
}

/// A part of the game turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnPart {
    StartOfTurn,
    PlayerTurn,
    EndOfTurn,
}

impl TurnPart {
    /// The field name of this part in [`SequenceOfPlay`].
    pub fn field(self) -> &'static str {
        match self {
            TurnPart::StartOfTurn => "start_of_turn",
            TurnPart::PlayerTurn => "player_turn",
            TurnPart::EndOfTurn => "end_of_turn",
        }
    }
}

/// One phase of the sequence of play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    pub id: String,
    pub name: String,
    /// Who acts in it. `Phasing` and `NonPhasing` only make sense inside a player-turn.
    pub acts: Vec<Actor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Who acts in a phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Actor {
    /// The player whose player-turn it is.
    Phasing,
    /// The other player (defensive fire).
    NonPhasing,
    /// Both players (mutual phases, the turn record).
    Both,
}

/// The status levels of a unit, best first. Every unit starts at the first level;
/// results move it down, recovery moves it up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatusLadder {
    /// Levels from best to worst.
    pub levels: Vec<StatusLevel>,
    /// Level losses stop at this level; each level lost beyond it costs `beyond_floor`
    /// instead. Without it, losses walk down to the last level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor: Option<String>,
    /// What each level lost at the floor costs (Chanson de Geste: a base).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beyond_floor: Option<BeyondFloor>,
    /// The unit is removed once it has lost at least this share of its starting bases
    /// (Chanson de Geste: one half).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub removed_at_share_lost: Option<f64>,
    /// How levels are regained.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recovery: Vec<Recovery>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl StatusLadder {
    /// The index of the level with this id.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.levels.iter().position(|l| l.id == id)
    }

    /// The index of the level losses stop at: `floor`, or else the last level.
    pub fn floor_index(&self) -> Option<usize> {
        match &self.floor {
            Some(f) => self.index_of(f),
            None => self.levels.len().checked_sub(1),
        }
    }
}

/// One status level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatusLevel {
    pub id: String,
    pub name: String,
    /// A unit at this level is removed from play.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub removes: bool,
}

/// What a level lost below the floor costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum BeyondFloor {
    /// One base per level.
    LoseBase,
}

/// A way of regaining status levels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Recovery {
    /// The action, phase or event that recovers (`regroup`).
    pub by: String,
    /// Levels one success may restore (Chanson de Geste regroup: 1 or 2).
    pub levels: Vec<u8>,
    /// Levels it recovers from; empty: any level that does not remove the unit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A result table read band by band.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultTable {
    /// Id that other rules name (`fire`, `melee`).
    pub id: String,
    pub name: String,
    /// What the bands are read against.
    pub by: ResultIndex,
    /// The bands, lowest first; together they cover every value the index can take,
    /// each value once.
    pub bands: Vec<ResultBand>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What a result table is read against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ResultIndex {
    /// The first total minus the second (fire: the firer's modified roll minus the
    /// target's); any whole number, negative included. Results fall on the second.
    Difference,
    /// The higher total minus the lower (melee): zero or more, zero being a tie.
    /// Results fall on the side that scored lower, or as the band says on a tie.
    Margin,
}

/// A band of a result table: every value from `from` to `to`, both included.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultBand {
    /// Lowest value of the band; `None`: no lower bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i16>,
    /// Highest value of the band; `None`: no upper bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i16>,
    pub result: BandResult,
}

/// The result of a band.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum BandResult {
    NoEffect,
    /// The side the result falls on loses this many status levels.
    LoseLevels(u8),
    /// Both sides lose this many status levels (a melee tie).
    BothLoseLevels(u8),
    /// The side the result falls on goes straight to this status level (destroyed).
    ToLevel(String),
    /// A result code of the system's combat results table (`R`: retreat).
    Code(String),
}

impl BandResult {
    /// Levels lost by the side the result falls on, if the result is a level loss.
    pub fn levels_lost(&self) -> Option<u8> {
        match self {
            BandResult::LoseLevels(n) | BandResult::BothLoseLevels(n) => Some(*n),
            _ => None,
        }
    }
}

/// A named force ratio: the larger side's count over the smaller's, from `from` to `to`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForceRatio {
    pub name: String,
    #[schemars(range(min = 1.0))]
    pub from: f64,
    /// `None`: no upper bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<f64>,
    /// `from` itself is not in the band (Outnumbered: more than exactly equal).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_exclusive: bool,
    /// `to` itself is in the band (Even: exactly 1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub to_inclusive: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The roll for a leader with a unit that lost status levels: the leader is lost on a
/// roll at or under the number of levels lost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LeaderLoss {
    /// The result tables after which the roll is made (`melee`).
    pub after: Vec<String>,
    /// Sides of the die rolled.
    #[schemars(range(min = 2))]
    pub die: u8,
    /// From this many levels lost, the leader escapes only on `escape_roll`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escape_only_from: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escape_roll: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A result that stops a charge before contact; no melee follows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChargeStop {
    /// The result table whose result may halt the charge (`fire`).
    pub table: String,
    /// A result costing at least this many levels halts it (a result that sends the
    /// unit to a level that removes it does too).
    #[schemars(range(min = 1))]
    pub levels_at_least: u8,
    /// The charger ends its move this many inches short of its target.
    #[schemars(range(min = 0.0))]
    pub short_by: f64,
}

/// What troop types must, may or may never do. An entry naming a type by its id
/// overrides one naming its class, which overrides `"*"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Permission {
    pub action: Action,
    /// Troop types, classes, or `"*"`.
    pub troops: Vec<String>,
    pub allowed: Allowance,
    /// Types the entry does not cover (`"*"` but berserkers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<String>,
    /// Only for units at this status level (routers: `routing`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// When the entry applies, in words, if not always; entries with a condition never
    /// contradict an entry without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// What else the rulebook says about it (exceptions decided in play).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// An action a troop type may be allowed, bound or forbidden to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Action {
    Charge,
    /// Charge a unit charging it.
    CounterCharge,
    /// Fall back before a charge.
    Evade,
    /// Move through friendly units.
    MoveThroughFriends,
    /// Let friendly units move through it.
    BePassedThrough,
    /// Turn to face an attacker.
    TurnToFace,
    /// Attack (melee or fire) at all.
    Attack,
    /// Fire from behind the front rank.
    FireFromRearRank,
    /// Leave a melee it is locked in.
    BreakOffMelee,
    /// Follow a loser pushed back, staying in contact.
    FollowUp,
    /// Turn on another enemy in the middle of a melee.
    ChangeMeleeTarget,
}

impl Action {
    pub fn words(self) -> &'static str {
        match self {
            Action::Charge => "charge",
            Action::CounterCharge => "counter-charge",
            Action::Evade => "evade a charge",
            Action::MoveThroughFriends => "move through friends",
            Action::BePassedThrough => "be passed through by friends",
            Action::TurnToFace => "turn to face",
            Action::Attack => "attack",
            Action::FireFromRearRank => "fire from behind the front rank",
            Action::BreakOffMelee => "break off a melee",
            Action::FollowUp => "follow up a pushed-back loser",
            Action::ChangeMeleeTarget => "change melee target",
        }
    }
}

/// Whether an action is bound, allowed or forbidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Allowance {
    Must,
    May,
    Never,
}

/// A terrain effect that applies to some troop types only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainException {
    /// Table feature kinds or hex terrain types, by id.
    pub terrain: Vec<String>,
    /// Troop types, classes, or `"*"`.
    pub troops: Vec<String>,
    pub effect: TerrainEffect,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What a terrain exception does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum TerrainEffect {
    /// Pays no crossing cost here (Chanson de Geste: Leaders at choke points).
    NoCrossingCost,
    /// Needs a whole move to pass, whatever the cost (Chanson de Geste: Transport at
    /// choke points).
    WholeMove,
    /// May enter only along a road (PRESTAGS Excl 2.0: Ff units into streams); the
    /// terrain must otherwise prohibit them.
    RoadOnly,
    /// May not fire from here (PRESTAGS 6.33).
    NoFireFrom,
    /// Is never tempted to charge targets here or across it (Chanson de Geste: Mounted
    /// Knights and rough ground).
    NoTemptation,
    /// Targets here may be shot only within this many inches (the raid: targets in
    /// cover, close range only); the terrain must give cover.
    TargetsOnlyWithin(f64),
}

/// Morale tests.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoraleRules {
    /// When a test is taken.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<MoraleTrigger>,
    /// Troop types that never test (LRF commanders).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub never_test: Vec<String>,
    /// What a failed test does not stop (the raid: bow fire is not affected).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failure_does_not_stop: Vec<MoraleUnaffected>,
}

/// Something a failed morale test leaves alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum MoraleUnaffected {
    /// Missile fire.
    Fire,
}

/// An event on which troops must test their morale.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoraleTrigger {
    pub event: MoraleEvent,
    /// Who tests: troop types, classes, or `"*"`.
    pub troops: Vec<String>,
    /// Who need not test on this event.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exempt: Vec<String>,
    /// The name of the test, if it has one ("Resist Temptation to Charge").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The events that call for a morale test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum MoraleEvent {
    /// Enemy cavalry within charge range.
    EnemyCavalryInChargeRange,
    /// Attempting to charge.
    Charging,
    /// Within this many inches of a friend who is routing.
    FriendRoutingWithin(f64),
    /// Lost a round of melee.
    LostMeleeRound,
    /// Next to a friend hit by missile fire.
    FriendHitByMissile,
    /// Own leader or hero slain in sight.
    LeaderSlainInSight,
    /// An enemy in the frontal arc within this many inches (Chanson de Geste: the
    /// temptation to charge, 12).
    EnemyInFrontWithin(f64),
    /// Friends fled or charged through the unit (Chanson de Geste: Ridden Down).
    PassedThroughByFriends,
    /// A combat result code of the system's table calls for it (LRF `T`).
    CombatResult(String),
    /// Displaced by a retreating friend (LRF 9.8).
    DisplacedByRetreat,
}

impl MoraleEvent {
    pub fn words(&self) -> String {
        match self {
            MoraleEvent::EnemyCavalryInChargeRange => "enemy cavalry within charge range".into(),
            MoraleEvent::Charging => "attempting to charge".into(),
            MoraleEvent::FriendRoutingWithin(d) => format!("within {d} inches of a routing friend"),
            MoraleEvent::LostMeleeRound => "losing a round of melee".into(),
            MoraleEvent::FriendHitByMissile => "next to a friend hit by missile fire".into(),
            MoraleEvent::LeaderSlainInSight => "seeing their leader slain".into(),
            MoraleEvent::EnemyInFrontWithin(d) => {
                format!("an enemy in the frontal arc within {d} inches")
            }
            MoraleEvent::PassedThroughByFriends => "friends fleeing or charging through".into(),
            MoraleEvent::CombatResult(code) => format!("combat result `{code}`"),
            MoraleEvent::DisplacedByRetreat => "displaced by a retreating friend".into(),
        }
    }
}

/// Fire at an attacker before a melee.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DefensiveFire {
    /// Troop types that may fire so (with a missile weapon).
    pub troops: Vec<String>,
    /// The fire is resolved as at this range, in inches (the raid: close range).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_range: Option<f64>,
    /// Added to the firer's roll in the first melee round that follows (the raid: -2).
    #[serde(default)]
    pub first_melee_round_modifier: i8,
}

/// What blocks line of sight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LineOfSight {
    /// Units, friend or enemy, block line of sight.
    pub units_block: bool,
    /// Units on a level below the firer do not block, except within this many inches
    /// of the target and on its level (Chanson de Geste: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0))]
    pub lower_units_block_within: Option<f64>,
    /// Feature kinds that conceal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub concealing: Vec<String>,
    /// Sight reaches this many inches into, out of or through concealing terrain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0))]
    pub into_concealing: Option<f64>,
}

/// How many men a base stands for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Representation {
    /// A base of mounted troops.
    pub mounted: MenRange,
    /// A base of foot.
    pub foot: MenRange,
    /// For smaller actions every number may be divided by this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub smaller_actions_divisor: Option<u8>,
}

/// A number of men, fewest to most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MenRange {
    pub min: u32,
    pub max: u32,
}

/// How victory levels relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum VictoryOrder {
    /// A condition calling for a level is also met by any higher level (PRESTAGS
    /// 11.24); the levels are listed lowest first.
    HigherSatisfiesLower,
    /// Only the level named meets a condition.
    Exact,
}

/// Leaving the map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExitRule {
    /// Movement points a unit must still have to leave (PRESTAGS 11.42: 1).
    #[schemars(range(min = 0.0))]
    pub cost: f64,
    /// Whether a unit that left may come back (PRESTAGS 11.41: never).
    pub may_return: bool,
}

/// Leaders' control of movement: units that begin a movement phase beyond every
/// friendly leader's control radius move at a reduced rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LeaderControl {
    /// Movement allowance out of control, as a share of the full one (PRESTAGS 10.23:
    /// a half, fractions kept).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub beyond_radius_factor: f64,
    /// Hexes an undisrupted unit may always move (PRESTAGS 10.24: one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub always_hexes: Option<u8>,
    /// A scenario's leadership note that exempts some troop types (PRESTAGS 10.22:
    /// `Mt. Ex.`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exemption: Option<ControlExemption>,
}

/// Troop types exempt from leaders' movement control when a scenario says so.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ControlExemption {
    /// The leadership note as scenarios write it (`Mt. Ex.`).
    pub note: String,
    /// Troop types or classes exempt.
    pub troops: Vec<String>,
}
