//! What a combat result does to one unit ([`Engine::outcome`]): the codes of the result
//! that befall it as attacker or defender, after the rules in force that read a code as
//! another (`ResultBecomes`) or cancel it for the unit (`Immune`), with their typed
//! meaning from the results table, and what the rules make of each code that stands
//! (`Event(CombatResult(code))`: a new status, `ToStatus`, or a new kind, `Becomes`).

use muster_model::rules::MoraleEvent;
use muster_model::system::{ResultCode, ResultEffect};
use muster_model::vocab::Effect;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cond::Facts;
use crate::{Engine, QueryError, RuleRef, rule_ref};

/// The answer to "what does this result do to this unit".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Outcome {
    pub unit: String,
    /// The result as the table's cell gives it (`D1R`).
    pub result: String,
    /// Whether the unit takes it as the attacker.
    pub attacking: bool,
    /// The codes of the result that befall the unit, each as a rule may read it.
    pub codes: Vec<String>,
    /// Codes that would befall the unit but a rule cancels for it.
    pub ignored: Vec<String>,
    /// What the codes that stand mean, as the table types them, side codes left out.
    pub effects: Vec<ResultEffect>,
    /// The status level a rule puts the unit at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The unit kind a rule makes of the unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub becomes: Option<String>,
    pub rules: Vec<RuleRef>,
}

/// The codes of `parts` that befall the attacker (`attacking`) or the defender: a side
/// code (`Attacker`, `Defender`) gives the codes after it, in the same code or the next,
/// to that side; codes before any side code befall the defender.
fn befalling<'c>(parts: &[&'c ResultCode], attacking: bool) -> Vec<&'c ResultCode> {
    let mut on_attacker = false;
    let mut out: Vec<&ResultCode> = Vec::new();
    for code in parts {
        let mut mine = false;
        for e in &code.effects {
            match e {
                ResultEffect::Attacker => on_attacker = true,
                ResultEffect::Defender => on_attacker = false,
                _ => mine |= on_attacker == attacking,
            }
        }
        // A code without a typed meaning befalls the side it falls to.
        if code.effects.is_empty() && on_attacker == attacking {
            mine = true;
        }
        if mine {
            out.push(code);
        }
    }
    out
}

impl Engine<'_> {
    /// What result `result` (a cell of the system's combat results table) does to unit
    /// `id`, taking it as the attacker (`attacking`) or the defender, at the position's
    /// phase. A code is read as another by the first rule in force that says so
    /// (`ResultBecomes`, once), cancelled by a rule `Immune` naming it, and each code
    /// that stands is an event the rules may answer with a status or a kind. A retreat,
    /// a step loss or an exchange is given as the table types it, not played out.
    pub fn outcome(&self, id: &str, result: &str, attacking: bool) -> Result<Outcome, QueryError> {
        let i = self.unit(id)?;
        let table = self
            .system
            .combat_results
            .as_ref()
            .ok_or_else(|| QueryError::Invalid {
                reason: "the rules system has no combat results table".into(),
            })?;
        let parts =
            muster_semantic::rules::result_parts(result, &table.results).ok_or_else(|| {
                let codes: Vec<&str> = table.results.iter().map(|c| c.code.as_str()).collect();
                QueryError::Invalid {
                    reason: format!(
                        "`{result}` is not made of the table's result codes ({})",
                        codes.join(", ")
                    ),
                }
            })?;
        let facts = Facts {
            unit: i,
            hex: Some(self.hex_of(i)),
            attacking,
            defending: !attacking,
            ..Facts::default()
        };
        let mut out = Outcome {
            unit: id.to_string(),
            result: result.to_string(),
            attacking,
            codes: Vec::new(),
            ignored: Vec::new(),
            effects: Vec::new(),
            status: None,
            becomes: None,
            rules: vec![RuleRef::new("combat results table", None)],
        };
        for code in befalling(&parts, attacking) {
            let mut read = code.code.clone();
            let turns =
                |e: &Effect| matches!(e, Effect::ResultBecomes { from, .. } if *from == read);
            if let Some(r) = self.rules_giving(&facts, turns).first() {
                if let Some(Effect::ResultBecomes { to, .. }) = r.then.iter().find(|e| turns(e)) {
                    read = to.clone();
                }
                out.rules.push(rule_ref(r));
            }
            let cancels = |e: &Effect| matches!(e, Effect::Immune(codes) if codes.contains(&read));
            let immune = self.rules_giving(&facts, cancels);
            if !immune.is_empty() {
                out.rules.extend(immune.iter().map(|r| rule_ref(r)));
                out.ignored.push(read);
                continue;
            }
            let meaning = table.results.iter().find(|c| c.code == read);
            out.effects.extend(
                meaning
                    .into_iter()
                    .flat_map(|c| &c.effects)
                    .filter(|e| !matches!(e, ResultEffect::Attacker | ResultEffect::Defender))
                    .cloned(),
            );
            let event = MoraleEvent::CombatResult(read.clone());
            let on_event = Facts {
                event: Some(&event),
                ..facts.clone()
            };
            let changes = |e: &Effect| matches!(e, Effect::ToStatus(_) | Effect::Becomes(_));
            for r in self.rules_giving(&on_event, changes) {
                for e in &r.then {
                    match e {
                        Effect::ToStatus(s) => out.status = Some(s.clone()),
                        Effect::Becomes(k) => out.becomes = Some(k.clone()),
                        _ => {}
                    }
                }
                out.rules.push(rule_ref(r));
            }
            out.codes.push(read);
        }
        out.rules.sort();
        out.rules.dedup();
        Ok(out)
    }
}
