//! How a system organises its combats (`rules: (combat: (...))`): whether attacks are
//! compulsory and for whom, how often a unit attacks or is attacked in one combat
//! phase, which attackers and defenders one combat may combine, whether a unit's
//! strength may be split among attacks, and the advance after combat. Each rule names
//! the rulebook section it encodes; a rule the book does not print is left out.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::vocab::Condition;

/// The combat rules of a system. Every part is optional: a system states what its
/// rulebook prints.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatRules {
    /// Whether attacks are compulsory, and who they bind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compulsory: Option<CompulsoryAttacks>,
    /// How often a unit may attack, and be attacked, in one combat phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub once_per_phase: Option<OncePerPhase>,
    /// Which attackers and defenders one combat may combine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combined: Option<CombinedAttacks>,
    /// Whether a unit's strength may be split among several attacks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split_strength: Option<SplitStrength>,
    /// Who may (or must) move into a hex that combat leaves empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advance: Option<AdvanceAfterCombat>,
}

/// Whether attacks are compulsory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompulsoryAttacks {
    /// The rulebook section (`"7.11"`).
    pub section: String,
    /// What the phasing player must attack, or `Voluntary`.
    pub attacks: Obligation,
    /// Who the obligation binds: the phasing units that must attack
    /// (`EveryAdjacentUnit`) or the enemy units that must be attacked
    /// (`EveryAdjacentEnemy`), narrowed by a condition of the vocabulary (`Troop`,
    /// `Not(InEnemyZoc)`); every combat unit when left out. With `Voluntary` it binds
    /// nobody (`rules::voluntary-binds`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub who: Option<Condition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What attacks a combat phase must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Obligation {
    /// No attack is compulsory: the phasing player chooses which units attack, if any
    /// (PRESTAGS 7.11, LRF 9.1).
    Voluntary,
    /// Every enemy unit next to a phasing unit must be attacked by some unit.
    EveryAdjacentEnemy,
    /// Every phasing unit next to an enemy unit must attack.
    EveryAdjacentUnit,
    /// Both: every adjacent enemy is attacked and every adjacent phasing unit attacks.
    EveryAdjacentEnemyAndUnit,
}

impl Obligation {
    /// Whether phasing units next to an enemy are bound to attack.
    pub fn binds_attackers(self) -> bool {
        matches!(
            self,
            Self::EveryAdjacentUnit | Self::EveryAdjacentEnemyAndUnit
        )
    }

    /// Whether enemy units next to a phasing unit are bound to be attacked.
    pub fn binds_defenders(self) -> bool {
        matches!(
            self,
            Self::EveryAdjacentEnemy | Self::EveryAdjacentEnemyAndUnit
        )
    }
}

/// How often a unit takes part in combat in one combat phase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OncePerPhase {
    /// The rulebook section (`"7.14"`).
    pub section: String,
    /// A unit takes part in at most one attack per combat phase.
    pub each_attacker_once: bool,
    /// A unit is the object of at most one attack per combat phase.
    pub each_defender_once: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Which units one combat may bring together.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombinedAttacks {
    /// The rulebook section (`"7.2"`).
    pub section: String,
    /// Units in different hexes may add their strengths into one attack on the same
    /// defenders (PRESTAGS 7.21, LRF 9.1).
    pub attackers: bool,
    /// What one combat's defenders may be.
    pub defenders: DefenderGroup,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The defenders of one combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum DefenderGroup {
    /// One defending unit (LRF 9.1).
    OneDefender,
    /// The units of one hex, together: none of a stack is attacked alone (PRESTAGS
    /// 7.12-7.13).
    OneHex,
    /// The units of one or more hexes, their strengths combined, when every attacker is
    /// next to every defender (PRESTAGS 7.22-7.23).
    MultiHex,
}

/// Whether a unit's strength may be split among attacks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SplitStrength {
    /// The rulebook section (`"7.4"`).
    pub section: String,
    /// A unit may use part of its strength in one attack and the rest in another.
    pub allowed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The advance into a hex that combat leaves empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdvanceAfterCombat {
    /// The rulebook section (`"8.4"`).
    pub section: String,
    /// At most this many of the attacking units advance (LRF 9.11: one, with a
    /// commander stacked with it); every attacking unit may, when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<u8>,
    /// The advance ignores zones of control and movement allowances (LRF 9.11).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ignores_zoc: bool,
    /// A defender whose attackers leave their hex may advance into it too (LRF 9.11).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub defender_too: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}
