//! A scenario: sides and their forces, setup, reinforcements, neutral units, special
//! rules (typed hooks), army morale thresholds and victory conditions.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::map::Area;
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
    /// Counter sheet: id or path relative to this file.
    pub counters: String,
    /// Map: id or path relative to this file.
    pub map: String,
    /// Number of game turns.
    #[schemars(range(min = 1))]
    pub turns: u8,
    /// Optional turns that may be added (Montfaucon: 3).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra_turns: u8,
    /// Side that sets up first.
    pub deploys_first: String,
    /// Side that plays first (player 1).
    pub plays_first: String,
    pub sides: Vec<Side>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub neutrals: Vec<Neutral>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reinforcements: Vec<Reinforcement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_rules: Vec<SpecialRule>,
    pub victory: Vec<VictoryCondition>,
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
    pub army: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale_threshold: Option<MoraleThreshold>,
    pub forces: Forces,
}

/// How a side's forces are given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Forces {
    /// Individual counters placed on hexes, group by group as the rulebook lists them.
    Placed { setup: Vec<SetupGroup> },
}

/// One setup line: these units go to these places.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupGroup {
    pub units: Vec<UnitGroup>,
    pub at: Placement,
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
    pub turn: u8,
    pub units: Vec<UnitGroup>,
    /// The hexes the owner may choose from to enter.
    pub entry: Vec<String>,
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
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExitTier {
    /// At least this many units exited.
    pub at_least: u8,
    pub level: VictoryLevel,
}
