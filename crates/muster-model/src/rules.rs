//! Typed rules of a system: the sequence of play, the status levels of a unit, result
//! tables read by a difference of dice, what each troop type may or must do, morale
//! tests and modifiers, line of sight (by terrain, elevation and occupation),
//! victory-level order, exiting, the minimum move and army panic. Rules of one effect under a condition are the vocabulary's (`rules.effects`,
//! see [`crate::vocab`]).
//! Engines read them; checks reason about them (a band that leaves a gap, a permission
//! naming an unknown troop type). Troop types are named by unit kind id, by class
//! (PRESTAGS `"C"`, `"Mf"`) or `"*"` for every type.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Assumed;
use crate::vocab;

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
    /// How combats are organised: compulsory attacks, how often a unit attacks or is
    /// attacked, combined and multi-hex attacks, split strength, advance after combat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<crate::combat::CombatRules>,
    /// Named force ratios, by the larger side's count over the smaller's (Chanson de
    /// Geste: Outnumbered, Badly Outnumbered).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub force_ratios: Vec<ForceRatio>,
    /// The roll that decides whether a leader with a unit that lost levels is lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader_loss: Option<LeaderLoss>,
    /// What makes a move a charge (LRF 9.2): the engine judges a charge's path by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge: Option<ChargeRule>,
    /// What troop types must, may or may never do.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub permissions: Vec<Permission>,
    /// How the terrains of one hex combine when a map adds features to a hex
    /// (`AddTerrain`); needed by any map that does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain_combine: Option<crate::system::TerrainCombine>,
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
    /// General movement rules that hold whatever the allowance (PRESTAGS 5.15).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<MovementRules>,
    /// When an army panics, who is spared and how panicked units rally (PRESTAGS 13.0).
    /// What panicked units do is rules of the vocabulary under `Panicked`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub panic: Option<PanicRules>,
    /// The factions (nationalities, armies) that rules name and scenarios' sides belong
    /// to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub factions: Vec<vocab::Faction>,
    /// The kinds of weather (or ground) a turn may have; a scenario's `turn_record`
    /// gives each turn's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weather: Vec<vocab::WeatherKind>,
    /// Rules stated in the vocabulary of conditions and effects: terrain and hexside
    /// effects, combat modifiers, movement, stacking, permissions (see `vocab`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<vocab::EffectRule>,
    /// Named special rules, stated in the vocabulary, that a scenario switches on by id
    /// (`special_rules: [(hook: "storm", text: "...")]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_rules: Vec<vocab::EffectRule>,
    /// Optional rules: named sets of rules a scenario switches on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub optional_rules: Vec<vocab::OptionalRule>,
    /// The ids of muster's built-in special-rule hooks this system's scenarios may use.
    /// The four bundled games' own hooks need no entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<String>,
    /// Zones of control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zones_of_control: Option<vocab::ZoneOfControl>,
    /// Who holds a hex: by the units in it, and after they leave.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<vocab::HexControl>,
    /// Movement modes beside ordinary movement (road, rail, strategic, naval).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub movement_modes: Vec<vocab::MovementMode>,
    /// Replacements: what a point buys and where units come back; a scenario's
    /// `replacement_points` say how many each side gets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacements: Option<vocab::ReplacementRules>,
    /// Supply and lines of communication.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supply: Option<vocab::SupplyRules>,
    /// How reinforcements come onto the map: what entering costs and whether they may
    /// be held back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrivals: Option<vocab::ArrivalRules>,
    /// Facing: the front, flank or rear hexsides of a unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<vocab::Facing>,
    /// States a unit keeps from one game turn to the next (contact).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<vocab::KeptState>,
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
    /// The factions (`rules.factions`) whose turn has this phase, when the two sides'
    /// turns differ; empty for every side. Inside a player-turn, the other sides skip it
    /// in their own player-turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<String>,
    /// Orders are plotted in this phase, secretly and by both sides at once.
    #[serde(default, skip_serializing_if = "is_false")]
    pub plots: bool,
    /// The plotted tasks carried out in this phase (ids of an optional rule's `orders`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub executes: Vec<String>,
    /// Everything done in this phase happens at once: a unit acts before it suffers what
    /// others do to it in the same phase.
    #[serde(default, skip_serializing_if = "is_false")]
    pub simultaneous: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
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

/// What a move must be to count as a charge: where the target stands, what the path
/// crosses, and its shape. Who may charge is a `Charge` permission; what a charge adds
/// is the unit kind's `charge_bonus`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChargeRule {
    /// The rulebook section (`"9.2"`).
    pub section: String,
    /// Terrain or features (a road through the hex counts) the target's hex must have
    /// one of; any hex, when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_in: Vec<String>,
    /// Terrain or features every hex of the path must have one of; any, when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub through: Vec<String>,
    /// The path and the target lie on one straight line of hexes, the move heading
    /// for the target all the way.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub straight_line: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
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
    /// When the entry applies, in the vocabulary (`when: Some(InFormation(Column))`), if
    /// not always. The engine asks it of the unit where it stands; an entry with a
    /// `when` never contradicts an entry without one, and two entries with the same
    /// `when` are compared like two without.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<crate::vocab::Condition>,
    /// When the entry applies, in words, where the vocabulary has no condition for it
    /// (`"only on a feast day"`). muster does not test it: the engine leaves the entry
    /// out, and it contradicts no other entry. The bundled systems need none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// What else the rulebook says about it (exceptions decided in play).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Permission {
    /// Whether the entry applies only under a condition, typed (`when`) or in words
    /// (`condition`).
    pub fn is_conditional(&self) -> bool {
        self.when.is_some() || self.condition.is_some()
    }
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
    /// Exert a zone of control (LRF 9.4: baggage has none).
    ExertZoneOfControl,
    /// Be the target of missile fire (LRF 9.4: baggage is attacked hand to hand only).
    BeFiredOn,
    /// Be attacked in melee (PRESTAGS Excl 3.28: not a sailing fleet).
    BeAttackedInMelee,
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
            Action::ExertZoneOfControl => "exert a zone of control",
            Action::BeFiredOn => "be fired on",
            Action::BeAttackedInMelee => "be attacked in melee",
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
    /// Additions to the morale value a unit tests against, by who stands near it (LRF 6,
    /// 9.10: +1 with the commander stacked or adjacent).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<MoraleModifier>,
}

/// An addition to the morale value of units that have some troop type near them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoraleModifier {
    /// Added to the tested unit's morale value (LRF: 1); with a test read as the die
    /// minus morale, each point lowers the difference by one.
    pub value: i8,
    /// The troop types whose nearness gives it (`commander`).
    pub from: Vec<String>,
    /// How near they must be.
    pub reach: Proximity,
    /// Who receives it: troop types, classes, or `"*"`.
    pub to: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// How near one unit stands to another, on a hex grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Proximity {
    /// In the same hex.
    Stacked,
    /// In the same hex or one of the six around it.
    StackedOrAdjacent,
}

impl Proximity {
    pub fn words(self) -> &'static str {
        match self {
            Proximity::Stacked => "stacked with",
            Proximity::StackedOrAdjacent => "stacked with or next to",
        }
    }
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
    /// The unit's mount is killed under it.
    MountKilled,
    /// A melee the unit fought in, attacking, defending or supporting, has been
    /// resolved (CdG l. 121: the moment a unit contacted on its flank may turn to face).
    MeleeResolved,
    /// The unit loses at least this many levels on a result of this result table (a
    /// result that removes it counts): Chanson de Geste l. 108, fire costing 2 levels.
    LosesLevels { table: String, at_least: u8 },
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
            MoraleEvent::MountKilled => "its mount killed under it".into(),
            MoraleEvent::MeleeResolved => "the end of a melee it fought in".into(),
            MoraleEvent::LosesLevels { table, at_least } => {
                format!("losing {at_least} or more levels on the `{table}` table")
            }
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
    /// The rulebook section of the rule (PRESTAGS 6.34, Chanson de Geste l. 101): what
    /// every sight answer cites.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
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
    /// Terrain that blocks a line passing through it (PRESTAGS 6.32, 6.35-6.36); a unit
    /// in it may still fire and be fired on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocking: Vec<SightBlock>,
    /// The elevations of a hex map, lowest first (PRESTAGS 6.37: ground level, slope,
    /// hilltop).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elevations: Vec<Elevation>,
    /// Which occupied hexes block, by the firer's elevation (PRESTAGS 6.37). With these
    /// entries, `units_block` says only whether occupation blocks at all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub occupied_blocks: Vec<OccupiedBlock>,
    /// A line running exactly along a hexside (PRESTAGS 6.38).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub along_hexside: Option<HexsideSight>,
    /// The section of `along_hexside` (PRESTAGS 6.38), cited when a line runs along one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub along_hexside_section: Option<String>,
}

/// Terrain that blocks a line of sight passing through it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SightBlock {
    /// Hex terrain types or feature kinds, by id.
    pub terrain: Vec<String>,
    /// Only for firers at these elevations; empty: every firer (PRESTAGS 6.35: units on
    /// a slope fire into a hilltop but not through it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub firer_at: Vec<String>,
    /// It does not block when the firer or the target is at one of these elevations in
    /// a hex next to the blocking hex (PRESTAGS 6.36: slopes and an adjacent hilltop).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unless_next_to: Vec<String>,
    /// The rulebook section (PRESTAGS 6.32), cited when this terrain blocks a line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One elevation of a hex map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Elevation {
    pub id: String,
    pub name: String,
    /// The hex terrain types at this elevation; empty: every terrain no other elevation
    /// lists (one elevation at most).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<String>,
}

/// The occupied hexes that block the line of a firer at one elevation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OccupiedBlock {
    /// The firer's elevation.
    pub firer_at: String,
    /// Occupied hexes at these elevations block (PRESTAGS 6.37: from a slope, occupied
    /// slopes and hilltops; occupied ground level does not).
    pub blocked_by: Vec<String>,
    /// They do not block when the line passes through a hex of this elevation next to
    /// the firer (PRESTAGS 6.37: a hilltop firer looking down over an adjacent slope).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unless_through_adjacent: Option<String>,
    /// The rulebook section (PRESTAGS 6.37), cited when an occupied hex blocks a line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// How a line of sight running along a hexside is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum HexsideSight {
    /// Clear when either hex is clear; blocked only when both are.
    ClearIfEitherClear,
    /// Blocked when either hex is blocked.
    BlockedIfEitherBlocked,
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
    /// The rulebook section.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
}

/// General movement rules.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovementRules {
    /// A move a unit may always make, whatever its allowance and the entry costs
    /// (PRESTAGS 5.15).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_move: Option<MinimumMove>,
}

/// A move of a few hexes into passable terrain that a unit may always make.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MinimumMove {
    /// The rulebook section (`"5.15"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// How many hexes (PRESTAGS 5.15: one).
    #[schemars(range(min = 1))]
    pub hexes: u8,
    /// Only units at these status levels; empty: every level (PRESTAGS: undisrupted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub status: Vec<String>,
    /// A unit that uses it moves no further that turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub whole_move: bool,
}

/// Army panic: the moment an army panics and the units it strikes, and how they rally.
/// The units it strikes are `Panicked`; what that does is the vocabulary's (`Flees`,
/// `MayNot(Attack)`, ...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PanicRules {
    /// The rulebook prints it among its optional rules (PRESTAGS 12.0).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// What makes an army panic.
    pub trigger: PanicTrigger,
    /// Which side panics when both reach their panic level exactly at once (PRESTAGS
    /// 13.12: the defender of that action).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub both_reach: Option<PanicTieBreak>,
    /// Which side panics when both pass their panic level at once (PRESTAGS 13.13: the
    /// side further past it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub both_pass: Option<PanicTieBreak>,
    /// Units near these leaders do not panic.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spared_near: Vec<NearLeader>,
    /// Panic strikes once: units that did not panic then never do (PRESTAGS 13.21).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub once: bool,
    /// How panicked units rally.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rally: Option<PanicRally>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What makes an army panic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum PanicTrigger {
    /// The enemy's victory points for destroyed friendly units reach the scenario's
    /// panic level; the whole army panics at that instant (PRESTAGS 13.0, 13.11).
    LossesReachPanicLevel,
}

/// Which of two sides panics when both qualify at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum PanicTieBreak {
    /// The side defending in the action that caused it.
    Defender,
    /// The side attacking in it.
    Attacker,
    /// The side further past its panic level; the other may never panic.
    FurtherPast,
}

/// Units near one of these leaders.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NearLeader {
    /// Leader troop types (PRESTAGS: `1L`, `2L`).
    pub leaders: Vec<String>,
    pub reach: Proximity,
}

/// How panicked units return to normal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PanicRally {
    /// At the end of this phase of the sequence of play (by id), each player-turn of
    /// the owner (PRESTAGS 13.22: movement).
    pub after_phase: String,
    /// Panicked units near these leaders rally for the rest of the game.
    pub by: Vec<NearLeader>,
}
