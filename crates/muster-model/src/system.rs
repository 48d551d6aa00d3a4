//! A rules system: unit kinds, the terrain effects chart, hexside features, the
//! combat results table, the stacking policy and the army morale scoring.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::rules::Rules;
use crate::{Assumed, HexLayout};

/// `System(...)`: everything a scenario of this game takes for granted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename = "System")]
pub struct RulesSystem {
    /// Short id that scenarios use to name this system (`"lrf"`).
    pub id: String,
    pub name: String,
    /// Where the rules come from (title, publisher, edition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub grid: GridKind,
    pub unit_kinds: Vec<UnitKind>,
    pub terrain: Vec<TerrainType>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hexside_features: Vec<HexsideFeatureType>,
    /// The rulebook section that gives terrain and hexsides their effects in combat
    /// (LRF 9.6, the PRESTAGS terrain effects chart 9.0): the section a terrain's or a
    /// hexside's column shift or die modifier cites.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain_section: Option<String>,
    /// The rulebook section that gives terrain and hexsides their movement costs (LRF 7
    /// and its terrain effects chart, PRESTAGS 5.11): what a move's terrain costs cite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement_section: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat_results: Option<CombatResultsTable>,
    pub stacking: StackingPolicy,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army_morale: Option<ArmyMoraleScoring>,
    /// How victory points are computed from a force (PRESTAGS 11.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory_points: Option<VictoryPointRule>,
    /// Named victory levels by the ratio of the two sides' victory points (PRESTAGS 11.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub victory_levels: Vec<VictoryLevelRule>,
    /// Unit kinds that carry others (PRESTAGS fleets).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carriers: Vec<Carrier>,
    /// How a miniatures army's break point is computed (Chanson de Geste).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_point: Option<BreakPointRule>,
    /// Typed rules an engine plays by and checks reason about: the sequence of play,
    /// unit status, result tables, what troop types may do, morale tests and more.
    #[serde(default, skip_serializing_if = "Rules::is_empty")]
    pub rules: Box<Rules>,
    /// Facts of the system that are kept as data for engines (fleet capacity, panic).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(default, skip_serializing_if = "Assumed::is_empty")]
    pub assumed: Assumed,
}

/// Victory points of a unit kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum VictoryPointRule {
    /// Half the melee strength rounded up, plus the fire strength (a dot counts as 1).
    HalfMeleeRoundedUpPlusFire,
    /// The `victory_points` of each figure type (skirmish).
    PerFigure,
}

/// A victory level: own VP to enemy VP at least `at_least` to 1 (and below the next level).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VictoryLevelRule {
    pub name: String,
    /// Ratio own : enemy that must be exceeded (`exclusive`) or reached.
    pub ratio: f64,
    #[serde(default)]
    pub exclusive: bool,
}

/// Break points (Chanson de Geste): an army's break point is its number of bases (the
/// camp's included, leaders not); losses score against it: each lost base its troop
/// type's `break_points`, a sacked camp `camp`, a lost leader the values below.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BreakPointRule {
    /// Points for a sacked camp.
    pub camp: u16,
    pub army_commander: u16,
    pub battle_commander: u16,
    /// Added for an exceptional leader.
    pub exceptional: u16,
    /// Typical numbers the rules describe (warnings outside them).
    #[serde(default)]
    pub typical_battles: Option<(u8, u8)>,
    #[serde(default)]
    pub typical_units_per_battle: Option<(u8, u8)>,
    /// Largest and smallest unit in bases.
    pub min_bases: u8,
    pub max_bases: u8,
    /// Points scored for each unbroken unit at a status level (Chanson de Geste: 1 per
    /// Demoralized unit).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub status_points: Vec<StatusPoints>,
}

/// Break points scored for each unbroken unit at a status level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatusPoints {
    /// A level of the system's status ladder (`rules.status`).
    pub level: String,
    pub points: u16,
}

/// The playing surface the system's maps use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum GridKind {
    /// Hex map with printed `CCRR` numbers.
    Hex { layout: HexLayout },
    /// Open table measured in inches (miniatures): the terrain feature kinds it knows and
    /// the cost of turning.
    Table {
        features: Vec<TableFeatureType>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing_change: Option<FacingChange>,
    },
}

/// What a unit kind is for; drives stacking and morale scoring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum UnitRole {
    /// Fights and holds a hex on its own.
    Combat,
    /// A leader: adds to the unit it stacks with.
    Commander,
    /// Baggage, camps, ships treated as baggage.
    Baggage,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitKind {
    pub id: String,
    pub name: String,
    pub role: UnitRole,
    #[serde(default)]
    pub mounted: bool,
    /// Has a range value and may fire.
    #[serde(default)]
    pub missile: bool,
    /// May charge for a strength bonus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge_bonus: Option<u8>,
    /// Names a rule may pick the kind by besides its id and class (`Troop("elite")`,
    /// `Troop("guard")`): a tag groups kinds that no class groups.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Printed values of this kind, for systems that print them per type rather than per
    /// counter (PRESTAGS 3.4, miniatures troop and figure types).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<KindStats>,
    /// The rulebook lists the kind without values; `stats` is left empty rather than invented.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unknown: bool,
    #[serde(default, skip_serializing_if = "Assumed::is_empty")]
    pub assumed: Assumed,
}

/// A melee strength as printed: a number, a dot (counts as 1), or a bracketed number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Melee {
    Value(u8),
    Dot,
    Bracketed(u8),
}

impl Melee {
    /// The strength used for victory points: a dot is 1, brackets keep their number.
    pub fn points(self) -> u8 {
        match self {
            Melee::Value(n) | Melee::Bracketed(n) => n,
            Melee::Dot => 1,
        }
    }
}

/// Values printed for a unit kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum KindStats {
    /// A counter type of a hex game (PRESTAGS): class, melee, fire, range, movement.
    Counter {
        class: String,
        melee: Melee,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fire: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        range: Option<u8>,
        movement: f64,
        /// Games of the series the type appears in (letters as printed).
        #[serde(default)]
        games: String,
    },
    /// A leader counter: its level, combat bonus and movement control radius.
    Leader {
        level: u8,
        combat_bonus: u8,
        control_radius: u8,
        melee: Melee,
        class: String,
        movement: f64,
        #[serde(default)]
        games: String,
    },
    /// A miniatures troop type (Chanson de Geste): base size in inches, figures per
    /// base, break points lost per base destroyed, missile range.
    Troop {
        base_width: f64,
        base_depth: f64,
        figures_min: u8,
        figures_max: u8,
        break_points: u8,
        /// Whether horsemen of this type may carry missile weapons (the scenario says which do).
        #[serde(default)]
        may_have_missiles: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        missile_range: Option<f64>,
        /// May enter very rough ground.
        #[serde(default = "yes")]
        very_rough: bool,
        #[serde(default)]
        foot: bool,
    },
    /// A skirmish figure type (Viking raid): movement, morale, melee kill numbers,
    /// missile weapon, victory points.
    Figure {
        movement: f64,
        morale: u8,
        /// Natural die rolls on which a figure of this type that loses a melee is killed.
        #[serde(default)]
        killed_on: Vec<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        missile: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        victory_points: Option<u16>,
        /// Points the owner scores for each figure of this type brought off the table
        /// (the raid's cattle: 5 each), where that differs from `victory_points`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        escort_points: Option<u16>,
    },
}

fn yes() -> bool {
    true
}

/// Cost of entering a hex or crossing a hexside.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum MoveCost {
    /// Movement points spent.
    Points(f64),
    /// Extra points on top of the hex cost (hexside features).
    Extra(f64),
    /// May not be entered or crossed.
    Impassable,
}

/// One effect of terrain on combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum CombatEffect {
    /// Added to the attacker's die roll when this terrain defends.
    DieModifier(i8),
    /// Columns shifted on the results table (negative favours the defender).
    ColumnShift(i8),
    /// A unit here may not retreat.
    NoRetreat,
    /// Cancels a charge into this terrain.
    NoCharge,
}

/// A row of the terrain effects chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainType {
    pub id: String,
    pub name: String,
    pub movement: MoveCost,
    /// Cost when entered along a road hexside, if different.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub along_road: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub combat: Vec<CombatEffect>,
    /// Fire Protection Strength of a hex of this terrain against missile fire (PRESTAGS
    /// 6.22), if the system uses one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fire_protection: Option<u8>,
    /// Unit kinds or classes that may not enter (`"*"` for all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prohibited: Vec<String>,
    /// Unit kinds or classes that may enter even though `prohibited` names them (or `"*"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed: Vec<String>,
    /// Only ever a hex's own terrain, never added to a hex as a further feature (a map's
    /// `AddTerrain`): a river or the sea does not share a hex.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub base_only: bool,
    #[serde(default, skip_serializing_if = "Assumed::is_empty")]
    pub assumed: Assumed,
}

impl TerrainType {
    /// Whether a unit of `kind` (with its `class`, if any) may enter, by the
    /// `prohibited` / `allowed` lists; impassable terrain is never enterable.
    pub fn admits(&self, kind: &str, class: Option<&str>) -> bool {
        if self.movement == MoveCost::Impassable && self.allowed.is_empty() {
            return false;
        }
        let names = |list: &[String]| list.iter().any(|p| p == kind || Some(p.as_str()) == class);
        if names(&self.allowed) {
            return true;
        }
        if self.movement == MoveCost::Impassable {
            return false;
        }
        !(names(&self.prohibited) || self.prohibited.iter().any(|p| p == "*"))
    }
}

/// How the terrains of one hex combine when a map adds features to it (a village in
/// woods): the rule an engine applies to the hex's own terrain and its features.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainCombine {
    /// The movement cost to enter the hex.
    pub cost: CostCombine,
    /// The die modifiers and the column shifts of its terrains, each combined apart.
    pub combat: EffectCombine,
}

/// How the movement costs of a hex's terrains combine. Impassable terrain keeps the hex
/// impassable under `MostCostly` and `Cumulative`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum CostCombine {
    /// The highest cost of the hex's terrains.
    MostCostly,
    /// The costs of all its terrains added up.
    Cumulative,
    /// The cost of the hex's own terrain; features change nothing.
    Base,
}

/// How the die modifiers (and, apart, the column shifts) of a hex's terrains combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum EffectCombine {
    /// The strongest one (largest in size, the hex's own terrain winning a tie).
    Strongest,
    /// All of them added up.
    Cumulative,
    /// The hex's own terrain's only.
    Base,
}

/// A unit kind that carries others (fleets): how many and where it may go.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Carrier {
    pub kind: String,
    /// Units aboard one carrier at most.
    pub capacity: u8,
    /// At most this many carriers in one hex.
    pub per_hex: u8,
    /// Movement points the carrier spends to moor, where it takes on or leaves off
    /// units (PRESTAGS Excl 3.32: seven).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moor_cost: Option<f64>,
    /// Movement points the moored carrier spends to cast off (PRESTAGS Excl 3.33: five).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unmoor_cost: Option<f64>,
    /// Movement points a unit spends to board the moored carrier (PRESTAGS Excl 3.43:
    /// two).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_cost: Option<f64>,
    /// Movement points a unit spends to leave the moored carrier into an adjacent hex
    /// (PRESTAGS Excl 3.41: two, the step ashore included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unload_cost: Option<f64>,
    /// Terrain a unit leaving the carrier may not step into.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unload_not_into: Vec<String>,
}

/// A feature drawn on a hexside (river, creek, road, bridge).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexsideFeatureType {
    pub id: String,
    pub name: String,
    /// Cost of crossing, on top of (or instead of) the hex entered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<MoveCost>,
    #[serde(default)]
    pub blocks_movement: bool,
    #[serde(default)]
    pub blocks_zoc: bool,
    /// Cancels `blocks_movement` and `blocks_zoc` of other features on the same hexside.
    #[serde(default)]
    pub crossing: bool,
    /// Combat effects when the defender is behind this hexside.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub combat: Vec<CombatEffect>,
    /// How pictures of a map (`muster render`) draw the feature: `Hexside` (the
    /// default), a bar along the hexside between the two hexes, or `Through`, a line from
    /// hex centre to hex centre across the hexside. The drawing has no bearing on the
    /// rules: a road or a railroad is declared `Through` whatever it costs.
    #[serde(default, skip_serializing_if = "FeatureDraw::is_default")]
    pub draw: FeatureDraw,
    #[serde(default, skip_serializing_if = "Assumed::is_empty")]
    pub assumed: Assumed,
}

/// How a hexside feature is drawn on a picture of the map.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum FeatureDraw {
    /// A bar along the hexside (rivers, creeks, walls, hedges); a `crossing` feature
    /// (a bridge) is a short bar across it. The default.
    #[default]
    Hexside,
    /// A line from the centre of one hex to the centre of the other, through the
    /// hexside: a way along which units move (roads, tracks, railroads).
    Through,
}

impl FeatureDraw {
    /// Whether this is the default (`Hexside`), which files leave out.
    pub fn is_default(&self) -> bool {
        *self == Self::Hexside
    }
}

/// The combat results table as printed: a result table read by odds (or, with
/// `index: Differential`, by the attack strength minus the defence strength), one
/// column per heading, one row per die roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatResultsTable {
    /// What the columns are read by: odds, the default, or the differential.
    #[serde(default, skip_serializing_if = "CrtIndex::is_odds")]
    pub index: CrtIndex,
    /// Column headings, lowest first. By odds, each a higher ratio than the one before:
    /// attacker to defender as two whole numbers joined by `/`, `-` or `:` (`"1/2"`,
    /// `"2-1"`); [`odds_ratio`] reads one. By differential, each a whole number
    /// (`"-3"`, `"0"`, `"+4"`) or a range of them (`"-2..-1"`, `"+5..+7"`) starting
    /// one above the column before; [`differential_range`] reads one. A value between
    /// two columns is read as `rounding` says.
    pub odds: Vec<String>,
    /// One row per die roll, with no roll missing between the lowest and the highest.
    pub rows: Vec<CrtRow>,
    /// Result codes and what they mean (`D1` = defender loses one step).
    pub results: Vec<ResultCode>,
    /// How a ratio between two columns is read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounding: Option<OddsRounding>,
    /// What an attack below the first column gets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub below_first: Option<BeyondTable>,
    /// What an attack above the last column gets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub above_last: Option<BeyondTable>,
    /// What a roll that die modifiers carry past the first or the last row reads; left
    /// out, such a roll has no result the table prints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolls_beyond: Option<BeyondRows>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What the columns of a combat results table are read by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum CrtIndex {
    /// The ratio of attack strength to defence strength (`"3/1"`). The default.
    #[default]
    Odds,
    /// The attack strength minus the defence strength (`"-2"`, `"+3"`, `"4..6"`).
    Differential,
}

impl CrtIndex {
    /// Whether this is the default (`Odds`), which files leave out.
    pub fn is_odds(&self) -> bool {
        *self == Self::Odds
    }

    /// What the columns are read by, in words: `odds` or `differential`.
    pub fn words(self) -> &'static str {
        match self {
            Self::Odds => "odds",
            Self::Differential => "differential",
        }
    }
}

/// How odds (or a fractional differential) between two columns are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum OddsRounding {
    /// In the column at or below the odds (in the defender's favour); a differential
    /// rounded down.
    ForDefender,
    /// In the column at or above the odds; a differential rounded up.
    ForAttacker,
}

/// What an attack beyond an edge of the table gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum BeyondTable {
    /// It is read in the edge column.
    EdgeColumn,
    /// It may not be made.
    NotAllowed,
    /// The attackers are eliminated.
    AttackerEliminated,
    /// The defenders are eliminated.
    DefenderEliminated,
}

/// What a modified die roll past the rows of the table reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum BeyondRows {
    /// The edge row: no modified roll goes above the highest face or below the lowest
    /// (PRESTAGS Excl 3.72 and 3.82: a six stays six, a one stays one).
    EdgeRow,
}

/// What a result code does, typed: whom it names, then what befalls them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum ResultEffect {
    /// The codes after it befall the attacker.
    Attacker,
    /// The codes after it befall the defender.
    Defender,
    /// This many step losses.
    StepLoss(u8),
    /// A retreat of this many hexes.
    Retreat(u8),
    /// A morale check.
    MoraleCheck,
    /// Disruption.
    Disrupted,
    /// Half the units removed.
    HalfEliminated,
    /// Every unit removed.
    Eliminated,
    /// Both sides lose, the side with less losing all and the other as much.
    Exchange(ExchangeBy),
    /// The winner may advance into the hex left empty.
    AdvanceAfterCombat,
    /// Nothing happens.
    NoEffect,
}

/// What an exchange is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ExchangeBy {
    /// Steps lost.
    Steps,
    /// Printed combat strength eliminated.
    PrintedStrength,
}

impl CombatResultsTable {
    /// The column an attack at `attacker` against `defender` strength is read in, by
    /// the table's `index`: [`column_for_odds`](Self::column_for_odds) or
    /// [`column_for_differential`](Self::column_for_differential) of their difference.
    pub fn column_for(&self, attacker: f64, defender: f64) -> Option<usize> {
        match self.index {
            CrtIndex::Odds => self.column_for_odds(attacker, defender),
            CrtIndex::Differential => self.column_for_differential(attacker - defender),
        }
    }

    /// The column a differential (attack minus defence strength) is read in: a
    /// fraction rounded by `rounding` (down for the defender, the default; up for the
    /// attacker), then the column whose range holds it; in a gap between two columns,
    /// the lower one for the defender, the higher for the attacker; beyond either edge
    /// by `below_first` and `above_last` as for odds. Headings that do not read as
    /// differentials are skipped.
    pub fn column_for_differential(&self, differential: f64) -> Option<usize> {
        if !differential.is_finite() {
            return None;
        }
        let for_defender =
            self.rounding.unwrap_or(OddsRounding::ForDefender) == OddsRounding::ForDefender;
        let d = if for_defender {
            differential.floor()
        } else {
            differential.ceil()
        };
        let ranges: Vec<(usize, (i32, i32))> = self
            .odds
            .iter()
            .enumerate()
            .filter_map(|(i, h)| Some((i, differential_range(h)?)))
            .collect();
        let (first, last) = (ranges.first()?, ranges.last()?);
        if d < f64::from(first.1.0) {
            return self.below(first.0);
        }
        if d > f64::from(last.1.1) {
            return self.above(last.0);
        }
        if for_defender {
            ranges
                .iter()
                .rev()
                .find(|(_, (low, _))| f64::from(*low) <= d)
        } else {
            ranges.iter().find(|(_, (_, high))| f64::from(*high) >= d)
        }
        .map(|(i, _)| *i)
    }

    /// The column of an attack below the first column (`first`): that column with
    /// `below_first: EdgeColumn`, else none.
    fn below(&self, first: usize) -> Option<usize> {
        (self.below_first == Some(BeyondTable::EdgeColumn)).then_some(first)
    }

    /// The column of an attack above the last column (`last`): that column with
    /// `above_last: EdgeColumn` or untold, else none.
    fn above(&self, last: usize) -> Option<usize> {
        match self.above_last {
            None | Some(BeyondTable::EdgeColumn) => Some(last),
            Some(_) => None,
        }
    }

    /// The column an attack at `attacker` to `defender` strength is read in by odds:
    /// by `rounding` (the highest column at or below the ratio for the defender, the
    /// default; the lowest at or above it for the attacker), and beyond either edge by
    /// `below_first` and `above_last` (`EdgeColumn`: the edge column; otherwise, or when
    /// the table does not say, `None` below the first column and the last column above
    /// the last). Headings that do not read as ratios are skipped.
    pub fn column_for_odds(&self, attacker: f64, defender: f64) -> Option<usize> {
        let ratios: Vec<(usize, (u32, u32))> = self
            .odds
            .iter()
            .enumerate()
            .filter_map(|(i, h)| Some((i, odds_ratio(h)?)))
            .collect();
        let at_least = |(a, d): (u32, u32)| attacker * f64::from(d) >= defender * f64::from(a);
        let at_most = |(a, d): (u32, u32)| attacker * f64::from(d) <= defender * f64::from(a);
        let (first, last) = (ratios.first()?, ratios.last()?);
        if !at_least(first.1) {
            return self.below(first.0);
        }
        if !at_most(last.1) {
            return self.above(last.0);
        }
        match self.rounding.unwrap_or(OddsRounding::ForDefender) {
            OddsRounding::ForDefender => ratios.iter().rev().find(|(_, r)| at_least(*r)),
            OddsRounding::ForAttacker => ratios.iter().find(|(_, r)| at_most(*r)),
        }
        .map(|(i, _)| *i)
    }
}

/// An odds heading as attacker and defender numbers: `"3/2"`, `"3-2"` and `"3:2"` are
/// `(3, 2)`; `None` for anything else (both numbers above zero).
pub fn odds_ratio(heading: &str) -> Option<(u32, u32)> {
    let (a, d) = heading.split_once(['/', '-', ':'])?;
    let (a, d): (u32, u32) = (a.trim().parse().ok()?, d.trim().parse().ok()?);
    (a > 0 && d > 0).then_some((a, d))
}

/// A differential heading as its lowest and highest value: `"-3"` is `(-3, -3)`,
/// `"+4"` and `"4"` are `(4, 4)`, `"-2..-1"` is `(-2, -1)`; `None` for anything else
/// (a range must not run backwards).
pub fn differential_range(heading: &str) -> Option<(i32, i32)> {
    fn number(s: &str) -> Option<i32> {
        let s = s.trim();
        let (sign, body) = match (s.strip_prefix('+'), s.strip_prefix('-')) {
            (Some(body), _) => (1, body),
            (None, Some(body)) => (-1, body),
            (None, None) => (1, s),
        };
        if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        body.parse::<i32>().ok().map(|n| sign * n)
    }
    match heading.split_once("..") {
        Some((low, high)) => {
            let (low, high) = (number(low)?, number(high)?);
            (low <= high).then_some((low, high))
        }
        None => number(heading).map(|n| (n, n)),
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrtRow {
    pub die: u8,
    pub results: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultCode {
    pub code: String,
    pub meaning: String,
    /// The meaning, typed: a side code (`Attacker`, `Defender`), what befalls the side,
    /// or both (`D`: `[Defender, Disrupted]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<ResultEffect>,
}

/// How many units may share a hex.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum StackingPolicy {
    /// At most `combat_units` combat units per hex; riders (commanders, baggage) may
    /// join a friendly combat unit, up to `max` of each role.
    UnitsPerHex {
        combat_units: u8,
        riders: Vec<Rider>,
    },
    /// A per-side number of units per hex set by each scenario; units of the classes in
    /// `not_counted` (leaders) are ignored; the classes present in a hex must all belong
    /// to one of the `compatible` groups (PRESTAGS 5.32-5.38).
    PerSideLimit {
        not_counted: Vec<String>,
        compatible: Vec<Vec<String>>,
    },
    /// No limit enforced by the system (scenario or play-time rules decide).
    Unlimited,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rider {
    pub role: UnitRole,
    pub max: u8,
    /// May stand alone in a hex (without a combat unit).
    #[serde(default)]
    pub may_stand_alone: bool,
}

/// How an army's losses are scored against its morale threshold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmyMoraleScoring {
    /// Points added on top of its strength when a commander is eliminated.
    pub commander_bonus: u8,
    /// Points added on top of its strength when a baggage unit is eliminated.
    pub baggage_bonus: u8,
}

/// Declares a struct of an open-table feature with the fields that say how troops move
/// through and across it, written once for the system's [`TableFeatureType`] and the
/// compiled table's [`CompiledFeature`](crate::table::CompiledFeature), which copies
/// them from it. The struct's own fields come first; those in `between` come after the
/// movement factor and cover, those in `after` at the end (the order is the serialized
/// order).
macro_rules! feature_with_movement {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($before:tt)*
        }
        between { $($between:tt)* }
        after { $($after:tt)* }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $($before)*
            /// Inches of movement spent per inch moved (1.0 = open ground); `None` = impassable.
            pub movement_factor: Option<f64>,
            /// Gives cover from missiles.
            #[serde(default)]
            pub cover: bool,
            $($between)*
            /// Unit kinds that may not enter.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub forbidden: Vec<String>,
            /// Troop types that move at another factor here (Irregulars at full speed in rough
            /// ground, Knights at 4 in very rough).
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub troop_factors: Vec<$crate::system::TroopFactor>,
            /// Flat inches spent to cross (linear obstacles) or to pass (choke points, on top of
            /// the distance moved).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub crossing_cost: Option<f64>,
            /// Linear obstacles: a move that crosses the line is made at this factor over its
            /// whole length (inches spent per inch moved; the raid's obstacles halve movement:
            /// 2.0). A line has no length to move along, so `movement_factor` never applies to
            /// crossing it.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub crossing_factor: Option<f64>,
            /// The factor applies only to units in march formation (roads).
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            pub march_only: bool,
            $($after)*
        }
    };
}
pub(crate) use feature_with_movement;

feature_with_movement! {
    /// A kind of terrain feature on an open table and what it does.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct TableFeatureType {
        pub id: String,
        pub name: String,
        pub class: FeatureClass,
    }
    between {}
    after {
        #[serde(default, skip_serializing_if = "Assumed::is_empty")]
        pub assumed: Assumed,
    }
}

/// A troop type's own movement factor in a kind of terrain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TroopFactor {
    pub troop: String,
    pub factor: f64,
}

/// Costs of turning on an open table (Chanson de Geste movement factors).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FacingChange {
    /// Inches spent per facing change.
    pub cost: f64,
    /// Troop types whose first facing change in a move is free.
    #[serde(default)]
    pub first_free: Vec<String>,
    /// Troop types whose facing changes are all free.
    #[serde(default)]
    pub all_free: Vec<String>,
}

/// The broad classes of table terrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum FeatureClass {
    Open,
    Rough,
    VeryRough,
    /// Hedge, wall, ditch: crossed, not entered.
    LinearObstacle,
    /// Bridge, gate: passable one unit at a time.
    ChokePoint,
    Road,
    Hill,
    Woods,
    WaterLogged,
    Water,
    Building,
    /// Field works, palisades, a fortified camp: stood in or crossed (Chanson de Geste:
    /// Mounted Knights are never tempted to charge targets in or across them).
    Fortification,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of these headings, read by `index`, with no rows and nothing told of
    /// rounding or the edges.
    fn table(index: CrtIndex, headings: &[&str]) -> CombatResultsTable {
        CombatResultsTable {
            index,
            odds: headings.iter().map(|h| h.to_string()).collect(),
            rows: vec![],
            results: vec![],
            rounding: None,
            below_first: None,
            above_last: None,
            rolls_beyond: None,
            note: None,
        }
    }

    /// The table rounded for the attacker, read in the first column below it and
    /// refused above the last.
    fn for_attacker_with_edges(crt: CombatResultsTable) -> CombatResultsTable {
        CombatResultsTable {
            rounding: Some(OddsRounding::ForAttacker),
            below_first: Some(BeyondTable::EdgeColumn),
            above_last: Some(BeyondTable::NotAllowed),
            ..crt
        }
    }

    #[test]
    fn odds_headings_read_as_ratios() {
        assert_eq!(odds_ratio("1/2"), Some((1, 2)));
        assert_eq!(odds_ratio("8-1"), Some((8, 1)));
        assert_eq!(odds_ratio(" 3 : 2 "), Some((3, 2)));
        for bad in ["evens", "0/1", "1/0", "-1/2", "1/2/3", "1.5/1", ""] {
            assert_eq!(odds_ratio(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_attack_is_read_in_the_column_at_or_below_its_odds() {
        let crt = table(CrtIndex::Odds, &["1/2", "1/1", "3/2", "2/1"]);
        assert_eq!(crt.column_for(1.0, 3.0), None);
        assert_eq!(crt.column_for(1.0, 2.0), Some(0));
        assert_eq!(crt.column_for(7.0, 5.0), Some(1));
        assert_eq!(crt.column_for(3.0, 2.0), Some(2));
        assert_eq!(crt.column_for(9.0, 1.0), Some(3));
        // Rounded for the attacker, 7 to 5 is read at 3/2; beyond the edges as told.
        let crt = for_attacker_with_edges(crt);
        assert_eq!(crt.column_for(7.0, 5.0), Some(2));
        assert_eq!(crt.column_for(1.0, 1.0), Some(1));
        assert_eq!(crt.column_for(1.0, 3.0), Some(0));
        assert_eq!(crt.column_for(2.0, 1.0), Some(3));
        assert_eq!(crt.column_for(9.0, 1.0), None);
    }

    #[test]
    fn differential_headings_read_as_ranges() {
        assert_eq!(differential_range("-3"), Some((-3, -3)));
        assert_eq!(differential_range("0"), Some((0, 0)));
        assert_eq!(differential_range("+4"), Some((4, 4)));
        assert_eq!(differential_range(" -2..-1 "), Some((-2, -1)));
        assert_eq!(differential_range("+5..+7"), Some((5, 7)));
        for bad in [
            "", "+", "-", "3/1", "1..", "..2", "2..1", "1.5", "--1", "+-1", "x",
        ] {
            assert_eq!(differential_range(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_attack_by_differential_is_read_in_the_column_holding_it() {
        let crt = table(
            CrtIndex::Differential,
            &["-2..-1", "0", "+1", "+2..+4", "+5"],
        );
        // Inside the table, by the column whose range holds the differential.
        assert_eq!(crt.column_for(4.0, 6.0), Some(0));
        assert_eq!(crt.column_for(5.0, 6.0), Some(0));
        assert_eq!(crt.column_for(6.0, 6.0), Some(1));
        assert_eq!(crt.column_for(7.0, 6.0), Some(2));
        assert_eq!(crt.column_for(10.0, 6.0), Some(3));
        assert_eq!(crt.column_for(11.0, 6.0), Some(4));
        // A fraction is rounded for the defender: +0.5 is read at 0, -0.5 at -1.
        assert_eq!(crt.column_for(6.5, 6.0), Some(1));
        assert_eq!(crt.column_for(5.5, 6.0), Some(0));
        // Beyond the edges, untold: none below, the last column above.
        assert_eq!(crt.column_for(3.0, 6.0), None);
        assert_eq!(crt.column_for(30.0, 6.0), Some(4));
        assert_eq!(crt.column_for_differential(f64::NAN), None);
        // Rounded for the attacker and with the edges told.
        let crt = for_attacker_with_edges(crt);
        assert_eq!(crt.column_for(6.5, 6.0), Some(2));
        assert_eq!(crt.column_for(5.5, 6.0), Some(1));
        assert_eq!(crt.column_for(0.0, 6.0), Some(0));
        assert_eq!(crt.column_for(11.0, 6.0), Some(4));
        assert_eq!(crt.column_for(11.5, 6.0), None);
        assert_eq!(crt.column_for(12.0, 6.0), None);
    }

    #[test]
    fn a_differential_in_a_gap_is_read_by_the_rounding() {
        // `+2` has no column: the defender's rounding reads it at +1, the attacker's at +3.
        let crt = table(CrtIndex::Differential, &["0", "+1", "+3"]);
        assert_eq!(crt.column_for_differential(2.0), Some(1));
        let crt = CombatResultsTable {
            rounding: Some(OddsRounding::ForAttacker),
            ..crt
        };
        assert_eq!(crt.column_for_differential(2.0), Some(2));
        // An odds table never reads a differential heading, nor the reverse.
        assert_eq!(
            table(CrtIndex::Differential, &["1/1", "2/1"]).column_for(5.0, 1.0),
            None
        );
        let odds = table(CrtIndex::Odds, &["0", "+1"]);
        assert_eq!(odds.column_for(2.0, 1.0), None);
    }
}
