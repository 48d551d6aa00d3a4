//! The special-rule hook registry. A scenario's special rule names a hook id and gives
//! parameters. Each hook is one file here: its parameter struct (serde + schemars: the
//! JSON Schema checks the parameters with exact spans) implements [`HookSpec`], which
//! states the hook's id, the rules systems it belongs to, a summary, a RON example, the
//! references its parameters make ([`Refs`]) and what it changes in validation
//! ([`Effect`]). [`HOOKS`] lists them; adding a hook is one file and one line there.
//!
//! **Invariant:** the reference checks (`references::unknown-counter`, `unknown-side`,
//! `unknown-terrain`, `unknown-unit-kind`, `geometry::malformed-hex`, `off-map`) read
//! hook parameters only through [`Refs`], so every reference of every hook is checked.

mod baggage_carrier;
mod band_grouping;
mod berserk;
mod carried_only;
mod charge_bonus;
mod describe;
mod dismount;
mod evasion;
mod francisca;
mod impassable_area;
mod neutral_activation;
mod no_end_move_in;
mod params;
mod secret_commander_placement;
mod setup_option;
mod stacking_override;
mod viking_ferocity;

use std::fmt::Debug;
use std::sync::OnceLock;

use jsonschema::Validator;
use schemars::{JsonSchema, schema_for};
use serde::de::DeserializeOwned;
use serde_json::Value;

use muster_db::place::Place;
use muster_model::vocab::EffectRule;

pub use baggage_carrier::BaggageCarrier;
pub use band_grouping::BandGrouping;
pub use berserk::Berserk;
pub use carried_only::CarriedOnly;
pub use charge_bonus::ChargeBonus;
pub use dismount::Dismount;
pub use evasion::Evasion;
pub use francisca::Francisca;
pub use impassable_area::ImpassableArea;
pub use neutral_activation::NeutralActivation;
pub use no_end_move_in::NoEndMoveIn;
pub use params::Problem;
pub use secret_commander_placement::SecretCommanderPlacement;
pub use setup_option::SetupOption;
pub use stacking_override::StackingOverride;
pub use viking_ferocity::VikingFerocity;

/// The rules systems muster ships, by id. A scenario may use the hooks its system's
/// rulebook has (a system of this list) and those its system declares in
/// `rules: (hooks: [...])`; any other hook is `references::wrong-system`
/// ([`hooks_of`]).
pub const GAMES: &[&str] = &["lrf", "prestags", "cdg", "raid"];

/// One hook: its parameter struct, described. Implemented by every file of this folder.
pub trait HookSpec: DeserializeOwned + JsonSchema + Debug + Send + Sync + 'static {
    /// Stable id that scenarios name (`"evasion"`).
    const ID: &'static str;
    /// The ids of the rules systems ([`GAMES`]) whose rulebooks have this rule.
    const SYSTEMS: &'static [&'static str];
    /// One line: what the rule declares.
    const SUMMARY: &'static str;
    /// A special rule using the hook, as written in a scenario of its system's bundled
    /// data (a test validates it in a copy of such a scenario).
    const EXAMPLE: &'static str;
    /// Every reference the parameters make, with the place of each.
    fn references<'a>(&'a self, refs: &mut Refs<'a>);
    /// What the hook changes in validation (empty when it changes nothing muster checks).
    fn effects(&self) -> Vec<Effect<'_>>;
    /// The hook as rules of the vocabulary: what it desugars into, which the engine
    /// applies with the scenario ([`crate::rules::scenario::scenario_rules`]). Empty
    /// where the hook is a procedure of play (a die roll, a choice, a set-up) the
    /// vocabulary does not state; the hook's file says which.
    fn rules(&self) -> Vec<EffectRule>;
}

/// Which side a counter named by a hook must belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideRule<'a> {
    /// Any unit of the scenario.
    Any,
    /// A neutral unit (not one of a side's).
    Neutral,
    /// All the counters of this parameter belong to one side, whichever it is.
    OneSide,
    /// A unit of the side with this id.
    Of(&'a str),
}

/// What a reference names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefKind<'a> {
    Counter { id: &'a str, side: SideRule<'a> },
    Side(&'a str),
    Terrain(&'a str),
    Hex(&'a str),
    UnitKind(&'a str),
}

/// A reference made by a hook's parameters: the parameter (`counters`) and, in a list,
/// the item's position. It holds no [`Place`] (an allocation each, for lists that may
/// hold hundreds of thousands of items): [`Ref::at`] or [`ParsedHook::place_of`] make
/// one when a place is needed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ref<'a> {
    /// The parameter's name: the field of the hook's parameter struct.
    pub key: &'static str,
    /// The item's position, when the parameter is a list.
    pub index: Option<usize>,
    pub kind: RefKind<'a>,
}

impl Ref<'_> {
    /// The place inside `params` (`counters/2`); [`ParsedHook::place_of`] gives the
    /// place in the scenario, the place a `Report` names.
    pub fn at(&self) -> Place {
        let top = Place::top(self.key);
        match self.index {
            Some(i) => top.index(i),
            None => top,
        }
    }
}

/// The references of one hook, collected by [`HookSpec::references`].
#[derive(Debug, Default)]
pub struct Refs<'a> {
    pub items: Vec<Ref<'a>>,
}

/// The methods take the parameter's name (the field of the hook's parameter struct) and
/// the value or list of values it holds.
impl<'a> Refs<'a> {
    fn one(&mut self, key: &'static str, kind: RefKind<'a>) {
        self.items.push(Ref {
            key,
            index: None,
            kind,
        });
    }
    fn each(
        &mut self,
        key: &'static str,
        ids: &'a [String],
        kind: impl Fn(&'a str) -> RefKind<'a>,
    ) {
        self.items.reserve(ids.len());
        for (k, id) in ids.iter().enumerate() {
            self.items.push(Ref {
                key,
                index: Some(k),
                kind: kind(id),
            });
        }
    }
    pub fn counter(&mut self, key: &'static str, id: &'a str, side: SideRule<'a>) {
        self.one(key, RefKind::Counter { id, side });
    }
    pub fn counters(&mut self, key: &'static str, ids: &'a [String], side: SideRule<'a>) {
        self.each(key, ids, |id| RefKind::Counter { id, side });
    }
    pub fn side(&mut self, key: &'static str, id: &'a str) {
        self.one(key, RefKind::Side(id));
    }
    pub fn terrain(&mut self, key: &'static str, ids: &'a [String]) {
        self.each(key, ids, RefKind::Terrain);
    }
    pub fn hex(&mut self, key: &'static str, id: &'a str) {
        self.one(key, RefKind::Hex(id));
    }
    pub fn hexes(&mut self, key: &'static str, ids: &'a [String]) {
        self.each(key, ids, RefKind::Hex);
    }
    pub fn unit_kind(&mut self, key: &'static str, id: &'a str) {
        self.one(key, RefKind::UnitKind(id));
    }
    pub fn unit_kinds(&mut self, key: &'static str, ids: &'a [String]) {
        self.each(key, ids, RefKind::UnitKind);
    }
}

/// A baggage counter that carries a unit (`baggage-carrier`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CarrierEffect<'a> {
    pub counter: &'a str,
    pub carries_kind: &'a str,
    pub max_carried: u8,
    pub max_movement: f64,
}

/// What a hook changes in the checks.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect<'a> {
    /// These counters may stand in impassable terrain and closed columns.
    EnterImpassable(&'a [String]),
    /// These map columns are closed to units; `open` is a hex (a bridge) that stays open.
    CloseColumns {
        columns: &'a [u16],
        open: Option<&'a str>,
    },
    /// A counter that carries units of a kind in its hex (stacking).
    Carrier(CarrierEffect<'a>),
    /// Units of these kinds of one side stack to `limit`.
    StackingLimit {
        side: &'a str,
        kinds: &'a [String],
        limit: u8,
    },
}

/// Parsed parameters of any hook, as the checks see them.
pub trait Hook: Debug + Send + Sync {
    fn references(&self) -> Vec<Ref<'_>>;
    fn effects(&self) -> Vec<Effect<'_>>;
    fn rules(&self) -> Vec<EffectRule>;
}

impl<T: HookSpec> Hook for T {
    fn references(&self) -> Vec<Ref<'_>> {
        let mut refs = Refs::default();
        HookSpec::references(self, &mut refs);
        refs.items
    }
    fn effects(&self) -> Vec<Effect<'_>> {
        HookSpec::effects(self)
    }
    fn rules(&self) -> Vec<EffectRule> {
        HookSpec::rules(self)
    }
}

/// A registered hook: id, systems, what it does, its example and its parameter schema.
pub struct RegisteredHook {
    pub id: &'static str,
    pub systems: &'static [&'static str],
    pub summary: &'static str,
    pub example: &'static str,
    schema: fn() -> Value,
    parse: fn(&Value) -> Result<Box<dyn Hook>, serde_json::Error>,
}

/// The units that are copies of any of these counters: `Any` of `Counter`s.
fn any_counter(counters: &[String]) -> muster_model::vocab::Condition {
    use muster_model::vocab::Condition;
    Condition::Any(counters.iter().cloned().map(Condition::Counter).collect())
}

fn schema_of<T: HookSpec>() -> Value {
    schema_for!(T).to_value()
}

fn parse_as<T: HookSpec>(v: &Value) -> Result<Box<dyn Hook>, serde_json::Error> {
    T::deserialize(v).map(|h| Box::new(h) as Box<dyn Hook>)
}

impl RegisteredHook {
    const fn of<T: HookSpec>() -> Self {
        Self {
            id: T::ID,
            systems: T::SYSTEMS,
            summary: T::SUMMARY,
            example: T::EXAMPLE,
            schema: schema_of::<T>,
            parse: parse_as::<T>,
        }
    }
}

/// Every hook muster knows. Ids are stable.
pub static HOOKS: &[RegisteredHook] = &[
    RegisteredHook::of::<ImpassableArea>(),
    RegisteredHook::of::<BaggageCarrier>(),
    RegisteredHook::of::<ChargeBonus>(),
    RegisteredHook::of::<Berserk>(),
    RegisteredHook::of::<Evasion>(),
    RegisteredHook::of::<NeutralActivation>(),
    RegisteredHook::of::<SecretCommanderPlacement>(),
    RegisteredHook::of::<SetupOption>(),
    RegisteredHook::of::<Francisca>(),
    RegisteredHook::of::<VikingFerocity>(),
    RegisteredHook::of::<StackingOverride>(),
    RegisteredHook::of::<Dismount>(),
    RegisteredHook::of::<CarriedOnly>(),
    RegisteredHook::of::<NoEndMoveIn>(),
    RegisteredHook::of::<BandGrouping>(),
];

pub fn find(id: &str) -> Option<&'static RegisteredHook> {
    HOOKS.iter().find(|h| h.id == id)
}

/// The hooks a scenario of `system` may use: for one of [`GAMES`], its own and those
/// its `rules: (hooks: [...])` declares; for any other system, only those it declares;
/// every hook when the system is not known.
pub fn hooks_of(
    system: Option<&muster_model::system::RulesSystem>,
) -> Vec<&'static RegisteredHook> {
    match system {
        Some(s) => HOOKS
            .iter()
            .filter(|h| {
                h.systems.contains(&s.id.as_str()) || s.rules.hooks.iter().any(|d| d == h.id)
            })
            .collect(),
        None => HOOKS.iter().collect(),
    }
}

/// A special rule whose hook is known and whose parameters parse.
#[derive(Debug)]
pub struct ParsedHook {
    /// Index of the rule in `special_rules`.
    pub rule: usize,
    pub spec: &'static RegisteredHook,
    pub hook: Box<dyn Hook>,
}

impl ParsedHook {
    /// The place in the scenario of a place inside the parameters (`counters/0`).
    pub fn place(&self, at: &Place) -> Place {
        Place::hook_params(self.rule).join(at)
    }

    /// The place in the scenario of one of this hook's references.
    pub fn place_of(&self, r: &Ref<'_>) -> Place {
        let top = Place::hook_params(self.rule).field(r.key);
        match r.index {
            Some(i) => top.index(i),
            None => top,
        }
    }

    pub fn references(&self) -> Vec<Ref<'_>> {
        self.hook.references()
    }

    pub fn effects(&self) -> Vec<Effect<'_>> {
        self.hook.effects()
    }
}

impl Debug for RegisteredHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "hook `{}`", self.id)
    }
}

/// Parses every special rule of a scenario whose hook is known and whose parameters
/// parse; the hook checks report the others.
pub fn parse_rules(rules: &[muster_model::scenario::SpecialRule]) -> Vec<ParsedHook> {
    rules
        .iter()
        .enumerate()
        .filter_map(|(rule, r)| {
            let spec = find(&r.hook)?;
            Some(ParsedHook {
                rule,
                spec,
                hook: spec.parse(&r.params).ok()?,
            })
        })
        .collect()
}

impl RegisteredHook {
    pub fn schema(&self) -> Value {
        (self.schema)()
    }

    /// The parameter names, in the order of the struct (read from each hook's schema
    /// once).
    pub fn parameter_names(&self) -> &'static [String] {
        static NAMES: OnceLock<Vec<Vec<String>>> = OnceLock::new();
        let all = NAMES.get_or_init(|| {
            HOOKS
                .iter()
                .map(|h| {
                    h.schema()
                        .get("properties")
                        .and_then(Value::as_object)
                        .map(|p| p.keys().cloned().collect())
                        .unwrap_or_default()
                })
                .collect()
        });
        HOOKS
            .iter()
            .position(|h| h.id == self.id)
            .and_then(|pos| all.get(pos))
            .map_or(&[], Vec::as_slice)
    }

    /// The hook's parameter validator, built the first time a rule uses the hook.
    fn validator(&self) -> Option<&'static Validator> {
        static VALIDATORS: OnceLock<Vec<OnceLock<Option<Validator>>>> = OnceLock::new();
        let all = VALIDATORS.get_or_init(|| HOOKS.iter().map(|_| OnceLock::new()).collect());
        let pos = HOOKS.iter().position(|h| h.id == self.id)?;
        all.get(pos)?
            .get_or_init(|| jsonschema::validator_for(&self.schema()).ok())
            .as_ref()
    }

    /// Checks parameters against the hook's schema. Returns the parsed hook, or the
    /// problems in muster's words, each with its place inside `params`.
    ///
    /// As for files (`load::schema::may_break`), the schema adds to the typed parse only
    /// numeric bounds: parameters that parse, have no unknown key and whose numbers all
    /// lie within the bounds read from the hook's schema skip the validator.
    pub fn parse(&self, params: &Value) -> Result<Box<dyn Hook>, Vec<Problem>> {
        self.parse_with(params, true)
    }

    /// [`RegisteredHook::parse`] with the validator always run (for tests: the answers
    /// must be the same).
    pub fn parse_fully(&self, params: &Value) -> Result<Box<dyn Hook>, Vec<Problem>> {
        self.parse_with(params, false)
    }

    fn parse_with(&self, params: &Value, shortcut: bool) -> Result<Box<dyn Hook>, Vec<Problem>> {
        // A hook without parameters takes `{}`.
        let empty = Value::Object(Default::default());
        let params = if params.is_null() { &empty } else { params };
        let mut problems = params::unknown_keys(self, params);
        if shortcut
            && problems.is_empty()
            && self.within_bounds(params)
            && let Ok(hook) = (self.parse)(params)
        {
            return Ok(hook);
        }
        if let Some(validator) = self.validator() {
            problems.extend(
                validator
                    .iter_errors(params)
                    .filter_map(|e| params::problem(&e)),
            );
        }
        params::drop_missing_suggested(&mut problems);
        if !problems.is_empty() {
            return Err(problems);
        }
        (self.parse)(params).map_err(|e| vec![Problem::at_value(Place::root(), e.to_string())])
    }

    /// Whether every number in `params` lies within the bounds of the hook's schema
    /// (false when the schema says more than bounds).
    fn within_bounds(&self, params: &Value) -> bool {
        use muster_db::load::schema::Bounds;
        fn all_within(v: &Value, bounds: &Bounds) -> bool {
            match v {
                Value::Number(n) => n.as_f64().is_some_and(|n| bounds.contains(n)),
                Value::Array(items) => items.iter().all(|v| all_within(v, bounds)),
                Value::Object(map) => map.values().all(|v| all_within(v, bounds)),
                Value::Null | Value::Bool(_) | Value::String(_) => true,
            }
        }
        static BOUNDS: OnceLock<Vec<OnceLock<Option<Bounds>>>> = OnceLock::new();
        let all = BOUNDS.get_or_init(|| HOOKS.iter().map(|_| OnceLock::new()).collect());
        HOOKS
            .iter()
            .position(|h| h.id == self.id)
            .and_then(|pos| *all.get(pos)?.get_or_init(|| Bounds::of(&self.schema())))
            .is_some_and(|bounds| all_within(params, &bounds))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn good_parameters_parse() {
        let hook = find("evasion").unwrap();
        let parsed =
            hook.parse(&json!({"counters": ["a"], "roll_at_least": 5, "retreat_hexes": [1, 2]}));
        let parsed = parsed.unwrap();
        let refs = parsed.references();
        assert_eq!(refs[0].at(), Place::top("counters").index(0));
        assert!(
            find("secret-commander-placement")
                .unwrap()
                .parse(&Value::Null)
                .is_ok()
        );
    }

    #[test]
    fn bad_parameters_name_the_place() {
        let hook = find("charge-bonus").unwrap();
        let errors = hook
            .parse(&json!({"counters": ["a"], "bonus": "two"}))
            .unwrap_err();
        assert_eq!(errors[0].place, Place::root().key("bonus"));
        assert_eq!(
            errors[0].message,
            "`bonus` must be an integer, found the string \"two\""
        );
        let errors = hook
            .parse(&json!({"counters": ["a"], "bonus": 1, "extra": 1, "bonnus": 2}))
            .unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors.iter().all(|e| e.at_key), "{errors:?}");
        assert_eq!(errors[1].help.as_deref(), Some("did you mean `bonus`?"));
    }

    #[test]
    fn every_hook_has_a_system_an_example_and_a_unique_id() {
        for (i, h) in HOOKS.iter().enumerate() {
            assert!(!h.systems.is_empty(), "{}", h.id);
            assert!(h.systems.iter().all(|s| GAMES.contains(s)), "{}", h.id);
            assert!(
                h.example.contains(&format!("hook: \"{}\"", h.id)),
                "{}",
                h.id
            );
            assert!(HOOKS[..i].iter().all(|o| o.id != h.id), "{}", h.id);
        }
    }

    #[test]
    fn a_system_may_use_its_own_hooks_and_those_it_declares() {
        let mut system: muster_model::system::RulesSystem =
            serde_json::from_value(serde_json::json!({
                "id": "test", "name": "T", "grid": {"Hex": {"layout": "EvenColumnsDown"}},
                "unit_kinds": [], "terrain": [],
                "stacking": {"UnitsPerHex": {"combat_units": 1, "riders": []}}
            }))
            .unwrap();
        assert!(hooks_of(Some(&system)).is_empty());
        system.rules.hooks = vec!["evasion".to_string()];
        let ids: Vec<&str> = hooks_of(Some(&system)).iter().map(|h| h.id).collect();
        assert_eq!(ids, ["evasion"]);
        system.id = "lrf".to_string();
        assert!(hooks_of(Some(&system)).iter().all(|h| h.systems == ["lrf"]));
        system.id = "cdg".to_string();
        system.rules.hooks.clear();
        assert!(hooks_of(Some(&system)).is_empty());
        assert_eq!(hooks_of(None).len(), HOOKS.len());
    }
}
