//! [`Place`]: where a value is in a typed document, as the steps of the serde layout
//! that lead to it from the top (struct fields and enum variant names, list positions,
//! map keys). Checks and the semantic layer name every place they report on this way;
//! `report::Sink` resolves a place step by step through the file's span records, and no
//! check writes a JSON pointer.
//!
//! The named constructors below ([`Place::side`], [`Place::setup_group`], ...) write the
//! layout of the places checks name most once, here.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use muster_syntax::SpanKey;

/// One step from a value to one of its parts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Step {
    /// A struct field or an enum variant, named by the model (`sides`, `Placed`).
    Field(&'static str),
    /// A position in a list or tuple.
    Index(u32),
    /// A key that comes from the data: a map key, a hook parameter read from its map.
    Key(Box<str>),
}

/// A place in a typed document: the path from the top-level value to one value.
///
/// Stored as a chain from the deepest step up to the top, each link shared: naming the
/// field of a place is one small allocation, whatever the depth, and the places of a
/// group's units share the group's part. The steps are laid out from the top only when a
/// place is resolved or printed.
#[derive(Clone, Default)]
pub struct Place(Option<Arc<Link>>);

struct Link {
    parent: Option<Arc<Link>>,
    step: Step,
}

impl Place {
    /// The top-level value.
    pub fn root() -> Self {
        Self::default()
    }

    fn then(&self, step: Step) -> Self {
        Self(Some(Arc::new(Link {
            parent: self.0.clone(),
            step,
        })))
    }

    /// The struct field `name` of the value here.
    pub fn field(&self, name: &'static str) -> Self {
        self.then(Step::Field(name))
    }

    /// The value of enum variant `name` here (variants are a step of their own, as
    /// serde writes them: `forces: Placed(setup: ...)` is `forces/Placed/setup`).
    pub fn variant(&self, name: &'static str) -> Self {
        self.then(Step::Field(name))
    }

    /// The item at `position` of the list or tuple here.
    pub fn index(&self, position: usize) -> Self {
        self.then(Step::Index(u32::try_from(position).unwrap_or(u32::MAX)))
    }

    /// The entry of the map here under `key`, a name that comes from the data.
    pub fn key(&self, key: &str) -> Self {
        self.then(Step::Key(key.into()))
    }

    /// This place, to name places a step or two below it without laying them out yet
    /// ([`Later`]).
    pub fn later(&self) -> Later {
        Later {
            base: self.clone(),
            steps: [None, None],
        }
    }

    /// The place `inner` names inside the value here.
    pub fn join(&self, inner: &Place) -> Self {
        inner
            .steps()
            .into_iter()
            .fold(self.clone(), |place, step| place.then(step.clone()))
    }

    /// The steps from the top-level value.
    pub fn steps(&self) -> Vec<&Step> {
        let mut out = Vec::new();
        let mut link = self.0.as_deref();
        while let Some(l) = link {
            out.push(&l.step);
            link = l.parent.as_deref();
        }
        out.reverse();
        out
    }

    /// The steps as the span index reads them.
    pub fn span_keys(&self) -> impl Iterator<Item = SpanKey<'_>> {
        self.steps().into_iter().map(|step| match step {
            Step::Field(name) => SpanKey::Key(Cow::Borrowed(name)),
            Step::Key(key) => SpanKey::Key(Cow::Borrowed(key)),
            Step::Index(i) => SpanKey::Index(*i),
        })
    }

    /// The place at a JSON pointer, for places that come as pointers from outside
    /// muster: the instance paths of jsonschema errors, in the loader's schema step and
    /// in hook parameters. A step that is a number is read as a list position (jsonschema
    /// writes positions and keys alike; the maps muster reads are keyed by names), every
    /// other step as a key.
    pub fn from_pointer(pointer: &str) -> Self {
        pointer
            .split('/')
            .skip(1)
            .map(|raw| match raw.parse::<u32>() {
                Ok(i) => Step::Index(i),
                Err(_) => Step::Key(raw.replace("~1", "/").replace("~0", "~").into()),
            })
            .fold(Self::root(), |place, step| place.then(step))
    }

    /// Whether this is the place of `steps` as written in a file, each step its text (a
    /// list position as its number).
    pub fn is_at<S: AsRef<str>>(&self, steps: &[S]) -> bool {
        let own = self.steps();
        own.len() == steps.len()
            && own.iter().zip(steps).all(|(step, text)| match step {
                Step::Field(name) => *name == text.as_ref(),
                Step::Key(key) => **key == *text.as_ref(),
                Step::Index(i) => text.as_ref().parse::<u32>().ok() == Some(*i),
            })
    }
}

/// A place named as a shared base and up to two steps below it, laid out as a [`Place`]
/// only when asked: a file names many places (each hex id it writes, say) and reports
/// on few of them. A third step is added to the base.
#[derive(Debug, Clone)]
pub struct Later {
    base: Place,
    steps: [Option<Step>; 2],
}

impl Later {
    fn then(mut self, step: Step) -> Self {
        match &mut self.steps {
            [None, _] => self.steps[0] = Some(step),
            [Some(_), None] => self.steps[1] = Some(step),
            [Some(first), Some(second)] => {
                self.base = self.base.then(first.clone());
                self.steps = [Some(second.clone()), Some(step)];
            }
        }
        self
    }

    /// See [`Place::field`].
    pub fn field(self, name: &'static str) -> Self {
        self.then(Step::Field(name))
    }

    /// See [`Place::variant`].
    pub fn variant(self, name: &'static str) -> Self {
        self.then(Step::Field(name))
    }

    /// See [`Place::index`].
    pub fn index(self, position: usize) -> Self {
        self.then(Step::Index(u32::try_from(position).unwrap_or(u32::MAX)))
    }

    /// The place, laid out.
    pub fn place(&self) -> Place {
        self.steps
            .iter()
            .flatten()
            .fold(self.base.clone(), |place, step| place.then(step.clone()))
    }
}

impl PartialEq for Place {
    fn eq(&self, other: &Self) -> bool {
        self.steps() == other.steps()
    }
}

impl Eq for Place {}

impl std::hash::Hash for Place {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.steps().hash(state);
    }
}

impl fmt::Debug for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Place({self})")
    }
}

/// The JSON pointer of the place (`/sides/0/forces/Placed/setup/1/at`), for messages to
/// developers and tests; reports name places as [`Place`]s.
impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in self.steps() {
            match step {
                Step::Field(name) => write!(f, "/{name}")?,
                Step::Index(i) => write!(f, "/{i}")?,
                Step::Key(key) => write!(f, "/{}", key.replace('~', "~0").replace('/', "~1"))?,
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// The places checks name most, in the serde layout of the model.
// ---------------------------------------------------------------------------------------

/// How many sides and victory conditions have their places kept ([`Kept`]).
const KEPT: usize = 8;

/// The places that many others start from, for the first [`KEPT`] positions, built
/// once per thread: naming `/sides/1/forces/Placed/setup/3` then takes one step instead
/// of six. Per thread, so that the cores never share the counts of the places they hand
/// out.
struct Kept {
    sides: Vec<Place>,
    setups: Vec<Place>,
    zoned: Vec<Place>,
    victory: Vec<Place>,
    goals: Vec<Place>,
}

thread_local! {
    static KEPT_PLACES: Kept = Kept {
        sides: (0..KEPT).map(side_at).collect(),
        setups: (0..KEPT).map(setup_list).collect(),
        zoned: (0..KEPT).map(zoned_at).collect(),
        victory: (0..KEPT).map(victory_at).collect(),
        goals: (0..KEPT).map(goal_lists).collect(),
    };
}

/// The kept place at position `i` of the list `pick` chooses, if it is kept.
fn kept(pick: impl Fn(&Kept) -> &Vec<Place>, i: usize) -> Option<Place> {
    KEPT_PLACES
        .try_with(|k| pick(k).get(i).cloned())
        .ok()
        .flatten()
}

/// `/sides/{side}`.
fn side_at(side: usize) -> Place {
    Place::top("sides").index(side)
}

/// `/sides/{side}/forces/Placed/setup`.
fn setup_list(side: usize) -> Place {
    side_at(side)
        .field("forces")
        .variant("Placed")
        .field("setup")
}

/// `/sides/{side}/forces/Zoned`.
fn zoned_at(side: usize) -> Place {
    side_at(side).field("forces").variant("Zoned")
}

/// `/victory/{condition}`.
fn victory_at(condition: usize) -> Place {
    Place::top("victory").index(condition)
}

/// `/victory/{condition}/Goals/any_of`.
fn goal_lists(condition: usize) -> Place {
    victory_at(condition).variant("Goals").field("any_of")
}

impl Place {
    /// A top-level field of a document (`/turns`, `/map`, `/system`).
    pub fn top(name: &'static str) -> Self {
        Self::root().field(name)
    }

    /// Side `side` of a scenario: `/sides/{side}`.
    pub fn side(side: usize) -> Self {
        kept(|k| &k.sides, side).unwrap_or_else(|| side_at(side))
    }

    /// Setup group `group` of a side that places counters group by group:
    /// `/sides/{side}/forces/Placed/setup/{group}`.
    pub fn setup_group(side: usize, group: usize) -> Self {
        kept(|k| &k.setups, side)
            .unwrap_or_else(|| setup_list(side))
            .index(group)
    }

    /// The forces of a side in deployment zones: `/sides/{side}/forces/Zoned`.
    pub fn zoned_forces(side: usize) -> Self {
        kept(|k| &k.zoned, side).unwrap_or_else(|| zoned_at(side))
    }

    /// The forces of a side on an open table: `/sides/{side}/forces/Table`.
    pub fn table_forces(side: usize) -> Self {
        Self::side(side).field("forces").variant("Table")
    }

    /// Neutral placement `neutral` of a scenario: `/neutrals/{neutral}`.
    pub fn neutral(neutral: usize) -> Self {
        Self::top("neutrals").index(neutral)
    }

    /// Reinforcement group `group` of a scenario: `/reinforcements/{group}`.
    pub fn reinforcement(group: usize) -> Self {
        Self::top("reinforcements").index(group)
    }

    /// Victory condition `condition` of a scenario: `/victory/{condition}`.
    pub fn victory(condition: usize) -> Self {
        kept(|k| &k.victory, condition).unwrap_or_else(|| victory_at(condition))
    }

    /// Goal `goal` of alternative `any_of` of a `Goals` victory condition:
    /// `/victory/{condition}/Goals/any_of/{any_of}/{goal}`.
    pub fn goal(condition: usize, any_of: usize, goal: usize) -> Self {
        kept(|k| &k.goals, condition)
            .unwrap_or_else(|| goal_lists(condition))
            .index(any_of)
            .index(goal)
    }

    /// Special rule `rule` of a scenario: `/special_rules/{rule}`.
    pub fn special_rule(rule: usize) -> Self {
        Self::top("special_rules").index(rule)
    }

    /// The parameters of special rule `rule`: `/special_rules/{rule}/params`.
    pub fn hook_params(rule: usize) -> Self {
        Self::special_rule(rule).field("params")
    }

    /// Army `army` of a counter sheet: `/armies/{army}`.
    pub fn army(army: usize) -> Self {
        Self::top("armies").index(army)
    }

    /// Counter `counter` of army `army` of a counter sheet:
    /// `/armies/{army}/counters/{counter}`.
    pub fn army_counter(army: usize, counter: usize) -> Self {
        Self::army(army).field("counters").index(counter)
    }

    /// Overlay `overlay` of a map: `/overlays/{overlay}`.
    pub fn overlay(overlay: usize) -> Self {
        Self::top("overlays").index(overlay)
    }

    /// The hex grid of a map: `/grid/Hex`.
    pub fn hex_grid() -> Self {
        Self::top("grid").variant("Hex")
    }

    /// The open-table grid of a map or a system: `/grid/Table`.
    pub fn table_grid() -> Self {
        Self::top("grid").variant("Table")
    }

    /// Unit kind `kind` of a system: `/unit_kinds/{kind}`.
    pub fn unit_kind(kind: usize) -> Self {
        Self::top("unit_kinds").index(kind)
    }

    /// Terrain type `terrain` of a system: `/terrain/{terrain}`.
    pub fn terrain(terrain: usize) -> Self {
        Self::top("terrain").index(terrain)
    }

    /// Hexside feature `feature` of a system: `/hexside_features/{feature}`.
    pub fn hexside_feature(feature: usize) -> Self {
        Self::top("hexside_features").index(feature)
    }

    /// Row `row` of a system's combat results table: `/combat_results/rows/{row}`.
    pub fn crt_row(row: usize) -> Self {
        Self::top("combat_results").field("rows").index(row)
    }

    /// The typed rules of a system: `/rules`.
    pub fn rules() -> Self {
        Self::top("rules")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_places_are_the_places_built_step_by_step() {
        for side in [0, 1, KEPT - 1, KEPT, KEPT + 3] {
            assert_eq!(Place::side(side).to_string(), format!("/sides/{side}"));
            assert_eq!(
                Place::setup_group(side, 2).to_string(),
                format!("/sides/{side}/forces/Placed/setup/2")
            );
            assert_eq!(
                Place::zoned_forces(side).to_string(),
                format!("/sides/{side}/forces/Zoned")
            );
            assert_eq!(Place::victory(side).to_string(), format!("/victory/{side}"));
            assert_eq!(
                Place::goal(side, 1, 4).to_string(),
                format!("/victory/{side}/Goals/any_of/1/4")
            );
        }
    }

    #[test]
    fn later_places_lay_out_as_the_steps_taken_at_once() {
        let base = Place::root().field("sides").index(1);
        assert_eq!(base.later().place(), base);
        assert_eq!(base.later().field("forces").place(), base.field("forces"));
        assert_eq!(
            base.later().variant("Zoned").index(3).place(),
            base.variant("Zoned").index(3)
        );
        let deep = base.later().field("a").index(2).variant("B").field("c");
        assert_eq!(
            deep.place(),
            base.field("a").index(2).variant("B").field("c")
        );
        assert_eq!(deep.place().to_string(), "/sides/1/a/2/B/c");
    }

    #[test]
    fn places_read_as_json_pointers() {
        assert_eq!(
            Place::setup_group(0, 2)
                .field("at")
                .variant("Hexes")
                .index(1)
                .to_string(),
            "/sides/0/forces/Placed/setup/2/at/Hexes/1"
        );
        assert_eq!(Place::root().to_string(), "");
        assert_eq!(
            Place::hook_params(1).key("a/b~").to_string(),
            "/special_rules/1/params/a~1b~0"
        );
    }

    #[test]
    fn a_pointer_reads_back_as_the_same_place() {
        let place = Place::hook_params(3).key("a/b~").index(2);
        let back = Place::from_pointer(&place.to_string());
        assert_eq!(back.to_string(), place.to_string());
        assert_eq!(back.steps()[4], &Step::Index(2));
        assert_eq!(Place::from_pointer(""), Place::root());
    }

    #[test]
    fn a_place_is_at_the_steps_written() {
        let place = Place::hook_params(0).field("counters").index(1);
        assert!(place.is_at(&["special_rules", "0", "params", "counters", "1"]));
        assert!(!place.is_at(&["special_rules", "0", "params", "counters"]));
        assert!(!place.is_at(&["special_rules", "0", "params", "counters", "x"]));
    }
}
