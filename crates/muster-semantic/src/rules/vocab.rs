//! The rules vocabulary (`muster_model::vocab`) as checks ask about it: every rule with
//! its place and group ([`effect_rules`]), every name a condition or an effect refers
//! to ([`system_walk`], [`scenario_walk`]), whether a
//! condition can ever hold ([`never_holds`]), when two conditions are the same
//! ([`canonical`]), which effects exclude each other ([`disagree`]) and which unit kinds
//! a condition could ever admit ([`admits_kind`]).
//!
//! Nothing here judges: the `rules::*` checks hold the findings.

use muster_db::place::Place;
use muster_model::rules::{MoraleEvent, SequenceOfPlay};
use muster_model::scenario::{Scenario, SourceAt, VictoryTest};
use muster_model::system::{KindStats, Melee, RulesSystem, UnitKind};
use muster_model::vocab::{Condition, Effect, EffectRule, ReplacementPlace, SideFact};

use super::names::{NameKind, NameRef};
use super::specificity;

/// The names of a vocabulary walk, with the map labels kept apart: a system has no map,
/// so its labels are resolved against each scenario's.
#[derive(Debug, Default)]
pub struct Walk<'a> {
    pub names: Vec<NameRef<'a>>,
    pub labels: Vec<(Place, &'a str)>,
}

impl<'a> Walk<'a> {
    fn name(&mut self, at: Place, kind: NameKind, name: &'a str) {
        self.names.push(NameRef { at, kind, name });
    }
    fn each(&mut self, list: Place, kind: NameKind, names: &'a [String]) {
        for (k, n) in names.iter().enumerate() {
            self.name(list.index(k), kind, n);
        }
    }

    /// The names of a condition at `at`; `side` says what `Side(...)` names there (a
    /// faction in a system, a side in a scenario).
    pub fn condition(&mut self, c: &'a Condition, at: &Place, side: NameKind) {
        match c {
            Condition::All(list) | Condition::Any(list) => {
                let variant = list_variant(c);
                for (k, inner) in list.iter().enumerate() {
                    self.condition(inner, &at.variant(variant).index(k), side);
                }
            }
            Condition::Not(inner) => self.condition(inner, &at.variant("Not"), side),
            Condition::StackedWithUnit(inner) => {
                self.condition(inner, &at.variant("StackedWithUnit"), side)
            }
            Condition::Opponent(inner) => self.condition(inner, &at.variant("Opponent"), side),
            Condition::Behind(inner) => self.condition(inner, &at.variant("Behind"), side),
            Condition::Near { unit, .. } => {
                self.condition(unit, &at.variant("Near").field("unit"), side)
            }
            Condition::FollowsLeader(inner) => {
                self.condition(inner, &at.variant("FollowsLeader"), side)
            }
            Condition::Side(s) => self.name(at.variant("Side"), side, s),
            Condition::Troop(t) => self.name(at.variant("Troop"), NameKind::Troop, t),
            Condition::StackedWith(t) => self.name(at.variant("StackedWith"), NameKind::Troop, t),
            Condition::Status(s) => self.name(at.variant("Status"), NameKind::Level, s),
            Condition::Weather(w) => self.name(at.variant("Weather"), NameKind::Weather, w),
            Condition::Phase(p) => self.name(at.variant("Phase"), NameKind::Phase, p),
            Condition::InTerrain(t) => self.name(at.variant("InTerrain"), NameKind::Terrain, t),
            Condition::OpponentIn(t) => self.name(at.variant("OpponentIn"), NameKind::Terrain, t),
            Condition::Crossing(f) => self.name(at.variant("Crossing"), NameKind::Feature, f),
            Condition::AllAttackersAcross(f) => {
                self.name(at.variant("AllAttackersAcross"), NameKind::Feature, f)
            }
            Condition::Moving(m) => self.name(at.variant("Moving"), NameKind::Mode, m),
            Condition::Counter(c) => self.name(at.variant("Counter"), NameKind::Counter, c),
            Condition::Through(x) => self.name(at.variant("Through"), NameKind::SideClass, x),
            Condition::AttackedThrough(x) => {
                self.name(at.variant("AttackedThrough"), NameKind::SideClass, x)
            }
            Condition::InState(x) => self.name(at.variant("InState"), NameKind::State, x),
            Condition::Plotted(x) => self.name(at.variant("Plotted"), NameKind::Task, x),
            Condition::Event(MoraleEvent::CombatResult(code)) => self.name(
                at.variant("Event").variant("CombatResult"),
                NameKind::Code,
                code,
            ),
            Condition::Event(MoraleEvent::LosesLevels { table, .. }) => self.name(
                at.variant("Event").variant("LosesLevels").field("table"),
                NameKind::Table,
                table,
            ),
            Condition::OwnSide(SideFact::Controls(l)) => self
                .labels
                .push((at.variant("OwnSide").variant("Controls"), l)),
            Condition::EnemySide(SideFact::Controls(l)) => self
                .labels
                .push((at.variant("EnemySide").variant("Controls"), l)),
            Condition::OwnSide(
                SideFact::Demoralised
                | SideFact::LossesAtLeast(_)
                | SideFact::ControlsAtLeast(_)
                | SideFact::ActedBefore(_)
                | SideFact::ActedInEarlierTurn(_)
                | SideFact::Leadership(_),
            )
            | Condition::EnemySide(
                SideFact::Demoralised
                | SideFact::LossesAtLeast(_)
                | SideFact::ControlsAtLeast(_)
                | SideFact::ActedBefore(_)
                | SideFact::ActedInEarlierTurn(_)
                | SideFact::Leadership(_),
            )
            | Condition::Turns { .. }
            | Condition::Attacking
            | Condition::Defending
            | Condition::AdjacentToEnemy
            | Condition::InEnemyZoc
            | Condition::InSupply
            | Condition::InCommand
            | Condition::Panicked
            | Condition::Bracketed
            | Condition::DotMelee
            | Condition::Surrounded
            | Condition::Outpaces(_)
            | Condition::Higher
            | Condition::Lower
            | Condition::Did { .. }
            | Condition::InFormation(_)
            | Condition::Carrying
            | Condition::ContactedOn(_)
            | Condition::PassedThrough(_)
            | Condition::Outnumbers(_)
            | Condition::NearestOpponent
            | Condition::Event(_) => {}
        }
    }

    /// The names of the effects of a list at `list`.
    pub fn effects(&mut self, effects: &'a [Effect], list: &Place) {
        for (k, e) in effects.iter().enumerate() {
            let at = list.index(k);
            match e {
                Effect::Immune(codes) => self.each(at.variant("Immune"), NameKind::Code, codes),
                Effect::ResultBecomes { from, to } => {
                    let v = at.variant("ResultBecomes");
                    self.name(v.field("from"), NameKind::Code, from);
                    self.name(v.field("to"), NameKind::Code, to);
                }
                Effect::ToStatus(s) => self.name(at.variant("ToStatus"), NameKind::Level, s),
                Effect::Becomes(k) => self.name(at.variant("Becomes"), NameKind::Kind, k),
                Effect::FallsWith { with, .. } => {
                    self.each(at.variant("FallsWith").field("with"), NameKind::Troop, with)
                }
                Effect::MoveCost(_)
                | Effect::OddsShift(_)
                | Effect::DieModifier(_)
                | Effect::MoraleRoll(_)
                | Effect::Strength(_)
                | Effect::FinalStrength(_)
                | Effect::LeaderBonus { .. }
                | Effect::FixedStrength(_)
                | Effect::FireProtection(_)
                | Effect::MoveAllowance(_)
                | Effect::TerrainProof
                | Effect::NoCrossingCost
                | Effect::WholeMove
                | Effect::RoadOnly
                | Effect::NoTemptation
                | Effect::ShotOnlyWithin(_)
                | Effect::PushedBack { .. }
                | Effect::ChargeHalted { .. }
                | Effect::Flees
                | Effect::StackingLimit(_)
                | Effect::Zoc(_)
                | Effect::ZocEntry(_)
                | Effect::ZocLeaving(_)
                | Effect::May(_)
                | Effect::MayNot(_)
                | Effect::Must(_)
                | Effect::VictoryPoints(_)
                | Effect::NoChargeBonus
                | Effect::ChargeBonus(_)
                | Effect::ShareLosses { .. } => {}
            }
        }
    }

    /// The names of a sequence of play at `at`: the factions of its phases and the
    /// tasks they execute.
    fn sequence(&mut self, seq: &'a SequenceOfPlay, at: &Place) {
        for (part, i, phase) in seq.phases() {
            let p = at.field(part.field()).index(i);
            self.each(p.field("sides"), NameKind::Faction, &phase.sides);
            self.each(p.field("executes"), NameKind::Task, &phase.executes);
        }
    }

    fn rule(&mut self, rule: &'a EffectRule, at: &Place, side: NameKind) {
        if let Some(c) = &rule.when {
            self.condition(c, &at.field("when"), side);
        }
        self.effects(&rule.then, &at.field("then"));
    }
}

/// Where a rule of the vocabulary stands in a system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleGroup {
    /// `rules.effects`, always on.
    Effects,
    /// The special rule at this index of `rules.special_rules`.
    Special(usize),
    /// A rule of the optional rule at this index of `rules.optional_rules`.
    Optional(usize),
}

/// A rule of a system's vocabulary with its place and the group it belongs to.
#[derive(Debug, Clone)]
pub struct PlacedRule<'a> {
    pub at: Place,
    pub group: RuleGroup,
    pub rule: &'a EffectRule,
    /// What it is in words (`rule `mud``, `rule `uphill` of optional rule `elevation``).
    pub what: String,
}

/// Every rule of a system's vocabulary, in file order: its effects, its special rules,
/// then the rules of its optional rules.
pub fn effect_rules(system: &RulesSystem) -> Vec<PlacedRule<'_>> {
    let rules = &system.rules;
    let base = Place::rules();
    let mut out = Vec::new();
    for (i, rule) in rules.effects.iter().enumerate() {
        out.push(PlacedRule {
            at: base.field("effects").index(i),
            group: RuleGroup::Effects,
            rule,
            what: format!("rule `{}`", rule.id),
        });
    }
    for (i, rule) in rules.special_rules.iter().enumerate() {
        out.push(PlacedRule {
            at: base.field("special_rules").index(i),
            group: RuleGroup::Special(i),
            rule,
            what: format!("rule `{}`", rule.id),
        });
    }
    for (i, o) in rules.optional_rules.iter().enumerate() {
        let list = base.field("optional_rules").index(i).field("effects");
        for (k, rule) in o.effects.iter().enumerate() {
            out.push(PlacedRule {
                at: list.index(k),
                group: RuleGroup::Optional(i),
                rule,
                what: format!("rule `{}` of optional rule `{}`", rule.id, o.id),
            });
        }
    }
    out
}

/// [`effect_rules`] in their groups (the system's effects, then each special and each
/// optional rule on its own), each rule with its place: what the checks that compare
/// rules compare within.
pub fn effect_rule_groups(system: &RulesSystem) -> Vec<Vec<(Place, &EffectRule)>> {
    let mut groups: Vec<(RuleGroup, Vec<(Place, &EffectRule)>)> = Vec::new();
    for r in effect_rules(system) {
        match groups.last_mut() {
            Some((group, rules)) if *group == r.group => rules.push((r.at, r.rule)),
            _ => groups.push((r.group, vec![(r.at, r.rule)])),
        }
    }
    groups.into_iter().map(|(_, rules)| rules).collect()
}

/// Every name the vocabulary part of a system's rules refers to: its effects and
/// special rules, typed permission conditions, who compulsory attacks bind, zones of control, movement modes, supply and built-in hooks, with the
/// map labels its conditions name.
pub fn system_walk(system: &RulesSystem) -> Walk<'_> {
    let rules = &system.rules;
    let base = Place::rules();
    let mut w = Walk::default();
    for r in effect_rules(system) {
        w.rule(r.rule, &r.at, NameKind::Faction);
    }
    if let Some(who) = super::combat::compulsory(system).and_then(|c| c.who.as_ref()) {
        let at = base.field("combat").field("compulsory").field("who");
        w.condition(who, &at, NameKind::Faction);
    }
    for (i, p) in rules.permissions.iter().enumerate() {
        if let Some(c) = &p.when {
            let at = base.field("permissions").index(i).field("when");
            w.condition(c, &at, NameKind::Faction);
        }
    }
    if let Some(z) = &rules.zones_of_control {
        let at = base.field("zones_of_control");
        if let Some(c) = &z.exerted_by {
            w.condition(c, &at.field("exerted_by"), NameKind::Faction);
        }
        w.each(at.field("blocked_by"), NameKind::Feature, &z.blocked_by);
        w.each(at.field("not_into"), NameKind::Terrain, &z.not_into);
    }
    for (i, m) in rules.movement_modes.iter().enumerate() {
        let at = base.field("movement_modes").index(i);
        if let Some(c) = &m.who {
            w.condition(c, &at.field("who"), NameKind::Faction);
        }
        for (k, cost) in m.costs.iter().enumerate() {
            w.name(
                at.field("costs").index(k).field("on"),
                NameKind::Ground,
                &cost.on,
            );
        }
        w.each(at.field("start_on"), NameKind::Ground, &m.start_on);
        w.each(at.field("end_on"), NameKind::Ground, &m.end_on);
    }
    if let Some(s) = &rules.supply {
        let at = base.field("supply");
        w.each(
            at.field("blocked_by_terrain"),
            NameKind::Terrain,
            &s.blocked_by_terrain,
        );
        w.each(
            at.field("blocked_by_hexsides"),
            NameKind::Feature,
            &s.blocked_by_hexsides,
        );
    }
    if let Some(r) = &rules.replacements {
        let at = base.field("replacements");
        if let Some(c) = &r.who {
            w.condition(c, &at.field("who"), NameKind::Faction);
        }
        match &r.placed {
            ReplacementPlace::AtLabel(l) => {
                w.labels.push((at.field("placed").variant("AtLabel"), l))
            }
            ReplacementPlace::WithUnit(t) => {
                w.name(at.field("placed").variant("WithUnit"), NameKind::Troop, t)
            }
            ReplacementPlace::InPlace | ReplacementPlace::AtSupplySource => {}
        }
    }
    if let Some(seq) = &rules.sequence {
        w.sequence(seq, &base.field("sequence"));
    }
    for (i, o) in rules.optional_rules.iter().enumerate() {
        let at = base.field("optional_rules").index(i);
        w.each(at.field("switches_off"), NameKind::Rule, &o.switches_off);
        if let Some(seq) = &o.sequence {
            w.sequence(seq, &at.field("sequence"));
        }
        for (k, task) in o.orders.iter().flat_map(|o| o.tasks.iter().enumerate()) {
            let t = at.field("orders").field("tasks").index(k);
            if let Some(c) = &task.who {
                w.condition(c, &t.field("who"), NameKind::Faction);
            }
            w.each(
                t.field("interrupted_by"),
                NameKind::Code,
                &task.interrupted_by,
            );
        }
    }
    for (i, st) in rules.states.iter().enumerate() {
        let at = base.field("states").index(i);
        w.each(at.field("unless"), NameKind::Code, &st.unless);
        w.each(at.field("cleared_by"), NameKind::Code, &st.cleared_by);
    }
    w.each(base.field("hooks"), NameKind::Hook, &rules.hooks);
    w
}

/// The names of [`system_walk`] (labels left out: see [`Walk`]).
pub fn system_names(system: &RulesSystem) -> Vec<NameRef<'_>> {
    system_walk(system).names
}

/// What a name of a scenario's vocabulary names, beside the system's names: a side of
/// the scenario, or a label of its map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScenarioName {
    /// A name of the system's kinds.
    System(NameKind),
    /// A side of this scenario.
    Side,
    /// A counter of this scenario's counter sheet.
    Counter,
}

/// Every name a scenario's vocabulary refers to: its special rules' conditions and
/// effects, its turn record's weather, its sides' factions and its supply sources'
/// sides, with the map labels they name. `Side(...)` in a scenario's rule names one of
/// its sides, reported with [`NameKind::Faction`] replaced by a side lookup (see
/// [`ScenarioName`]).
pub fn scenario_walk(s: &Scenario) -> ScenarioWalk<'_> {
    let mut w = Walk::default();
    let mut sides: Vec<NameRef> = Vec::new();
    for (i, rule) in s.special_rules.iter().enumerate() {
        let at = Place::special_rule(i);
        if let Some(c) = &rule.when {
            // `Faction` stands for "a side" in this walk; it is renamed below.
            w.condition(c, &at.field("when"), NameKind::Faction);
        }
        w.effects(&rule.then, &at.field("then"));
    }
    for (i, o) in s.optional_rules.iter().enumerate() {
        w.name(Place::top("optional_rules").index(i), NameKind::Optional, o);
    }
    for t in crate::victory::victory_tests(s) {
        match t.test {
            VictoryTest::Exited { units, .. } => w.each(
                t.at.variant("Exited").field("units"),
                NameKind::Troop,
                units,
            ),
            VictoryTest::Eliminated { units, .. } => w.each(
                t.at.variant("Eliminated").field("units"),
                NameKind::Troop,
                units,
            ),
            VictoryTest::AllOf(_)
            | VictoryTest::AnyOf(_)
            | VictoryTest::Points(_)
            | VictoryTest::Controls(_)
            | VictoryTest::EnemyDemoralised => {}
        }
    }
    for (i, t) in s.turn_record.iter().enumerate() {
        if let Some(weather) = &t.weather {
            let at = Place::top("turn_record").index(i).field("weather");
            w.name(at, NameKind::Weather, weather);
        }
    }
    let mut out: Vec<(ScenarioName, NameRef)> = w
        .names
        .into_iter()
        .map(|n| match n.kind {
            NameKind::Faction => (ScenarioName::Side, n),
            NameKind::Counter => (ScenarioName::Counter, n),
            kind => (ScenarioName::System(kind), n),
        })
        .collect();
    for (i, side) in s.sides.iter().enumerate() {
        if let Some(f) = &side.faction {
            out.push((
                ScenarioName::System(NameKind::Faction),
                NameRef {
                    at: Place::side(i).field("faction"),
                    kind: NameKind::Faction,
                    name: f,
                },
            ));
        }
    }
    for (i, r) in s.replacement_points.iter().enumerate() {
        sides.push(NameRef {
            at: Place::top("replacement_points").index(i).field("side"),
            kind: NameKind::Faction,
            name: &r.side,
        });
    }
    let mut labels = w.labels;
    for (i, source) in s.supply_sources.iter().enumerate() {
        let at = Place::top("supply_sources").index(i);
        sides.push(NameRef {
            at: at.field("side"),
            kind: NameKind::Faction,
            name: &source.side,
        });
        if let SourceAt::Label(l) = &source.at {
            labels.push((at.field("at").variant("Label"), l));
        }
    }
    out.extend(sides.into_iter().map(|n| (ScenarioName::Side, n)));
    ScenarioWalk { names: out, labels }
}

/// The names of a scenario's vocabulary ([`scenario_walk`]).
#[derive(Debug, Default)]
pub struct ScenarioWalk<'a> {
    pub names: Vec<(ScenarioName, NameRef<'a>)>,
    pub labels: Vec<(Place, &'a str)>,
}

/// A condition's canonical text: nested `All`s and `Any`s flattened, their members
/// sorted and each kept once, double negation removed. Two conditions with the same
/// text hold for the same units at the same moments.
pub fn canonical(c: &Condition) -> String {
    fn members(c: &Condition, all: bool, out: &mut Vec<String>) {
        match c {
            Condition::All(list) if all => list.iter().for_each(|x| members(x, all, out)),
            Condition::Any(list) if !all => list.iter().for_each(|x| members(x, all, out)),
            other => out.push(canonical(other)),
        }
    }
    match c {
        Condition::All(_) | Condition::Any(_) => {
            let all = matches!(c, Condition::All(_));
            let mut list = Vec::new();
            members(c, all, &mut list);
            list.sort();
            list.dedup();
            if list.len() == 1 {
                return list.remove(0);
            }
            format!("{}[{}]", if all { "All" } else { "Any" }, list.join(","))
        }
        Condition::Not(inner) => match inner.as_ref() {
            Condition::Not(x) => canonical(x),
            x => format!("Not({})", canonical(x)),
        },
        other => format!("{other:?}"),
    }
}

/// The canonical text of an optional condition; a missing one always holds.
pub fn canonical_when(c: Option<&Condition>) -> String {
    c.map_or_else(|| "All[]".to_string(), canonical)
}

/// Why a condition can never hold, if it provably cannot: an empty `Any`, a turn range
/// that is empty or (with `turns`, the game's last turn) outside the game, or an `All`
/// that asks two things no unit can be at once (two sides, two statuses, two weathers,
/// two phases, a phase of other sides' turns only, two movement modes, two unit kinds,
/// attacking and defending, higher and lower, a condition and its negation),
/// `Panicked` in a system with no `panic`, or a table game's geometry (formations,
/// sides, ranks, bands) on a hex map.
pub fn never_holds(c: &Condition, system: &RulesSystem, turns: Option<u8>) -> Option<String> {
    never_holds_in(
        c,
        system,
        &Game {
            last_turn: turns,
            labels: None,
        },
    )
}

/// What one game bounds a condition by, where it is known.
#[derive(Debug, Clone, Copy, Default)]
pub struct Game {
    /// The game's last turn.
    pub last_turn: Option<u8>,
    /// How many distinct labels its map has.
    pub labels: Option<usize>,
}

/// [`never_holds`] within one game: with the map's labels known, a side cannot hold
/// more labelled hexes than the map has (`ControlsAtLeast`).
pub fn never_holds_in(c: &Condition, system: &RulesSystem, game: &Game) -> Option<String> {
    let turns = game.last_turn;
    match c {
        Condition::Any(list) if list.is_empty() => {
            Some("`Any([])` has no member that could hold".to_string())
        }
        Condition::Any(list) => {
            let reasons: Vec<String> = list
                .iter()
                .filter_map(|x| never_holds_in(x, system, game))
                .collect();
            (reasons.len() == list.len()).then(|| reasons.join("; "))
        }
        Condition::Not(inner) if always_holds(inner) => {
            Some(format!("`{}` always holds", canonical(inner)))
        }
        Condition::Turns { from, to } if from > to => {
            Some(format!("turn {from} comes after turn {to}"))
        }
        Condition::Turns { from: 0, to: 0 } => Some("turns are counted from 1".to_string()),
        Condition::Turns { from, .. } if turns.is_some_and(|last| *from > last) => Some(format!(
            "the game ends with turn {}",
            turns.unwrap_or_default()
        )),
        Condition::OwnSide(SideFact::ControlsAtLeast(n))
        | Condition::EnemySide(SideFact::ControlsAtLeast(n))
            if game.labels.is_some_and(|l| usize::from(*n) > l) =>
        {
            Some(format!(
                "no side can hold {n} labelled hexes on a map that has {}",
                game.labels.unwrap_or_default()
            ))
        }
        Condition::All(list) => list
            .iter()
            .find_map(|x| never_holds_in(x, system, game))
            .or_else(|| exclusive_pair(list, system)),
        Condition::StackedWithUnit(inner) => never_holds_in(inner, system, game)
            .map(|why| format!("no unit stacked with it can match: {why}")),
        Condition::Opponent(inner) => never_holds_in(inner, system, game)
            .map(|why| format!("no unit it fights can match: {why}")),
        Condition::Near { within, .. } if *within < 0.0 => Some(format!(
            "no unit stands less than 0 away, and `within` is {}",
            within
        )),
        Condition::Near { unit, .. } => never_holds_in(unit, system, game)
            .map(|why| format!("no unit near it can match: {why}")),
        Condition::InFormation(f) => on_hexes(
            system,
            format!("units on a hex map stand in no formation, so none is in `{f:?}`"),
        ),
        Condition::ContactedOn(_) | Condition::PassedThrough(_) => on_hexes(
            system,
            format!(
                "units on a hex map have no sides, so `{}` is never met",
                canonical(c)
            ),
        ),
        Condition::Behind(inner) | Condition::FollowsLeader(inner) => {
            let (hexes, other) = match c {
                Condition::Behind(_) => (
                    "stand in no ranks, so none is behind another",
                    "unit in front of it",
                ),
                _ => (
                    "are in no band or battle, so none follows a leader",
                    "leader it follows",
                ),
            };
            on_hexes(system, format!("units on a hex map {hexes}")).or_else(|| {
                never_holds_in(inner, system, game)
                    .map(|why| format!("no {other} can match: {why}"))
            })
        }
        Condition::Carrying if system.carriers.is_empty() => {
            Some("the system has no `carriers`, so no unit carries another".to_string())
        }
        Condition::Panicked if system.rules.panic.is_none() => {
            Some("the system has no `panic` rules, so no unit is ever panicked".to_string())
        }
        Condition::Event(MoraleEvent::LosesLevels { table, at_least }) => {
            let t = system.rules.result_tables.iter().find(|t| t.id == *table)?;
            let (most, removes) = super::table_reach(t, system.rules.status.as_ref());
            (most < *at_least && !removes).then(|| {
                format!("no result of table `{table}` costs {at_least} levels (at most {most})")
            })
        }
        _ => None,
    }
}

/// `why`, where the system's units stand on hexes: a table game's geometry never holds
/// there.
fn on_hexes(system: &RulesSystem, why: String) -> Option<String> {
    match &system.grid {
        muster_model::system::GridKind::Hex { .. } => Some(why),
        muster_model::system::GridKind::Table { .. } => None,
    }
}

/// Whether a condition holds whatever the unit and moment.
fn always_holds(c: &Condition) -> bool {
    match c {
        Condition::All(list) => list.iter().all(always_holds),
        Condition::Troop(t) => t == "*",
        Condition::Outnumbers(r) => *r <= 0.0,
        _ => false,
    }
}

/// Two members of an `All` that exclude each other, in words.
fn exclusive_pair(list: &[Condition], system: &RulesSystem) -> Option<String> {
    let flat: Vec<&Condition> = list.iter().collect();
    for (i, a) in flat.iter().enumerate() {
        for b in &flat[i + 1..] {
            if let Some(why) = exclusive(a, b, system) {
                return Some(why);
            }
        }
    }
    None
}

/// Why `a` and `b` can never hold together, if they cannot.
fn exclusive(a: &Condition, b: &Condition, system: &RulesSystem) -> Option<String> {
    use Condition as C;
    let two = |what: &str, x: &str, y: &str| {
        (x != y).then(|| format!("a unit cannot be of {what} `{x}` and `{y}` at once"))
    };
    match (a, b) {
        (C::Side(x), C::Side(y)) => two("side", x, y),
        (C::Status(x), C::Status(y)) => two("status", x, y),
        (C::Weather(x), C::Weather(y)) => two("weather", x, y),
        (C::Phase(x), C::Phase(y)) => two("phase", x, y),
        (C::Phase(p), C::Side(f)) | (C::Side(f), C::Phase(p)) => {
            let phase = system
                .rules
                .sequence
                .as_ref()?
                .phases()
                .into_iter()
                .find(|(_, _, ph)| ph.id == *p)?
                .2;
            (!phase.sides.is_empty() && !phase.sides.contains(f)).then(|| {
                format!(
                    "phase `{p}` is played by {} only, not by `{f}`",
                    phase
                        .sides
                        .iter()
                        .map(|s| format!("`{s}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
        }
        (C::Moving(x), C::Moving(y)) => two("movement mode", x, y),
        (C::Counter(x), C::Counter(y)) => two("counter", x, y),
        (C::Moving(m), C::Troop(t)) | (C::Troop(t), C::Moving(m)) => {
            let mode = system.rules.movement_modes.iter().find(|x| x.id == *m)?;
            let who = mode.who.as_ref()?;
            let kinds = super::kinds_named(system, t);
            let any = kinds.iter().any(|k| admits_kind(who, system, k));
            (!kinds.is_empty() && !any)
                .then(|| format!("no `{t}` unit may move by `{m}` (its `who`)"))
        }
        (C::Plotted(x), C::Plotted(y)) if one_task_per_turn(system) => two("plotted task", x, y),
        (C::Troop(t), C::Carrying) | (C::Carrying, C::Troop(t)) => {
            let kinds = super::kinds_named(system, t);
            let any = kinds
                .iter()
                .any(|k| system.carriers.iter().any(|c| c.kind == k.id));
            (!kinds.is_empty() && !any)
                .then(|| format!("no `{t}` unit is a carrier (the system's `carriers`)"))
        }
        (C::Troop(x), C::Troop(y)) => {
            let both = system.unit_kinds.iter().any(|k| {
                specificity(system, x, &k.id).is_some() && specificity(system, y, &k.id).is_some()
            });
            (!both).then(|| format!("no unit kind is both `{x}` and `{y}`"))
        }
        (C::Attacking, C::Defending) | (C::Defending, C::Attacking) => {
            Some("a unit does not attack and defend in the same combat".to_string())
        }
        (C::Attacking, C::Outpaces(_)) | (C::Outpaces(_), C::Attacking) => Some(
            "`Outpaces` compares a defender with its attackers, and an attacker is none"
                .to_string(),
        ),
        (C::Higher, C::Lower) | (C::Lower, C::Higher) => {
            Some("a unit cannot stand both higher and lower than its opponent".to_string())
        }
        (C::Turns { from: f1, to: t1 }, C::Turns { from: f2, to: t2 })
            if f1.max(f2) > t1.min(t2) =>
        {
            Some(format!("turns {f1}-{t1} and {f2}-{t2} do not overlap"))
        }
        (C::Not(x), y) | (y, C::Not(x)) if canonical(x) == canonical(y) => Some(format!(
            "`{}` and its negation cannot both hold",
            canonical(y)
        )),
        _ => None,
    }
}

/// Whether an optional rule's orders give a unit one task per turn.
fn one_task_per_turn(system: &RulesSystem) -> bool {
    system
        .rules
        .optional_rules
        .iter()
        .any(|o| o.orders.as_ref().is_some_and(|x| x.one_per_turn))
}

/// How two conditions of rules relate, judged from what they say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// The same condition once flattened and sorted ([`canonical`]).
    Same,
    /// One asks all the other asks and more (a member of the other's, a kind of the
    /// other's class, a member of one of its `Any`s): an exception to it.
    Narrower,
    /// Both can never hold at once ([`never_holds`] on the two together).
    Apart,
    /// Both can hold at once, and neither is an exception to the other.
    Overlapping,
}

/// How conditions `a` and `b` relate; a missing condition always holds.
pub fn relation(a: Option<&Condition>, b: Option<&Condition>, system: &RulesSystem) -> Relation {
    let (x, y) = (conjuncts(a), conjuncts(b));
    let key = |list: &[&Condition]| {
        let mut k: Vec<String> = list.iter().map(|c| canonical(c)).collect();
        k.sort();
        k.dedup();
        k
    };
    if key(&x) == key(&y) {
        return Relation::Same;
    }
    if implies(&x, &y, system) || implies(&y, &x, system) {
        return Relation::Narrower;
    }
    // An `Any` of one apart from the other in every member keeps them apart.
    let any_apart = |xs: &[&Condition], other: Option<&Condition>| {
        xs.iter().any(|c| match c {
            Condition::Any(list) => list
                .iter()
                .all(|m| relation(Some(m), other, system) == Relation::Apart),
            _ => false,
        })
    };
    let both = Condition::All(x.iter().chain(&y).map(|c| (*c).clone()).collect());
    if any_apart(&x, b) || any_apart(&y, a) || never_holds(&both, system, None).is_some() {
        Relation::Apart
    } else {
        Relation::Overlapping
    }
}

/// The members of a condition read as a conjunction: nested `All`s flattened.
fn conjuncts(c: Option<&Condition>) -> Vec<&Condition> {
    fn walk<'c>(c: &'c Condition, out: &mut Vec<&'c Condition>) {
        match c {
            Condition::All(list) => list.iter().for_each(|x| walk(x, out)),
            other => out.push(other),
        }
    }
    let mut out = Vec::new();
    if let Some(c) = c {
        walk(c, &mut out);
    }
    out
}

/// Whether the conjunction `x` asks at least what `y` asks: each member of `y` is one
/// of `x`'s, a troop name covering a kind `x` names, or an `Any` one of whose members
/// `x` asks.
fn implies(x: &[&Condition], y: &[&Condition], system: &RulesSystem) -> bool {
    let asks = |m: &Condition| {
        let text = canonical(m);
        x.iter().any(|c| {
            canonical(c) == text
                || match (c, m) {
                    (Condition::Troop(kind), Condition::Troop(name)) => {
                        system.unit_kinds.iter().any(|k| k.id == *kind)
                            && specificity(system, name, kind).is_some()
                    }
                    _ => false,
                }
        })
    };
    y.iter().all(|m| match m {
        Condition::Any(list) => asks(m) || list.iter().any(&asks),
        other => asks(other),
    })
}

/// Whether two effects of the same kind give different answers: may, may not and must
/// for the same act; two stacking limits, fixed strengths, movement costs or zone of
/// control effects that differ. Shifts, modifiers and multipliers add up, so they never
/// disagree.
pub fn disagree(a: &Effect, b: &Effect) -> bool {
    use Effect as E;
    match (a, b) {
        (E::May(x) | E::Must(x), E::MayNot(y)) | (E::MayNot(y), E::May(x) | E::Must(x)) => x == y,
        (E::StackingLimit(x), E::StackingLimit(y)) => x != y,
        (E::FixedStrength(x), E::FixedStrength(y)) => x != y,
        (E::LeaderBonus { capped: x }, E::LeaderBonus { capped: y }) => x != y,
        (E::FireProtection(x), E::FireProtection(y)) => x != y,
        (E::MoveAllowance(x), E::MoveAllowance(y)) => x != y,
        (E::ShotOnlyWithin(x), E::ShotOnlyWithin(y)) => x != y,
        (E::ChargeBonus(x), E::ChargeBonus(y)) => x != y,
        (E::MoveCost(x), E::MoveCost(y)) => x != y,
        (E::Zoc(x), E::Zoc(y)) => {
            use muster_model::vocab::ZocEffect as Z;
            matches!(
                (x, y),
                (Z::Exerts, Z::ExertsNone) | (Z::ExertsNone, Z::Exerts)
            )
        }
        (E::ZocEntry(x), E::ZocEntry(y)) => x != y,
        (E::ZocLeaving(x), E::ZocLeaving(y)) => x != y,
        (E::ToStatus(x), E::ToStatus(y)) | (E::Becomes(x), E::Becomes(y)) => x != y,
        _ => false,
    }
}

/// Whether a condition could hold for some unit of `kind`, judging only what it says
/// about troop types (every other member could hold).
pub fn admits_kind(c: &Condition, system: &RulesSystem, kind: &UnitKind) -> bool {
    match c {
        Condition::Troop(t) => specificity(system, t, &kind.id).is_some(),
        Condition::All(list) => list.iter().all(|x| admits_kind(x, system, kind)),
        Condition::Any(list) => list.iter().any(|x| admits_kind(x, system, kind)),
        Condition::Bracketed => matches!(printed_melee(kind), Some(Melee::Bracketed(_))),
        Condition::DotMelee => matches!(printed_melee(kind), Some(Melee::Dot)),
        Condition::Not(inner) => match inner.as_ref() {
            Condition::Troop(t) => specificity(system, t, &kind.id).is_none(),
            _ => true,
        },
        _ => true,
    }
}

/// The melee strength a unit kind prints, where it prints one.
pub fn printed_melee(kind: &UnitKind) -> Option<&Melee> {
    match &kind.stats {
        Some(KindStats::Counter { melee, .. }) | Some(KindStats::Leader { melee, .. }) => {
            Some(melee)
        }
        _ => None,
    }
}

/// A leaf of a condition that holds wherever the condition does, or may be what makes
/// it hold: every member of `All` and `Any` lists, never one under `Not`, each with its
/// place.
pub fn positive_leaves<'a>(c: &'a Condition, at: &Place) -> Vec<(Place, &'a Condition)> {
    let mut out = Vec::new();
    fn walk<'a>(c: &'a Condition, at: Place, out: &mut Vec<(Place, &'a Condition)>) {
        match c {
            Condition::All(list) | Condition::Any(list) => {
                for (k, x) in list.iter().enumerate() {
                    walk(x, at.variant(list_variant(c)).index(k), out);
                }
            }
            Condition::Not(_) => {}
            leaf => out.push((at, leaf)),
        }
    }
    walk(c, at.clone(), &mut out);
    out
}

/// The variant name of a list condition (`All` or `Any`), as places spell it.
fn list_variant(c: &Condition) -> &'static str {
    if matches!(c, Condition::All(_)) {
        "All"
    } else {
        "Any"
    }
}
