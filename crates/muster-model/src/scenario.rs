//! A scenario: sides and their forces, setup, reinforcements, neutral units, special
//! rules (typed hooks), army morale thresholds and victory conditions.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Assumed;
use crate::Edge;
use crate::map::{Area, Shape};
use crate::{is_zero, one};

/// `Scenario(...)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    /// Date of the battle as the rulebook gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Rulebook and section the scenario is transcribed from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Rules system: id or path relative to this file.
    pub system: String,
    /// Counter sheet: id or path relative to this file (games whose forces are counts
    /// by unit type have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counters: Option<String>,
    /// Map: id or path relative to this file.
    pub map: String,
    /// Number of game turns.
    #[schemars(range(min = 1))]
    pub turns: u8,
    /// Optional turns that may be added (Montfaucon: 3).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra_turns: u8,
    /// Side that sets up first. Leave it out when both sides set up at once
    /// (`simultaneous_setup: true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploys_first: Option<String>,
    /// Both sides set up at the same time, neither seeing the other's set-up first
    /// (`setup::setup-order` holds it and `deploys_first` apart).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub simultaneous_setup: bool,
    /// Side that plays first (player 1).
    pub plays_first: String,
    pub sides: Vec<Side>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub neutrals: Vec<Neutral>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reinforcements: Vec<Reinforcement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_rules: Vec<SpecialRule>,
    /// Terrain ignored in this scenario; the map compiler applies these to produce the
    /// scenario's own terrain table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain_modifications: Vec<TerrainModification>,
    pub victory: Vec<VictoryCondition>,
    /// The turn record: what each turn brings (its weather), where the rules say it
    /// matters. Turns not listed have none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turn_record: Vec<TurnEntry>,
    /// Units the scenario takes off the map during play, on a turn of the turn record.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawals: Vec<Withdrawal>,
    /// The system's optional rules this scenario plays with, by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub optional_rules: Vec<String>,
    /// Replacement points each side receives (the system's `replacements`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replacement_points: Vec<ReplacementPoints>,
    /// Where each side traces supply to (the system's `supply`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supply_sources: Vec<SupplySource>,
}

/// Replacement points of one side over a range of turns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplacementPoints {
    pub side: String,
    /// Points received on each turn of `from..=to`.
    pub points: u8,
    pub from: u8,
    pub to: u8,
}

/// One turn of the turn record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnEntry {
    pub turn: u8,
    /// A weather kind of the system (`rules: (weather: [...])`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weather: Option<String>,
    /// How long the turn stands for, in minutes of the battle (a night turn, a long
    /// afternoon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u16>,
    /// What the turn brings beside its weather, in the scenario's words (nightfall, a
    /// bridge blown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Units a side must take off the map at the end of a turn (called away elsewhere).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Withdrawal {
    pub side: String,
    pub turn: u8,
    /// The counters withdrawn, from the units the side has in play by then.
    pub units: Vec<UnitGroup>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A supply source of one side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SupplySource {
    pub side: String,
    pub at: SourceAt,
}

/// Where a supply source is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum SourceAt {
    /// One hex (`"0101"`).
    Hex(String),
    /// Every hex of a map edge.
    Edge(crate::Edge),
    /// The hex with this map label.
    Label(String),
}

/// A scenario's change to the map's terrain. The names are those of the system's terrain
/// types and hexside features alike: a road drawn on hexsides is terrain that a scenario
/// can ignore (PRESTAGS 5.51 and 5.53 speak of the terrain in a road hex *other* than
/// the road). Ignored terrain counts as the map's base terrain; an ignored hexside
/// feature is taken off its hexsides. Access restrictions, labels and river flows stay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum TerrainModification {
    /// These terrain types (or hexside features) are ignored ("ignore all woods hexes");
    /// everything else, roads included, is kept.
    Ignore(Vec<String>),
    /// Everything except these is ignored: every other terrain type counts as the base
    /// terrain and every other hexside feature, roads included, is removed ("ignore all
    /// terrain except slopes").
    IgnoreAllExcept(Vec<String>),
}

impl Scenario {
    /// Last turn that can be played, optional turns included.
    pub fn last_turn(&self) -> u8 {
        self.turns.saturating_add(self.extra_turns)
    }

    pub fn side(&self, id: &str) -> Option<&Side> {
        self.sides.iter().find(|s| s.id == id)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Side {
    pub id: String,
    pub name: String,
    /// The army of the counter sheet whose counters this side uses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<String>,
    /// The faction of the system's rules this side belongs to (`rules: (factions:
    /// [...])`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faction: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale_threshold: Option<MoraleThreshold>,
    pub forces: Forces,
}

/// How a side's forces are given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Forces {
    /// Individual counters placed on hexes, group by group as the rulebook lists them.
    Placed {
        setup: Vec<SetupGroup>,
        /// The side sets up out of the other player's sight (hidden set-up): the summary
        /// says so and a rendered board (`muster render`, the preview) leaves this side's units off.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        hidden: bool,
    },
    /// Counts by unit type deployed in zones (PRESTAGS).
    Zoned(ZonedForces),
    /// Units of bases or bands of figures on an open table (miniatures).
    Table(TableForces),
}

/// `count` units of a unit kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TypeCount {
    pub kind: String,
    #[schemars(range(min = 1))]
    pub count: u16,
}

/// A zone-deployed force with its printed figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZonedForces {
    pub units: Vec<TypeCount>,
    pub deploy: Vec<Deployment>,
    /// Victory point total as printed.
    pub victory_points: u16,
    /// Panic level as printed.
    pub panic_level: u16,
    /// Units per hex (leaders not counted).
    pub stacking_limit: u8,
    /// Leadership note as printed ("Mt. Ex.": mounted units exempt from leader control).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leadership: Option<String>,
    /// An optional concrete deployment, validated against zones and stacking.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sample: Vec<SampleStack>,
}

/// Where (part of) a force deploys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deployment {
    /// Name of this group, for victory conditions ("the E-3 force").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The units of this group; empty means the whole force (or what the other groups
    /// leave).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<TypeCount>,
    /// Where the group sets up; `None` for groups that enter during play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<Zone>,
    /// The group starts aboard units of this kind (fleets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<String>,
    /// The share of the force's victory points this group must hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp_share: Option<Share>,
    /// The group enters on a map edge on a turn instead of setting up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrives: Option<Arrival>,
    #[serde(default, skip_serializing_if = "Assumed::is_empty")]
    pub assumed: Assumed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Share {
    Half,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Arrival {
    pub turn: u8,
    pub edge: Edge,
}

/// A deployment zone on a hex map.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Zone {
    /// Within `radius` hexes of a lettered hex (`H-5`).
    Near { label: String, radius: u16 },
    /// Any of several zones ("C-2 and/or D-2").
    AnyOf(Vec<Zone>),
    /// A zone without the hexes of a region ("not south of the river").
    Excluding { zone: Box<Zone>, region: Region },
    /// Any hex whose terrain is entirely sea.
    AllSea,
    /// Listed hexes.
    Hexes(Area),
}

/// A part of the map defined by its terrain.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Region {
    /// The hexes that can be reached from `edge` without entering the `barrier` terrain
    /// ("south of the river": from the south edge, barrier river).
    Bank { edge: Edge, barrier: Vec<String> },
}

/// Units standing in one hex of a sample deployment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SampleStack {
    pub hex: String,
    pub units: Vec<TypeCount>,
    /// Units carried by the fleet in this hex.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aboard: Vec<TypeCount>,
}

/// A miniatures army: units of bases organised in battles, or bands of figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableForces {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<TableUnit>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub battles: Vec<Battle>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bands: Vec<Band>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camp: Option<Camp>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traps: Vec<Trap>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<TableZone>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_point: Option<PrintedBreakPoint>,
    /// Victory points of the force as printed (skirmish).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory_points: Option<u16>,
    /// The army fails its morale after losing this share of its figures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale: Option<FigureMorale>,
}

/// A unit of bases on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableUnit {
    pub id: String,
    pub name: String,
    /// A troop type of the system.
    pub troop: String,
    pub bases: u8,
    pub formation: Formation,
    /// Centre of the unit's front edge, inches from the north-west corner.
    pub at: crate::map::Point,
    /// Direction the unit faces, degrees clockwise from north.
    pub facing: f64,
    /// Horsemen carrying missile weapons.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub missiles: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pavises: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Formation {
    /// Battle formation: bases side by side, at least two wide.
    Line,
    /// March formation: one base wide, bases one behind another.
    Column,
    Wedge,
    Schiltron,
    Skirmish,
}

/// A battle: units under one leader.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Battle {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader: Option<TableLeader>,
    /// Unit ids of this side.
    pub units: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableLeader {
    pub name: String,
    pub role: LeaderRole,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exceptional: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum LeaderRole {
    ArmyCommander,
    BattleCommander,
}

/// A band of figures (skirmish).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Band {
    pub id: String,
    pub name: String,
    pub figures: Vec<TypeCount>,
    pub entry: BandEntry,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum BandEntry {
    /// On the table at the start, in this area.
    OnTable(Shape),
    /// Enters at a named table edge; the turn is rolled on a die unless given.
    AtEdge {
        edge: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<u8>,
    },
    /// Both the turn and the edge are rolled on a die, among these edges.
    Rolled { edges: Vec<String> },
}

/// A camp: immobile transport in an area.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Camp {
    pub area: Shape,
    /// Transport bases forming the camp.
    pub transport_bases: u8,
}

/// A hidden trap laid before the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Trap {
    pub area: Shape,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A deployment zone on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableZone {
    pub id: String,
    pub area: Shape,
}

/// The break point as printed, with the adjustments that explain it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrintedBreakPoint {
    pub printed: u16,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adjustments: Vec<BreakPointAdjustment>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BreakPointAdjustment {
    pub points: i16,
    pub reason: String,
}

/// Army morale as a share of figures lost, with the figure count that share comes to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FigureMorale {
    /// Percentage of the force's figures.
    pub loss_percent: u8,
    /// The number of figures lost at which the army's morale fails.
    pub figures: u16,
    /// Figure kinds not counted (cattle).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_counted: Vec<String>,
}

/// One setup line: these units go to these places.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupGroup {
    /// The army of the counter sheet these units come from, when the side fields more
    /// than one (an allied contingent); without it, the side's `army`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<String>,
    pub units: Vec<UnitGroup>,
    pub at: Placement,
    /// The owner picks this many of the units listed (each line's `count` copies
    /// counted) and sets up only those; the places then hold this many units
    /// (`setup::choose-out-of-range` holds it between 1 and the units listed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choose: Option<u8>,
}

/// `count` copies of one counter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitGroup {
    /// Counter id from the side's army.
    pub counter: String,
    #[serde(default = "one")]
    #[schemars(range(min = 1))]
    pub count: u8,
    /// The status the units start at: a level id of the system's status ladder
    /// (`rules: (status: (levels: [...]))`). Without it they start at the ladder's first
    /// level, full strength. A level below the first puts a two-step counter on its
    /// reduced side (the summary counts its `reduced` strength); a one-step counter and
    /// a level that removes the unit cannot start that way (`setup::unknown-status`,
    /// `setup::impossible-status`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

/// Where a setup group goes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Placement {
    /// One hex per unit; the owner chooses which unit goes where.
    Hexes(Vec<String>),
    /// A printed range such as `0307 à 0309`: one unit per hex of the range.
    Range(String, String),
    /// Stacked on a friendly unit of this side matching the kind and/or counter.
    OnUnit {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        counter: Option<String>,
    },
    /// Anywhere on the straight run `from..=to`, with at least `min_gap` empty hexes
    /// between two units of the group; the owner chooses.
    Spaced {
        from: String,
        to: String,
        #[serde(default)]
        min_gap: u8,
    },
    /// Off the map, in one of the side's holding boxes. The units count against the
    /// counter sheet but stand on no hex, so no hex, stacking or terrain check reads them.
    Box(HoldingBox),
}

/// A holding box beside the map where units wait instead of standing on a hex.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum HoldingBox {
    /// Units held back that the owner may bring on during play.
    Reserves,
    /// The replacement pool: units (or steps) the owner may rebuild from.
    Replacements,
    /// Units counted as eliminated from the start, for losses and victory.
    Eliminated,
}

impl HoldingBox {
    /// The box's name in words.
    pub fn name(self) -> &'static str {
        match self {
            HoldingBox::Reserves => "reserves box",
            HoldingBox::Replacements => "replacement pool",
            HoldingBox::Eliminated => "eliminated box",
        }
    }
}

/// A unit belonging to no side at the start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Neutral {
    /// Army of the counter sheet the counter comes from.
    pub army: String,
    pub units: Vec<UnitGroup>,
    pub at: Placement,
}

/// Units arriving during the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reinforcement {
    pub side: String,
    /// The army of the counter sheet these units come from, when the side fields more
    /// than one; without it, the side's `army`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<String>,
    pub turn: u8,
    pub units: Vec<UnitGroup>,
    /// The hexes the owner may choose from to enter.
    pub entry: Vec<String>,
    /// Where the entry hexes lie: on a map edge (the default, units marching on from
    /// off the map), or anywhere on the map when the scenario says the units appear
    /// there (a garrison sallying from a town, a landing, a rising).
    #[serde(default, skip_serializing_if = "Arrive::is_edge")]
    pub arrive: Arrive,
}

/// Where a reinforcement's entry hexes may lie.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Arrive {
    /// On a map edge: the units enter from off the map (`reinforcements::entry-not-on-edge`
    /// holds every entry hex to an edge).
    #[default]
    Edge,
    /// Anywhere on the map: the units appear in one of the entry hexes, wherever it is.
    Anywhere,
}

impl Arrive {
    pub fn is_edge(&self) -> bool {
        *self == Arrive::Edge
    }
}

/// A special rule: a hook from muster's registry with typed parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialRule {
    /// Registered hook id (`"impassable-area"`); `muster explain` lists them.
    pub hook: String,
    /// Parameters, checked against the hook's own schema.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub params: serde_json::Value,
    /// The author's one-line summary of the rule.
    pub text: String,
    /// The rulebook section, for a rule stated here in the vocabulary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// When the rule applies: narrows a rule the system declares under this id, or
    /// conditions the effects given here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<crate::vocab::Condition>,
    /// The rule's effects, stated in the vocabulary (`hook` is then the rule's own id).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<crate::vocab::Effect>,
}

/// The loss total at which an army breaks (LRF rule 10).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum MoraleThreshold {
    Fixed(u16),
    /// Threshold depends on how many units of `counter` are lost: entry `n` is the
    /// threshold when `n` are lost (Brissarthe: 25, 21, 17, 13 by baggage lost).
    ByLosses {
        counter: String,
        thresholds: Vec<u16>,
    },
}

/// How good a result is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum VictoryLevel {
    Draw,
    Minor,
    Major,
    Decisive,
}

/// A victory condition. The standard army morale rule is implied by every LRF
/// scenario and written out as `ArmyMorale` so engines need not know it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum VictoryCondition {
    /// A side at or past its morale threshold gives the other a major victory, by
    /// `before_turn` if given.
    ArmyMorale {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before_turn: Option<u8>,
    },
    /// At the end of `after_turn`, the side with the lower eliminated force wins at `level`;
    /// equal totals are a draw.
    FewestLosses { after_turn: u8, level: VictoryLevel },
    /// At the end of `after_turn`, the side whose threshold exceeds its losses by more wins.
    LargestMargin { after_turn: u8, level: VictoryLevel },
    /// `side` wins at a level by the number of `counter` units it exits through `hexes`.
    ExitUnits {
        side: String,
        counter: String,
        hexes: Area,
        after_turn: u8,
        tiers: Vec<ExitTier>,
    },
    /// If no other condition gave a result, `side` wins at `level`.
    Otherwise { side: String, level: VictoryLevel },
    /// After a victory of at least `requires`, `side` may play `turns` more turns and
    /// reach `level` by eliminating `count` units of `counter`.
    ExtraTurns {
        side: String,
        requires: VictoryLevel,
        turns: u8,
        counter: String,
        count: u8,
        level: VictoryLevel,
    },
    /// Eliminating `count` units among `counters` (enemy counter ids) moves the result
    /// one level in `side`'s favour.
    ShiftOnEliminations {
        side: String,
        counters: Vec<String>,
        count: u8,
    },
    /// `side` wins if it fulfils every goal of any one of the `any_of` lists (PRESTAGS).
    Goals {
        side: String,
        any_of: Vec<Vec<Goal>>,
    },
    /// What happens when both sides fulfil their goals.
    IfBoth(Outcome),
    /// `side` wins outright when it fulfils every one of its `Goals` alternatives,
    /// whatever the other side achieved (Tours: the Franks, both conditions).
    WinsIfAllMet { side: String },
    /// What happens when neither does.
    IfNeither(Outcome),
    /// `side` wins at `level` once `test` holds (by the end of turn `by_turn` if given,
    /// else by the end of the game). Tests compose: `AllOf`, `AnyOf`.
    Achieves {
        side: String,
        level: VictoryLevel,
        test: VictoryTest,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by_turn: Option<u8>,
    },
    /// A race: the first side whose test holds wins at `level`; when two hold in the
    /// same turn, `tie` says what follows (a draw if not given).
    FirstTo {
        level: VictoryLevel,
        races: Vec<Race>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tie: Option<Outcome>,
    },
}

/// One side's test in a [`VictoryCondition::FirstTo`] race.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Race {
    pub side: String,
    pub test: VictoryTest,
}

/// What a side must achieve, composable. Units are named as the rules name troop
/// types: by unit kind id, by class, or `"*"` for every unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum VictoryTest {
    /// Every test holds.
    AllOf(Vec<VictoryTest>),
    /// At least one test holds.
    AnyOf(Vec<VictoryTest>),
    /// The side has at least this many victory points.
    Points(u16),
    /// At least `count` of the side's own units of these troop types have left the map
    /// (through `through`, if given: a map edge or a set of hexes).
    Exited {
        units: Vec<String>,
        count: u16,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        through: Option<ExitThrough>,
    },
    /// At least `count` enemy units of these troop types are eliminated.
    Eliminated { units: Vec<String>, count: u16 },
    /// The side controls every one of these labelled hexes.
    Controls(Vec<String>),
    /// The enemy side is demoralised (its losses reached its morale threshold).
    EnemyDemoralised,
}

/// Where exiting units leave the map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum ExitThrough {
    /// Anywhere along this map edge.
    Edge(Edge),
    /// From one of these hexes.
    Hexes(Area),
}

/// The result of a game when goals collide.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Outcome {
    Draw,
    Wins(String),
}

/// One thing a side must achieve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Goal {
    /// Reach a named victory level of the system ("Marginal").
    Level(String),
    /// Control (or occupy) labelled hexes, at the end or for consecutive turns.
    Control {
        labels: Vec<String>,
        #[serde(default, skip_serializing_if = "is_zero")]
        consecutive_turns: u8,
    },
    /// Control a hex named by position ("the bridge hex between F and H").
    ControlHex { hex: String },
    /// Exit units off a map edge.
    Exit {
        units: u16,
        edge: Edge,
        /// Within `radius` hexes of a label.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        near: Option<(String, u16)>,
        /// How many of them must leave by road.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by_road: Option<u16>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by_turn: Option<u8>,
        /// Unit kinds that do not count.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        excluding: Vec<String>,
    },
    /// Have units in (or move units to) all-sea hexes.
    InSea {
        units: u16,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by_turn: Option<u8>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        excluding: Vec<String>,
    },
    /// Eliminate a deployment group of the enemy entirely.
    Eliminate { side: String, group: String },
    /// Get figures of a kind off the table at a named edge (skirmish objectives).
    Escort { kind: String, edge: String },
    /// Prevent the other side's goals.
    Prevent,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExitTier {
    /// At least this many units exited.
    pub at_least: u8,
    pub level: VictoryLevel,
}
