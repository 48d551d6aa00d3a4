//! The rules at work. An [`Engine`] holds a system's rules, a compiled terrain table and
//! a [`Position`], and answers what a game engine (or a designer) asks: where a unit can
//! move ([`Engine::reach`]), the odds of an attack ([`Engine::combat`]), whether one hex
//! sees another ([`Engine::sight`], [`Engine::range`]), whether a hex is in supply
//! ([`Engine::supply`]), where a unit may retreat ([`Engine::retreat`]) and what a
//! combat result does to a unit ([`Engine::outcome`]), whether a unit may do an act
//! where it stands ([`Engine::may`]) and which kept states an act sets or ends
//! ([`Engine::states_after`]).
//!
//! Every answer is typed, serialisable and lists the rules it used, each with its
//! rulebook section where the data gives one. The engine is pure: no IO, no clock, no
//! randomness; the same question gives the same answer.
//!
//! What the engine reads, and what it does not, is said on each query. A unit's supply
//! is traced where a condition asks it, and a flank attack is read from the attackers'
//! hexes. Play so far is the position's to say: a side's losses, morale threshold,
//! labels held and past acts, and a unit's past acts, kept states, plotted task and
//! facing (which combat reads, and `reach` where a rule keeps a unit from moving
//! through some of its hexsides).

use std::collections::HashMap;

/// A hash map with a fast hasher, for the lookups a search makes at every step.
pub(crate) type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

use muster_hex::HexId;
use muster_map::TerrainMap;
use muster_model::system::{RulesSystem, UnitKind, UnitRole};
use muster_model::vocab::EffectRule;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

mod combat;
mod cond;
mod control;
mod facing;
mod flee;
mod kept;
mod march;
mod may;
mod outcome;
mod plan;
mod position;
mod reach;
mod sight;
mod supply;

pub use combat::{
    ChargeJudgement, Combat, DieResult, ModifiedRoll, Modifier, Strength, odds_column,
};
pub use control::{Control, HeldBy, HeldHex};
pub use kept::StateChange;
pub use march::March;
pub use may::{May, act_named};
pub use outcome::Outcome;
pub use plan::{Hemmed, HemmedArrival, SideReach, Target, hemmed_arrivals, hemmed_in, side_reach};
pub use position::{Done, Position, PositionSide, Unit, from_board, from_scenario};
pub use reach::{Reach, ReachHex, UnitZoc};
pub use sight::{Blocker, Range, Sight};
pub use supply::{Retreat, RetreatHex, Supply};

/// A rule an answer used: what it is and the rulebook section, where the data gives one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct RuleRef {
    pub rule: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
}

impl RuleRef {
    pub(crate) fn new(rule: impl Into<String>, section: Option<&str>) -> Self {
        Self {
            rule: rule.into(),
            section: section.map(str::to_string),
        }
    }
}

/// Why a question cannot be answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum QueryError {
    /// No unit of the position has this id; the nearest ids follow.
    UnknownUnit { id: String, near: Vec<String> },
    /// The text is not a hex id.
    BadHex { text: String },
    /// Where a unit or a hex may be given: the text is neither a unit's id nor a hex id;
    /// the nearest unit ids follow.
    NotUnitOrHex { text: String, near: Vec<String> },
    /// The hex is not on the map.
    OffMap { hex: String },
    /// The unit's hex is not on the map.
    UnitOffMap { id: String, hex: String },
    /// No side of the position has this id.
    UnknownSide { id: String },
    /// The question makes no sense for these units (an attack on a friend, say).
    Invalid { reason: String },
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryError::UnknownUnit { id, near } if near.is_empty() => {
                write!(f, "no unit `{id}` in the position")
            }
            QueryError::UnknownUnit { id, near } => write!(
                f,
                "no unit `{id}` in the position (did you mean `{}`?)",
                near.join("`, `")
            ),
            QueryError::BadHex { text } => write!(f, "`{text}` is not a hex id (CCRR)"),
            QueryError::NotUnitOrHex { text, near } => {
                write!(
                    f,
                    "`{text}` is neither a unit of the position nor a hex id (CCRR)"
                )?;
                if !near.is_empty() {
                    write!(f, " (did you mean `{}`?)", near.join("`, `"))?;
                }
                Ok(())
            }
            QueryError::OffMap { hex } => write!(f, "hex {hex} is not on the map"),
            QueryError::UnitOffMap { id, hex } => {
                write!(f, "unit `{id}` stands on {hex}, which is not on the map")
            }
            QueryError::UnknownSide { id } => write!(f, "no side `{id}` in the position"),
            QueryError::Invalid { reason } => f.write_str(reason),
        }
    }
}

impl std::error::Error for QueryError {}

/// A unit of the position with its hex parsed and its kind found.
#[derive(Debug, Clone)]
pub(crate) struct Placed<'a> {
    pub unit: &'a Unit,
    pub hex: Option<HexId>,
    pub kind: Option<&'a UnitKind>,
    pub class: Option<&'a str>,
    /// Units of one kind, status and side move alike: they share step costs
    /// ([`Engine::step_cost`]).
    pub profile: u32,
}

impl Placed<'_> {
    pub(crate) fn role(&self) -> UnitRole {
        self.kind.map_or(UnitRole::Combat, |k| k.role)
    }
}

/// The rules, the map and the position, indexed for questions.
pub struct Engine<'a> {
    pub system: &'a RulesSystem,
    pub map: &'a TerrainMap,
    pub position: &'a Position,
    pub(crate) units: Vec<Placed<'a>>,
    pub(crate) by_hex: FastMap<HexId, Vec<usize>>,
    /// The effect rules in force: the system's, its optional and special rules the
    /// position switches on, and the position's own.
    pub(crate) effects: Vec<&'a EffectRule>,
    /// Those of them that say anything about movement (a cost, a hex not to enter), the
    /// only ones a step of a move asks about.
    pub(crate) move_rules: Vec<&'a EffectRule>,
    /// Those of them that keep a unit from ending a move somewhere (`MayNot(EndMove)`).
    pub(crate) end_rules: Vec<&'a EffectRule>,
    /// Those of them that set a stacking limit (`StackingLimit`).
    pub(crate) stack_rules: Vec<&'a EffectRule>,
    /// The hexes in an enemy zone of control, by the side they are enemies of, worked
    /// out once per engine: every search and condition asks the same.
    zoc_cache: std::cell::RefCell<ZocCache>,
    /// Step costs already worked out, by the unit's profile, the step and the movement
    /// mode: units that move alike ask the same steps again and again.
    /// With each cost, the index of the rules it came from in `cite_sets`.
    pub(crate) step_memo: std::cell::RefCell<FastMap<StepKey, Option<(f64, u32)>>>,
    /// The distinct sets of rules step costs came from, in the order first met, and
    /// their indexes.
    pub(crate) cite_sets: std::cell::RefCell<CiteSets>,
    /// Whether a hex is in supply for a side, as `InSupply` asked it.
    supply_memo: std::cell::RefCell<FastMap<(HexId, String), bool>>,
    /// Set while a supply trace is worked out, so that a zone of control asked on the
    /// way does not ask for supply again.
    tracing_supply: std::cell::Cell<bool>,
}

/// [`Engine::cite_sets`]: each set once, and where it is.
pub(crate) type CiteSets = (Vec<reach::StepCites>, FastMap<reach::StepCites, u32>);

/// A step asked of a profile of units: profile, from, to and the movement mode (its
/// index in the system's modes, 0 for ordinary movement).
pub(crate) type StepKey = (u32, HexId, HexId, usize);

type ZocCache = Vec<(
    Option<String>,
    std::rc::Rc<std::collections::HashSet<HexId>>,
)>;

impl<'a> Engine<'a> {
    pub fn new(system: &'a RulesSystem, map: &'a TerrainMap, position: &'a Position) -> Self {
        let mut profiles: FastMap<(&str, Option<&str>, Option<&str>), u32> = FastMap::default();
        let units: Vec<Placed<'a>> = position
            .units
            .iter()
            .map(|unit| {
                let kind = system.unit_kinds.iter().find(|k| k.id == unit.kind);
                let class = kind.and_then(|k| match &k.stats {
                    Some(muster_model::system::KindStats::Counter { class, .. })
                    | Some(muster_model::system::KindStats::Leader { class, .. }) => {
                        Some(class.as_str())
                    }
                    _ => None,
                });
                let key = (
                    unit.kind.as_str(),
                    unit.status.as_deref(),
                    unit.side.as_deref(),
                );
                let next = u32::try_from(profiles.len()).unwrap_or(u32::MAX);
                Placed {
                    unit,
                    hex: HexId::parse(&unit.hex).ok().filter(|h| map.contains(*h)),
                    kind,
                    class,
                    profile: *profiles.entry(key).or_insert(next),
                }
            })
            .collect();
        let mut by_hex: FastMap<HexId, Vec<usize>> = FastMap::default();
        for (i, p) in units.iter().enumerate() {
            if let Some(h) = p.hex {
                by_hex.entry(h).or_default().push(i);
            }
        }
        let rules = &system.rules;
        let on = |id: &str| position.rules_on.iter().any(|r| r == id);
        // An optional rule that is on brings its effects and switches off the system's
        // effects it names.
        let options: Vec<_> = rules.optional_rules.iter().filter(|o| on(&o.id)).collect();
        let switched_off = |id: &str| {
            options
                .iter()
                .any(|o| o.switches_off.iter().any(|x| x == id))
        };
        let mut effects: Vec<&EffectRule> = rules
            .effects
            .iter()
            .filter(|r| !switched_off(&r.id))
            .collect();
        effects.extend(rules.special_rules.iter().filter(|r| on(&r.id)));
        for option in &options {
            effects.extend(option.effects.iter());
        }
        effects.extend(position.rules.iter());
        let move_rules = effects
            .iter()
            .copied()
            .filter(|r| {
                r.then.iter().any(|e| {
                    matches!(
                        e,
                        muster_model::vocab::Effect::MoveCost(_)
                            | muster_model::vocab::Effect::MayNot(muster_model::vocab::Act::Enter)
                            | muster_model::vocab::Effect::RoadOnly
                            | muster_model::vocab::Effect::NoCrossingCost
                    )
                })
            })
            .collect();
        let end_rules = effects
            .iter()
            .copied()
            .filter(|r| {
                r.then.contains(&muster_model::vocab::Effect::MayNot(
                    muster_model::vocab::Act::EndMove,
                ))
            })
            .collect();
        let stack_rules = effects
            .iter()
            .copied()
            .filter(|r| {
                r.then
                    .iter()
                    .any(|e| matches!(e, muster_model::vocab::Effect::StackingLimit(_)))
            })
            .collect();
        Self {
            system,
            map,
            position,
            units,
            by_hex,
            effects,
            move_rules,
            end_rules,
            stack_rules,
            zoc_cache: std::cell::RefCell::new(Vec::new()),
            step_memo: Default::default(),
            cite_sets: Default::default(),
            supply_memo: Default::default(),
            tracing_supply: Default::default(),
        }
    }

    /// The index of a unit by id, or why there is none.
    pub(crate) fn unit(&self, id: &str) -> Result<usize, QueryError> {
        if let Some(i) = self.units.iter().position(|u| u.unit.id == id) {
            let p = &self.units[i];
            if p.hex.is_none() {
                return Err(QueryError::UnitOffMap {
                    id: id.to_string(),
                    hex: p.unit.hex.clone(),
                });
            }
            return Ok(i);
        }
        let mut near: Vec<&str> = self
            .units
            .iter()
            .map(|u| u.unit.id.as_str())
            .filter(|u| u.contains(id) || id.contains(*u) || strsim::levenshtein(u, id) <= 2)
            .collect();
        near.sort_unstable();
        near.dedup();
        near.truncate(3);
        Err(QueryError::UnknownUnit {
            id: id.to_string(),
            near: near.into_iter().map(str::to_string).collect(),
        })
    }

    /// A hex id of the map, or why it is not one.
    pub fn hex(&self, text: &str) -> Result<HexId, QueryError> {
        let hex = HexId::parse(text).map_err(|_| QueryError::BadHex {
            text: text.to_string(),
        })?;
        if !self.map.contains(hex) {
            return Err(QueryError::OffMap {
                hex: hex.to_string(),
            });
        }
        Ok(hex)
    }

    pub(crate) fn hex_of(&self, i: usize) -> HexId {
        self.units[i].hex.unwrap_or(HexId::new(1, 1))
    }

    /// Whether unit `i`, standing on `hex`, is within the movement control radius of a
    /// friendly leader on the map: `control_radius` hexes of a leader kind (PRESTAGS
    /// 10.2), a leader itself included. A unit without a side is taken as in command.
    pub(crate) fn in_command(&self, i: usize, hex: Option<HexId>) -> bool {
        // A unit the position gives no side has no friendly leaders to judge by.
        let Some(side) = self.units[i].unit.side.as_deref() else {
            return true;
        };
        let Some(here) = hex else {
            return false;
        };
        self.units.iter().any(|leader| {
            let radius = match leader.kind.and_then(|k| k.stats.as_ref()) {
                Some(muster_model::system::KindStats::Leader { control_radius, .. }) => {
                    *control_radius
                }
                _ => return false,
            };
            leader.unit.side.as_deref() == Some(side)
                && leader
                    .hex
                    .is_some_and(|h| self.map.distance(h, here) <= u32::from(radius))
        })
    }

    /// Whether two units are enemies: both on sides, and different ones.
    pub(crate) fn enemies(&self, a: usize, b: usize) -> bool {
        match (&self.units[a].unit.side, &self.units[b].unit.side) {
            (Some(x), Some(y)) => x != y,
            _ => false,
        }
    }

    pub(crate) fn units_at(&self, hex: HexId) -> &[usize] {
        self.by_hex.get(&hex).map_or(&[], Vec::as_slice)
    }

    /// Whether a unit is of a troop type as the rules name them: its kind id, its
    /// class, or `"*"`.
    pub(crate) fn is_troop(&self, i: usize, troop: &str) -> bool {
        let p = &self.units[i];
        troop == "*"
            || p.unit.kind == troop
            || p.class == Some(troop)
            || p.kind.is_some_and(|k| k.tags.iter().any(|t| t == troop))
    }

    /// What a permission of the system allows a unit where it stands: see
    /// [`Engine::allowance_in`].
    pub(crate) fn allowance(
        &self,
        i: usize,
        action: muster_model::rules::Action,
    ) -> Option<muster_model::rules::Allowance> {
        self.allowance_in(i, action, &cond::Facts::at(self, i, self.hex_of(i)))
    }

    /// What a permission of the system allows a unit, its typed conditions (`when`)
    /// asked with `facts`. An entry naming the unit's kind or class wins over one for
    /// `"*"`; among those, an entry whose `when` (or `status`) holds wins over one
    /// without; among equals, the last. An entry conditioned in words only
    /// (`condition`) is left out: the engine cannot judge it.
    pub(crate) fn allowance_in(
        &self,
        i: usize,
        action: muster_model::rules::Action,
        facts: &cond::Facts,
    ) -> Option<muster_model::rules::Allowance> {
        let mut best: Option<((bool, bool), muster_model::rules::Allowance)> = None;
        for p in self
            .system
            .rules
            .permissions
            .iter()
            .filter(|p| p.action == action && p.condition.is_none())
        {
            if p.except.iter().any(|t| self.is_troop(i, t)) {
                continue;
            }
            if p.when
                .as_ref()
                .is_some_and(|c| !cond::holds(self, c, facts))
                || p.status
                    .as_deref()
                    .is_some_and(|s| cond::status_of(self, i) != Some(s))
            {
                continue;
            }
            let named = p.troops.iter().any(|t| t != "*" && self.is_troop(i, t));
            if !named && !p.troops.iter().any(|t| t == "*") {
                continue;
            }
            let rank = (named, p.when.is_some() || p.status.is_some());
            if best.is_none_or(|(b, _)| rank >= b) {
                best = Some((rank, p.allowed));
            }
        }
        best.map(|(_, a)| a)
    }

    /// The terrain, features and hexside features touching a hex, by id.
    pub(crate) fn hex_has(&self, hex: HexId, id: &str) -> bool {
        self.map.terrain_id_at(hex) == Some(id)
            || self.map.feature_ids_at(hex).iter().any(|f| f == id)
            || self.map.neighbours(hex).into_iter().any(|n| {
                self.map
                    .hexside(hex, n)
                    .is_some_and(|s| s.features.iter().any(|f| f == id))
            })
    }

    /// Whether a unit of the position exerts a zone of control.
    pub(crate) fn exerts_zoc(&self, i: usize) -> bool {
        let Some(zoc) = &self.system.rules.zones_of_control else {
            return false;
        };
        if self.allowance(i, muster_model::rules::Action::ExertZoneOfControl)
            == Some(muster_model::rules::Allowance::Never)
        {
            return false;
        }
        let facts = cond::Facts::at(self, i, self.hex_of(i));
        let mut exerts = zoc
            .exerted_by
            .as_ref()
            .is_none_or(|c| cond::holds(self, c, &facts));
        // Only the rules about zones are read here, so that a rule asking whether a
        // unit is in an enemy zone never asks this again.
        let zone_rules = self.effects.iter().filter(|r| {
            r.then
                .iter()
                .any(|e| matches!(e, muster_model::vocab::Effect::Zoc(_)))
                && r.when.as_ref().is_none_or(|c| cond::holds(self, c, &facts))
        });
        for effect in zone_rules.flat_map(|r| r.then.iter()) {
            match effect {
                muster_model::vocab::Effect::Zoc(muster_model::vocab::ZocEffect::Exerts) => {
                    exerts = true
                }
                muster_model::vocab::Effect::Zoc(muster_model::vocab::ZocEffect::ExertsNone) => {
                    exerts = false
                }
                _ => {}
            }
        }
        exerts && self.units[i].role() == UnitRole::Combat
    }

    /// The rules in force with an effect `want` picks whose condition holds: a
    /// condition is read only for the rules that could matter.
    pub(crate) fn rules_giving(
        &self,
        facts: &cond::Facts,
        want: impl Fn(&muster_model::vocab::Effect) -> bool,
    ) -> Vec<&'a EffectRule> {
        self.effects
            .iter()
            .copied()
            .filter(|r| r.then.iter().any(&want))
            .filter(|r| r.when.as_ref().is_none_or(|c| cond::holds(self, c, facts)))
            .collect()
    }

    /// The hexes in a zone of control of an enemy of side `side`: every hex next to a unit
    /// exerting one, unless a blocking hexside (not bridged) lies between or the hex's
    /// terrain keeps zones out.
    pub(crate) fn enemy_zoc(
        &self,
        side: Option<&str>,
    ) -> std::rc::Rc<std::collections::HashSet<HexId>> {
        if let Some((_, set)) = self
            .zoc_cache
            .borrow()
            .iter()
            .find(|(s, _)| s.as_deref() == side)
        {
            return set.clone();
        }
        let set = std::rc::Rc::new(self.enemy_zoc_uncached(side));
        self.zoc_cache
            .borrow_mut()
            .push((side.map(str::to_string), set.clone()));
        set
    }

    /// Zones are worked out with every unit taken as in supply ([`Engine::in_supply`]),
    /// so that one answer serves every question, traces included.
    fn enemy_zoc_uncached(&self, side: Option<&str>) -> std::collections::HashSet<HexId> {
        let was = self.tracing_supply.replace(true);
        let out = self.enemy_zoc_of(side);
        self.tracing_supply.set(was);
        out
    }

    fn enemy_zoc_of(&self, side: Option<&str>) -> std::collections::HashSet<HexId> {
        let mut out = std::collections::HashSet::new();
        let Some(zoc) = &self.system.rules.zones_of_control else {
            return out;
        };
        let blockers: Vec<&EffectRule> = self
            .effects
            .iter()
            .copied()
            .filter(|r| {
                r.then.iter().any(|e| {
                    *e == muster_model::vocab::Effect::Zoc(muster_model::vocab::ZocEffect::Blocked)
                })
            })
            .collect();
        for (i, p) in self.units.iter().enumerate() {
            let (Some(h), Some(s)) = (p.hex, p.unit.side.as_deref()) else {
                continue;
            };
            if side.is_none_or(|own| own == s) || !self.exerts_zoc(i) {
                continue;
            }
            for n in self.map.neighbours(h) {
                if self.zoc_blocked(zoc, h, n) || self.zoc_blocked_by_rule(&blockers, i, h, n) {
                    continue;
                }
                out.insert(n);
            }
        }
        out
    }

    fn zoc_blocked(
        &self,
        zoc: &muster_model::vocab::ZoneOfControl,
        from: HexId,
        to: HexId,
    ) -> bool {
        let side = self.map.hexside(from, to);
        let crossed = side.is_some_and(|s| {
            let bridged = s.features.iter().any(|f| {
                self.system
                    .hexside_features
                    .iter()
                    .any(|t| &t.id == f && t.crossing)
            });
            !bridged && (s.blocks_zoc || s.features.iter().any(|f| zoc.blocked_by.contains(f)))
        });
        crossed || zoc.not_into.iter().any(|t| self.hex_has(to, t))
    }
}

impl Engine<'_> {
    /// Whether a rule `Zoc(Blocked)` keeps unit `i`'s zone, exerted from `from`, out of
    /// the next hex `to`: the rule is asked of the unit as if it stood on `to`, crossing
    /// the hexside between.
    fn zoc_blocked_by_rule(
        &self,
        blockers: &[&EffectRule],
        i: usize,
        from: HexId,
        to: HexId,
    ) -> bool {
        if blockers.is_empty() {
            return false;
        }
        let crossing: Vec<&str> = self
            .map
            .hexside(from, to)
            .map(|s| s.features.iter().map(String::as_str).collect())
            .unwrap_or_default();
        let facts = cond::Facts {
            unit: i,
            hex: Some(to),
            crossing,
            through: self.side_class(i, to),
            ..cond::Facts::default()
        };
        blockers
            .iter()
            .any(|r| r.when.as_ref().is_none_or(|c| cond::holds(self, c, &facts)))
    }
}

/// A condition's words for answers: the rule id and section.
pub(crate) fn rule_ref(rule: &EffectRule) -> RuleRef {
    RuleRef::new(
        rule.id.clone(),
        Some(rule.section.as_str()).filter(|s| !s.is_empty()),
    )
}
