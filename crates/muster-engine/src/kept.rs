//! Kept states played out ([`Engine::states_after`]): which units enter or leave a
//! system's kept states (`states`) when they do an act together, by the state's
//! `set_by`, `unless`, `cleared_by` and `ended_by`.

use muster_db::place::Place;
use muster_model::vocab::Act;
use muster_semantic::rules::names::NameKind;
use muster_semantic::rules::vocab::Walk;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Engine, QueryError, RuleRef};

/// A unit entering or leaving a kept state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StateChange {
    pub unit: String,
    /// The state, by the system's `states` id.
    pub state: String,
    /// It enters the state (`false`: it leaves it).
    pub enters: bool,
    /// The state, as the rule that says so.
    pub rule: RuleRef,
}

impl Engine<'_> {
    /// The kept states units `ids` enter or leave when they do `act` together (a melee's
    /// attackers and defenders; a fleet mooring), `result` being the results table's
    /// cell the act brought (`""` for an act with none). A state whose `set_by` has the
    /// act is entered by each unit not yet in it, unless a code of the result is one of
    /// its `unless`; a code of its `cleared_by` ends it for every unit of the act; an
    /// act of its `ended_by` ends it for the units doing it. Only states that a rule in
    /// force or a permission asks about (`InState`) are played out: the state of an
    /// optional rule that is off changes nothing.
    pub fn states_after(
        &self,
        act: Act,
        ids: &[&str],
        result: &str,
    ) -> Result<Vec<StateChange>, QueryError> {
        let mut units: Vec<usize> = Vec::with_capacity(ids.len());
        for id in ids {
            let i = self.unit(id)?;
            // A unit named twice takes part once.
            if !units.contains(&i) {
                units.push(i);
            }
        }
        let codes: Vec<&str> = match self.system.combat_results.as_ref() {
            Some(table) => muster_semantic::rules::result_parts(result, &table.results)
                .ok_or_else(|| {
                    let codes: Vec<&str> = table.results.iter().map(|c| c.code.as_str()).collect();
                    QueryError::Invalid {
                        reason: format!(
                            "`{result}` is not made of the table's result codes ({})",
                            codes.join(", ")
                        ),
                    }
                })?
                .into_iter()
                .map(|c| c.code.as_str())
                .collect(),
            None if result.is_empty() => Vec::new(),
            None => {
                return Err(QueryError::Invalid {
                    reason: "the rules system has no combat results table".into(),
                });
            }
        };
        // The states the conditions in force name, by the vocabulary's one walker.
        let mut walk = Walk::default();
        let permissions = self.system.rules.permissions.iter();
        for c in (self.effects.iter().filter_map(|r| r.when.as_ref()))
            .chain(permissions.filter_map(|p| p.when.as_ref()))
        {
            walk.condition(c, &Place::rules(), NameKind::Faction);
        }
        let asked =
            |id: &str| (walk.names.iter()).any(|n| n.kind == NameKind::State && n.name == id);
        let mut out = Vec::new();
        for state in self.system.rules.states.iter().filter(|s| asked(&s.id)) {
            let brought = |list: &[String]| codes.iter().any(|c| list.iter().any(|x| x == c));
            let rule = RuleRef::new(state.name.clone(), Some(state.section.as_str()));
            let sets = state.set_by.contains(&act) && !brought(&state.unless);
            let ends = brought(&state.cleared_by) || state.ended_by.contains(&act);
            for &i in &units {
                let unit = self.units[i].unit;
                let in_it = unit.states.contains(&state.id);
                let enters = !in_it && sets && !ends;
                let leaves = in_it && ends;
                if enters || leaves {
                    out.push(StateChange {
                        unit: unit.id.clone(),
                        state: state.id.clone(),
                        enters,
                        rule: rule.clone(),
                    });
                }
            }
        }
        Ok(out)
    }
}
