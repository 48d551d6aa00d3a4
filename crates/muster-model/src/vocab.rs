//! The rules vocabulary: conditions and effects with typed references, the one way a
//! rule of any hex-and-counter game is stated as data.
//!
//! An [`EffectRule`] says *when* ([`Condition`], composable with `All`, `Any` and
//! `Not`) and *then* what ([`Effect`]s), and names the rulebook section it encodes. A
//! system lists them in `rules: (effects: [...])`; a system may also declare named
//! special rules (`rules: (special_rules: [...])`) that its scenarios switch on by id,
//! and a scenario may state its own (`special_rules: [(hook: "storm", when: ...,
//! then: [...])]`). No Rust is written for a new rule.
//!
//! The genre's mechanics that are more than one effect are typed blocks beside the
//! effects: zones of control ([`ZoneOfControl`]), movement modes ([`MovementMode`]),
//! supply ([`SupplyRules`]), weather kinds ([`WeatherKind`]) and factions
//! ([`Faction`]); a scenario's turn record and supply sources are in
//! [`crate::scenario`].
//!
//! Every name in a condition or an effect is a reference muster resolves: troop types
//! (a unit kind id, a class or `"*"`), status levels, terrain and hexside feature ids,
//! phases, weather kinds, factions (in a system) or sides (in a scenario), movement
//! modes, result codes and map labels.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::system::MoveCost;

/// A rule of the vocabulary: when `when` holds (always, when left out), every effect of
/// `then` applies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EffectRule {
    /// Stable id (`"river-defence"`), unique among the rules of its file.
    pub id: String,
    /// The rulebook section the rule encodes (`"7.3"`).
    pub section: String,
    /// When the rule applies; always, when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<Condition>,
    /// What applies while `when` holds.
    pub then: Vec<Effect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A condition on a unit, where it stands and the moment of play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Condition {
    /// Every condition of the list holds (an empty list always holds).
    All(Vec<Condition>),
    /// At least one condition of the list holds (an empty list never holds).
    Any(Vec<Condition>),
    /// The condition does not hold.
    Not(Box<Condition>),
    /// The unit belongs to this faction (a system's `factions`) or, in a scenario's own
    /// rule, to this side.
    Side(String),
    /// The unit is of this troop type: a unit kind id, a class, or `"*"`.
    Troop(String),
    /// The unit is at this level of the status ladder.
    Status(String),
    /// The game turn is within `from..=to`.
    Turns { from: u8, to: u8 },
    /// The turn's weather (a system's `weather` kind, given per turn by the scenario's
    /// `turn_record`).
    Weather(String),
    /// The phase of the sequence of play.
    Phase(String),
    /// The unit attacks.
    Attacking,
    /// The unit defends.
    Defending,
    /// The unit's hex has this terrain.
    InTerrain(String),
    /// The unit moves or attacks across a hexside with this feature.
    Crossing(String),
    /// Every attacker attacks across a hexside with this feature.
    AllAttackersAcross(String),
    /// The unit is next to an enemy unit.
    AdjacentToEnemy,
    /// The unit shares its hex with a friendly unit of this troop type (PRESTAGS 10.31:
    /// units stacked with a leader).
    StackedWith(String),
    /// The unit is in an enemy zone of control.
    InEnemyZoc,
    /// The unit can trace supply (the system's `supply`).
    InSupply,
    /// The unit stands within the movement control radius of a friendly leader (a
    /// leader kind's `control_radius`, in hexes), a leader itself included (PRESTAGS
    /// 10.2). A unit with no side has no friendly leaders to judge by and counts as in
    /// command.
    InCommand,
    /// The unit's kind prints its melee strength in brackets (PRESTAGS 3.37: it defends
    /// at half).
    Bracketed,
    /// The unit's kind prints a dot for its melee strength (PRESTAGS 3.36: no melee
    /// attack; no defence when stacked with units that have a strength).
    DotMelee,
    /// A friendly unit stacked with this one meets this condition, judged for that unit
    /// in the same hex (PRESTAGS 3.36: stacked with a unit that has a melee strength).
    StackedWithUnit(Box<Condition>),
    /// The unit is panicked: its army panicked (the system's `panic`), it was not
    /// spared, and it has not rallied since (PRESTAGS 13.0-13.22).
    Panicked,
    /// Every hex around the defender holds, or is next to, a unit that attacks it (a
    /// flank attack).
    Surrounded,
    /// The unit, attacked in melee, has a printed movement allowance at least this many
    /// points above that of the fastest unit attacking it (PRESTAGS 17.0: 3, to retreat
    /// before combat; 17.5: unit by unit).
    Outpaces(f64),
    /// The opponent's hex has this terrain.
    OpponentIn(String),
    /// A unit the unit fights (the one it attacks or charges, or one attacking it)
    /// meets this condition, judged for that unit in its own hex (CdG l. 107:
    /// Irregulars charge in the open only at Irregulars or Transport).
    Opponent(Box<Condition>),
    /// The unit stands in this formation (a table game's units; CdG l. 77: `Column` is
    /// march formation, one base wide). A hex game's units have no formation, so there
    /// it never holds.
    InFormation(crate::scenario::Formation),
    /// The unit stands higher than its opponent.
    Higher,
    /// The unit stands lower than its opponent.
    Lower,
    /// The unit moves in this movement mode.
    Moving(String),
    /// The unit is a copy of this counter of the counter sheet, by its id: a scenario's
    /// rule names one of its sheet's counters (Brissarthe's Berserkers).
    Counter(String),
    /// A fact about the unit's own side.
    OwnSide(SideFact),
    /// A fact about the opposing side.
    EnemySide(SideFact),
    /// The unit did this act earlier (PRESTAGS 6.5: fired this player-turn).
    Did { act: Act, when: Past },
    /// The unit moves, attacks or fires through a hexside of this class of its own
    /// facing (the system's `facing`), or, in a `Zoc(Blocked)` rule, would reach the
    /// hex through one.
    Through(String),
    /// At least one unit attacking this one attacks through a hexside of this class of
    /// its facing.
    AttackedThrough(String),
    /// The unit is in this kept state (the system's `states`).
    InState(String),
    /// The unit is a carrier (the system's `carriers`) with at least one unit aboard
    /// (PRESTAGS Excl 3.33: a fleet with nobody aboard cannot unmoor). On a hex map a
    /// friendly unit that is no carrier stands in a carrier's hex only aboard it.
    Carrying,
    /// The unit's plotted task this turn (a task of an optional rule's `orders`).
    Plotted(String),
    /// The moment this event befalls the unit.
    Event(crate::rules::MoraleEvent),
    /// An enemy unit touches this one on this side of it (a table game's units; CdG
    /// l. 120-121: a flank contact is along a side, on the rear or at a rear corner,
    /// never at a front corner). A hex game's units have no sides, so there it never
    /// holds; their facing is asked by `AttackedThrough`.
    ContactedOn(TableSide),
    /// A friendly unit moves through this one, coming in on this side of it and going
    /// out by the opposite side (a table game's units; CdG l. 85: straight through
    /// Archers one base deep, from front or rear). It never holds on a hex map.
    PassedThrough(TableSide),
    /// The unit stands directly behind a friendly unit that meets this condition,
    /// judged for that unit: the unit's front touches that unit's rear (a table game's
    /// ranks; the raid, l. 63: bowmen shoot from the second rank). The front rank is
    /// `Not(Behind(Troop("*")))`. It never holds on a hex map.
    Behind(Box<Condition>),
    /// A leader the unit follows meets this condition, judged for the leader: a leader
    /// figure of the unit's band, or the leader of its battle (a table game; the raid,
    /// l. 97: following a leader who has charged). It never holds on a hex map, where
    /// `StackedWithUnit` asks about a leader in the hex.
    FollowsLeader(Box<Condition>),
    /// The unit's group has at least this many times as many figures or bases as the
    /// group it fights (a table game's band or unit; a hex game's units of each hex):
    /// 1 is at least as many, 2 two to one. A smaller group is `Not(Outnumbers(1))`
    /// (the raid, l. 94 and 97).
    Outnumbers(f64),
    /// Another friendly unit that meets `unit`, judged for that unit, stands within
    /// `within` of this one: hexes on a hex map (0 is the same hex), inches on a table
    /// (the raid, l. 25: a leader within 6 inches).
    Near { within: f64, unit: Box<Condition> },
    /// No other enemy the unit could fire at or charge is nearer to it than the one it
    /// fights, measured from the unit, or from the bases of a table game's unit that
    /// fire; enemies equally near all count as nearest (CdG l. 104; the raid, l. 96).
    NearestOpponent,
}

/// A side of a table game's unit, by its facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum TableSide {
    /// The edge it faces, front corners included.
    Front,
    /// Either side edge (CdG l. 121: a rear corner counts as a flank).
    Flank,
    /// The edge opposite its front.
    Rear,
}

/// When, before now, a unit did an act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Past {
    /// Earlier in the current player-turn.
    ThisPlayerTurn,
    /// In the player-turn before the current one.
    LastPlayerTurn,
    /// Earlier in the current game turn.
    ThisTurn,
}

/// A fact about a side as play goes on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum SideFact {
    /// The side's losses have reached its morale threshold.
    Demoralised,
    /// The side has lost at least this many units (or steps, as the system counts).
    LossesAtLeast(u16),
    /// The side holds the hex with this map label.
    Controls(String),
    /// The side holds at least this many of the map's labelled hexes (the objectives a
    /// game counts).
    ControlsAtLeast(u16),
    /// The side's units did this act in an earlier player-turn of the game (PRESTAGS
    /// Excl 3.61: the Viking ferocity of the first melee attack).
    ActedBefore(Act),
    /// The side's units did this act in an earlier game turn (PRESTAGS Excl 3.81: the
    /// Vikings defend fiercer from the game-turn after their first melee attack).
    ActedInEarlierTurn(Act),
    /// The scenario gives the side this leadership note (PRESTAGS 10.22: `Mt. Ex.`,
    /// mounted units exempt from leaders' control).
    Leadership(String),
}

/// What a rule does while its condition holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Effect {
    /// The cost to enter the hex (or, with `Crossing`, to cross the hexside).
    MoveCost(MoveCost),
    /// Columns shifted on the combat results table (negative favours the defender).
    OddsShift(i8),
    /// Added to the die roll.
    DieModifier(i8),
    /// Added in the unit's favour to each morale test it takes, whichever way the
    /// system reads the die (the raid, l. 24-31: +2 with a leader within 6 inches).
    MoraleRoll(i8),
    /// The unit's combat strength is multiplied (0.5: halved, 2: doubled).
    Strength(f64),
    /// The unit's combat strength is multiplied after every other correction, the
    /// leaders' bonus (`LeaderBonus`) included (PRESTAGS 7.52: the flank attack's
    /// doubling comes last).
    FinalStrength(f64),
    /// The unit gains the combat bonus (a leader kind's `combat_bonus`) of every
    /// friendly leader stacked with it, never its own. The bonus of a hex is shared by
    /// the units of that hex in the combat; it comes after `Strength` and
    /// `FixedStrength` and before `FinalStrength` (PRESTAGS 10.1).
    LeaderBonus {
        /// The bonus of a hex is at most the adjusted strength of the units in that
        /// hex that take it (PRESTAGS 10.11).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        capped: bool,
    },
    /// The unit's movement allowance is multiplied by this (PRESTAGS Excl 3.23: 0.5, a
    /// disrupted fleet moves at half).
    MoveAllowance(f64),
    /// The unit's combat strength is this, whatever else applies (LRF 9.4: baggage
    /// defends at 1 wherever it stands).
    FixedStrength(u16),
    /// The unit is eliminated when a unit of these troop types standing this near it is
    /// eliminated (LRF 9.4: baggage, with the combat unit it is stacked with, when that
    /// unit is eliminated defending: the rule asks `Defending`).
    FallsWith {
        /// Troop types, classes, or `"*"`.
        with: Vec<String>,
        /// How near the other unit stands.
        reach: crate::rules::Proximity,
    },
    /// Neither the terrain of the unit's hex nor the hexsides its attackers cross change
    /// its defence (LRF 9.4: baggage, never modified by the terrain); it counts where
    /// every defender of the hex has it.
    TerrainProof,
    /// Against fire, the unit is protected at this strength in place of its hex's fire
    /// protection, whatever the terrain (PRESTAGS Excl 3.25: a fleet's 4).
    FireProtection(u8),
    /// The unit pays no crossing cost to pass the terrain its rule's condition names
    /// (Chanson de Geste l. 92: Leaders at choke points).
    NoCrossingCost,
    /// Passing the terrain its rule's condition names takes the unit's whole move,
    /// whatever the cost (Chanson de Geste l. 92: Transport at choke points).
    WholeMove,
    /// The unit enters the terrain its rule's condition names only along a road, and
    /// there even though the terrain otherwise keeps it out (PRESTAGS Excl 2.0: Ff units
    /// into streams).
    RoadOnly,
    /// The unit is never tempted to charge a target its rule's condition describes
    /// (Chanson de Geste l. 131: Mounted Knights and targets on rough ground).
    NoTemptation,
    /// The unit may be shot at only from within this many inches (the raid: a target in
    /// cover, at close range only); the terrain its rule's condition names must give
    /// cover.
    ShotOnlyWithin(f64),
    /// The unit, losing a melee and surviving it, is pushed back this many inches (the
    /// raid, l. 42-43: 1, under `Event(LostMeleeRound)`).
    PushedBack {
        #[schemars(range(min = 0.0))]
        inches: f64,
        /// Both sides stay locked in the melee, so the winner must close up again to
        /// fight on (the raid: yes; see the `FollowUp` permission).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        stays_locked: bool,
    },
    /// The unit's charge halts this many inches short of its target, and no melee
    /// follows (Chanson de Geste l. 108: devastating fire, an inch short).
    ChargeHalted {
        #[schemars(range(min = 0.0))]
        short_by: f64,
    },
    /// The unit must spend each movement phase moving as far as it can from the nearest
    /// enemy, each hex further from every enemy than the last, off the map where it can
    /// (PRESTAGS 13.0: panicked units); the rule's note says where it may not go. The
    /// engine's `reach` keeps a fleeing unit to such steps and to the furthest hexes.
    Flees,
    /// These result codes do not affect the unit.
    Immune(Vec<String>),
    /// Result `from` is read as result `to`.
    ResultBecomes { from: String, to: String },
    /// At most this many units stand in a hex.
    StackingLimit(u8),
    /// What the unit's zone of control does.
    Zoc(ZocEffect),
    /// What entering an enemy zone of control does to the unit, in place of the
    /// system's `zones_of_control.entry`.
    ZocEntry(ZocEntry),
    /// What leaving an enemy zone of control does to the unit, in place of the
    /// system's `zones_of_control.leaving`.
    ZocLeaving(ZocLeaving),
    /// The unit may do this.
    May(Act),
    /// The unit may not do this.
    MayNot(Act),
    /// The unit must do this.
    Must(Act),
    /// Victory points to the unit's side.
    VictoryPoints(i16),
    /// A charge by the unit adds this, in place of its kind's `charge_bonus`.
    ChargeBonus(u8),
    /// Units attacking this unit gain no charge bonus (LRF 10.2: a charge counts only
    /// against a unit that cannot charge itself).
    NoChargeBonus,
    /// The unit is put at this level of the status ladder.
    ToStatus(String),
    /// The unit becomes a unit of this kind (a rider whose mount is killed fights on
    /// foot).
    Becomes(String),
    /// A loss suffered by several units fighting together is shared among them.
    ShareLosses {
        /// The first level lost goes to the acting or target unit.
        first_to_principal: bool,
        /// No unit loses more levels than the acting or target unit.
        none_above_principal: bool,
    },
}

/// An effect on zones of control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ZocEffect {
    /// The unit exerts a zone of control.
    Exerts,
    /// The unit exerts none.
    ExertsNone,
    /// The unit ignores enemy zones of control.
    Ignores,
    /// The unit may move straight from one enemy zone to another, where the system's
    /// `zones_of_control` forbids it.
    ZoneToZone,
    /// The unit's zone does not reach the hex the condition describes: with
    /// `InTerrain`, a hex of that terrain next to the unit; with `Crossing`, across a
    /// hexside with that feature; with `Through`, across a hexside of that class of its
    /// facing (PRESTAGS 16.32: a fire unit's flank). The rule is asked of the exerting
    /// unit, for each hex around it.
    Blocked,
}

/// An act a rule permits, forbids or demands.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Act {
    /// Move at all in the movement phase.
    Move,
    /// Enter a hex (with `InTerrain` or `Crossing`: this terrain, across this hexside).
    Enter,
    /// Attack at all: melee, fire or charge.
    Attack,
    /// Fire missiles (bow, crossbow, javelin) at a unit in range.
    Fire,
    /// Retreat, after combat or before it.
    Retreat,
    /// Advance into a hex a defender left after combat.
    Advance,
    /// Charge: a move that ends in an attack and gives the charge bonus.
    Charge,
    /// Attack in melee, where a system tells it from fire.
    Melee,
    /// Evade a charge.
    Evade,
    /// Change facing.
    Face,
    /// End a move in a hex (with `InTerrain`: a hex of this terrain).
    EndMove,
    /// Moor a carrier in its hex, so that units may board or leave it (PRESTAGS Excl
    /// 3.31-3.32).
    Moor,
    /// Cast off a moored carrier (PRESTAGS Excl 3.33).
    Unmoor,
    /// Take units aboard: the carrier's act, which a unit boarding it needs (PRESTAGS
    /// Excl 3.34, 3.43: a disrupted fleet takes none on).
    Load,
}

/// An optional rule: a named set of rules that applies only where a scenario switches
/// it on (`optional_rules: ["elevation"]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionalRule {
    pub id: String,
    pub name: String,
    /// The rulebook section of the option as a whole.
    pub section: String,
    /// What applies while the option is on.
    pub effects: Vec<EffectRule>,
    /// Ids of the system's `effects` that do not apply while the option is on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switches_off: Vec<String>,
    /// A sequence of play that replaces the system's while the option is on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence: Option<crate::rules::SequenceOfPlay>,
    /// Orders plotted in advance, the tasks they give and how they bind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orders: Option<Orders>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Plotted orders: each unit is given a task in a plot phase (a phase with `plots`), and
/// executes it in the phase that `executes` it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Orders {
    pub section: String,
    /// The tasks a unit may be given.
    pub tasks: Vec<Task>,
    /// At most one task per unit in a game turn.
    #[serde(default)]
    pub one_per_turn: bool,
    /// A plot may not be changed once written; a plot that cannot be carried out leaves
    /// the unit where it stands.
    #[serde(default)]
    pub binding: bool,
    /// Opposing units whose plotted moves meet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clash: Option<Clash>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A task of plotted orders.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// Stable id (`"mv"`), what `Plotted(...)` and a phase's `executes` name.
    pub id: String,
    /// The code written on the plot (`"MV"`).
    pub code: String,
    pub name: String,
    /// Who may be given it; every unit, when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub who: Option<Condition>,
    /// Result codes that, suffered in an earlier phase of the turn, cancel the task.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interrupted_by: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What happens when opposing plotted moves meet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Clash {
    pub section: String,
    /// Opposing units entering the same hex.
    pub same_hex: ClashRule,
    /// Opposing units crossing the same hexside.
    pub same_hexside: ClashRule,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// How a clash of plotted moves is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ClashRule {
    /// The force with more melee attack strength goes first; a tie goes to the higher
    /// die roll.
    StrongerFirst,
    /// Both stop where they are, without combat.
    BothStop,
}

/// Facing: which hexsides around a unit are its front, flank or rear. Hexside 0 is the
/// one the unit faces; the others are numbered clockwise from it, 0 to 5.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Facing {
    pub section: String,
    /// The classes of hexside, each with the hexsides it holds.
    pub classes: Vec<SideClass>,
    /// Movement points to change facing in place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0))]
    pub turn_cost: Option<f64>,
    /// The most hexsides a unit turns for one `turn_cost` (3: up to 180 degrees).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_up_to: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A class of hexside relative to a unit's facing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideClass {
    /// Stable id (`"front"`), what `Through(...)` and `AttackedThrough(...)` name.
    pub id: String,
    pub name: String,
    /// The hexsides of the class, 0 (faced) to 5, clockwise.
    pub hexsides: Vec<u8>,
}

/// A state a unit keeps from one game turn to the next until cleared (PRESTAGS 18.0:
/// contact), which `InState(...)` names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeptState {
    pub id: String,
    pub name: String,
    pub section: String,
    /// The acts that put the units taking part (both sides) into the state.
    pub set_by: Vec<Act>,
    /// Result codes that, when the act brings them to either side, leave the state unset.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unless: Vec<String>,
    /// Result codes that end the state for both sides when either suffers one.
    pub cleared_by: Vec<String>,
    /// Acts that end the state for the unit that does them (PRESTAGS Excl 3.33:
    /// unmooring ends a fleet's mooring).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ended_by: Vec<Act>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Who holds a hex, for control goals and `SideFact::Controls` (PRESTAGS 11.3): the
/// side whose units alone stand in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexControl {
    pub section: String,
    /// A hex no unit stands in stays with the side that held it last (the position's
    /// record, `controls`); without it, an empty hex is nobody's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub kept_when_left: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A faction: a nationality or army that a system's rules name, which a scenario's
/// sides belong to (`faction: "german"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Faction {
    pub id: String,
    pub name: String,
}

/// A kind of weather (or ground) a turn may have.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WeatherKind {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Zones of control: who exerts them, what stops them, and what they do to movement,
/// retreat and supply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneOfControl {
    pub section: String,
    /// Who exerts a zone; every combat unit, when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exerted_by: Option<Condition>,
    /// Hexside features a zone does not extend across.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked_by: Vec<String>,
    /// Terrain a zone does not extend into.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_into: Vec<String>,
    /// What entering an enemy zone does.
    pub entry: ZocEntry,
    /// What leaving one does.
    pub leaving: ZocLeaving,
    /// A unit may move straight from one enemy zone to another.
    #[serde(default)]
    pub zone_to_zone: bool,
    /// A retreat may not enter an enemy zone.
    #[serde(default)]
    pub no_retreat_into: bool,
    /// A supply trace may not enter an enemy zone (unless a friendly unit stands there).
    #[serde(default)]
    pub blocks_supply: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What entering an enemy zone of control does.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum ZocEntry {
    /// Nothing.
    Free,
    /// The unit stops.
    Stop,
    /// This many extra movement points.
    Cost(f64),
}

/// What leaving an enemy zone of control does.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum ZocLeaving {
    Free,
    /// This many extra movement points.
    Cost(f64),
    /// Only by retreat or advance after combat.
    Forbidden,
}

/// A movement mode (road, rail, strategic, naval, march): who may use it, what it
/// costs, and its constraints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovementMode {
    pub id: String,
    pub name: String,
    pub section: String,
    /// Who may use it and when; everyone, always, when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub who: Option<Condition>,
    /// What it costs, per terrain or hexside feature; terrain not listed may not be
    /// entered in this mode.
    pub costs: Vec<ModeCost>,
    /// Terrain or features a move in this mode must start on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_on: Vec<String>,
    /// Terrain or features a move in this mode must end on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub end_on: Vec<String>,
    /// A move in this mode may not start or pass next to an enemy unit.
    #[serde(default)]
    pub not_adjacent_to_enemy: bool,
    /// At most this many units per side use it in one turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity_per_turn: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One cost of a movement mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModeCost {
    /// A terrain id or a hexside feature id.
    pub on: String,
    pub cost: MoveCost,
}

/// Supply and lines of communication: how far a trace runs, what blocks it. A
/// scenario's `supply_sources` say where it runs to; what being out of supply does is
/// stated as effects with `Not(InSupply)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SupplyRules {
    pub section: String,
    /// The longest trace, in hexes.
    pub trace_length: u8,
    /// Terrain a trace may not enter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked_by_terrain: Vec<String>,
    /// Hexside features a trace may not cross.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked_by_hexsides: Vec<String>,
    /// A trace may not enter a hex with an enemy unit.
    #[serde(default)]
    pub blocked_by_enemy_units: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Replacements: what a replacement point buys and where the units come back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplacementRules {
    pub section: String,
    /// What one purchase costs and gives.
    pub buys: Vec<ReplacementBuy>,
    /// Where a unit brought back is placed.
    pub placed: ReplacementPlace,
    /// Who may receive replacements; every unit, when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub who: Option<Condition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One purchase of replacement points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplacementBuy {
    /// Points spent.
    pub cost: u8,
    pub gives: ReplacementGives,
}

/// What a replacement purchase gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ReplacementGives {
    /// A reduced unit gets a step back.
    StepBack,
    /// An eliminated unit comes back (reduced, or at full strength).
    FromEliminated { reduced: bool },
}

/// Where replaced units are placed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum ReplacementPlace {
    /// Where the unit stands (a step back).
    InPlace,
    /// On a supply source of its side.
    AtSupplySource,
    /// In the hex with this map label.
    AtLabel(String),
    /// Next to a unit of these troop types.
    WithUnit(String),
}

/// How reinforcements come onto the map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArrivalRules {
    pub section: String,
    /// Movement points a unit spends to come onto the map, on top of the entry hex's
    /// own cost (a unit entering pays for an imaginary hex off the map).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0))]
    pub entry_cost: Option<f64>,
    /// Whether the owner may hold arriving units back and bring them on in a later
    /// turn; `false`: they enter on their turn or not at all.
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub may_delay: bool,
    /// When every entry hex is held by the enemy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked: Option<BlockedEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What arriving units do when the enemy holds every entry hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum BlockedEntry {
    /// They enter at the nearest free hex of the same map edge.
    NearestFreeHex,
    /// They arrive a turn later.
    NextTurn,
    /// They are lost (counted as eliminated).
    Lost,
}

fn yes() -> bool {
    true
}

fn is_yes(b: &bool) -> bool {
    *b
}
