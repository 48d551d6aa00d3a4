//! The odds of an attack: each side's strength with every modifier and the rule it
//! comes from, the ratio (or differential), the column after rounding, the edges of the
//! table and the shifts, the die modifiers, and the column of the results table.
//!
//! Charges follow the system's charge rule (`rules.charge`, LRF 9.2), judged on the
//! paths given: who may charge is a `Charge` permission, what it adds the kind's
//! `charge_bonus`, and a defender with `NoChargeBonus` cancels it. A hexside's die
//! modifier counts only when every attacker next to the defender attacks across it
//! (LRF 9.6); attackers firing from range do not count for that. Where units face
//! (the system's `facing`, a unit's `facing`), an attacker attacks through the class of
//! its hexside toward the defender (`Through`), and a defender is attacked through the
//! classes of its hexsides toward the melee attackers (`AttackedThrough`).

use std::collections::BTreeMap;

use muster_hex::HexId;
use muster_model::rules::{Action, Allowance};
use muster_model::system::{
    BeyondRows, BeyondTable, CombatEffect, CombatResultsTable, CrtIndex, KindStats, OddsRounding,
    UnitRole,
};
use muster_model::vocab::{Act, Effect, EffectRule};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cond::Facts;
use crate::{Engine, QueryError, RuleRef, rule_ref};

/// One modifier: what it is, its value and the rule behind it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Modifier {
    pub what: String,
    pub value: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
}

/// One unit's part in a combat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Strength {
    pub unit: String,
    pub hex: String,
    /// The strength printed for its status.
    pub base: f64,
    pub modifiers: Vec<Modifier>,
    pub total: f64,
    /// Attacks from range (fire), not hand to hand.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub at_range: bool,
}

/// Whether a given path makes an attacker's move a charge, and why not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ChargeJudgement {
    pub unit: String,
    pub path: Vec<String>,
    pub charge: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
}

/// One die roll's result in the combat's column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DieResult {
    pub die: u8,
    pub result: String,
}

/// One die face with the die modifiers added, as the table reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ModifiedRoll {
    /// The face rolled.
    pub die: u8,
    /// The roll the table is read at: the face plus the modifiers, kept to the edge
    /// rows where the table says so (`rolls_beyond`).
    pub roll: i32,
    /// The result in the combat's column; `None` where the roll falls past the rows
    /// and the table prints nothing for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// The answer to "what are the odds of this attack".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Combat {
    pub attackers: Vec<Strength>,
    pub defenders: Vec<Strength>,
    pub attack: f64,
    pub defence: f64,
    /// Against fire alone, where the system's terrain has fire protection strengths
    /// (PRESTAGS 6.22): what defends in place of the defenders' strengths, the hex's
    /// protection or a defender's own against fire (Excl 3.25), and the rule behind it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protection: Option<Modifier>,
    /// `odds` or `differential`.
    pub index: String,
    /// The odds as `attack:defence`, or the differential.
    pub ratio: String,
    /// The column after rounding and the table's edges, before shifts; `None` when the
    /// attack is not allowed.
    pub column_before_shifts: Option<String>,
    pub shifts: Vec<Modifier>,
    /// The column read, after shifts.
    pub column: Option<String>,
    pub die_modifiers: Vec<Modifier>,
    /// What a roll of each die face gives in that column (before die modifiers).
    pub results: Vec<DieResult>,
    /// What each face gives once the die modifiers are added, where they add up to
    /// something: see [`ModifiedRoll`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modified: Vec<ModifiedRoll>,
    pub charges: Vec<ChargeJudgement>,
    /// The defenders a rule in force lets retreat before the combat (`May(Retreat)`,
    /// with no `MayNot(Retreat)` holding for them) and that have a hex to step back
    /// into: PRESTAGS 17.0, unit by unit (17.5); 17.1, a unit with none stays.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub may_retreat: Vec<String>,
    /// Why the attack may not be made, if so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_allowed: Option<String>,
    pub rules: Vec<RuleRef>,
}

/// A column's odds as a number: `"3/2"`, `"2-1"`, `"1:1"` give 1.5, 2, 1; a
/// differential column (`"+2"`, `"-1"`) gives its number.
fn column_value(label: &str) -> Option<f64> {
    let t = label.trim();
    for sep in ['/', '-', ':'] {
        if let Some((a, b)) = t.split_once(sep)
            && !a.is_empty()
            && let (Ok(a), Ok(b)) = (a.trim().parse::<f64>(), b.trim().parse::<f64>())
            && b > 0.0
        {
            return Some(a / b);
        }
    }
    t.trim_start_matches('+').parse::<f64>().ok()
}

/// Each face of `table`'s rows with `by` added, read in column `at`; none when `by` is 0.
fn modified_rolls(table: &CombatResultsTable, at: usize, by: i32) -> Vec<ModifiedRoll> {
    let faces = || table.rows.iter().map(|r| i32::from(r.die));
    let (Some(low), Some(high)) = (faces().min(), faces().max()) else {
        return Vec::new();
    };
    if by == 0 {
        return Vec::new();
    }
    faces()
        .map(|face| {
            let roll = match table.rolls_beyond {
                Some(BeyondRows::EdgeRow) => (face + by).clamp(low, high),
                None => face + by,
            };
            let result = table
                .rows
                .iter()
                .find(|r| i32::from(r.die) == roll)
                .and_then(|r| r.results.get(at).cloned());
            ModifiedRoll {
                die: u8::try_from(face).unwrap_or_default(),
                roll,
                result,
            }
        })
        .collect()
}

/// The column of `table` an attack of `attack` against `defence` is read in, before
/// shifts, with the rounding and edge rules of the table: `Ok(index)`, or `Err` with
/// why the attack is not allowed.
pub fn odds_column(table: &CombatResultsTable, attack: f64, defence: f64) -> Result<usize, String> {
    let value = match table.index {
        CrtIndex::Odds if defence <= 0.0 => f64::INFINITY,
        CrtIndex::Odds => attack / defence,
        CrtIndex::Differential => attack - defence,
    };
    let columns: Vec<f64> = table
        .odds
        .iter()
        .map(|c| column_value(c).unwrap_or(f64::NAN))
        .collect();
    let rounding = table.rounding.unwrap_or(OddsRounding::ForDefender);
    let found = match rounding {
        OddsRounding::ForDefender => columns.iter().rposition(|c| *c <= value + 1e-9),
        OddsRounding::ForAttacker => columns.iter().position(|c| *c >= value - 1e-9),
    };
    let last = columns
        .len()
        .checked_sub(1)
        .ok_or("the results table has no columns")?;
    let below = columns.first().is_some_and(|c| value < *c - 1e-9);
    let above = columns.last().is_some_and(|c| value > *c + 1e-9);
    let edge = |beyond: Option<BeyondTable>, at: usize, words: &str| match beyond {
        None | Some(BeyondTable::EdgeColumn) => Ok(at),
        Some(BeyondTable::NotAllowed) => Err(format!("odds {words} the table are not allowed")),
        Some(BeyondTable::AttackerEliminated) => {
            Err(format!("odds {words} the table eliminate the attacker"))
        }
        Some(BeyondTable::DefenderEliminated) => {
            Err(format!("odds {words} the table eliminate the defender"))
        }
    };
    if below {
        return edge(table.below_first, 0, "below");
    }
    if above {
        return edge(table.above_last, last, "above");
    }
    found.ok_or_else(|| "the odds fall in no column".to_string())
}

/// A unit taking a leader bonus: its place in the side's strengths, the first rule
/// giving it, and whether any such rule caps it.
struct Taker<'r> {
    k: usize,
    rule: &'r EffectRule,
    capped: bool,
}

/// Multiplies a strength by rule `r`'s factor `f`, noting it with `tail` after the factor.
fn multiply(s: &mut Strength, r: &EffectRule, f: f64, tail: &str) {
    let before = s.total;
    s.total *= f;
    s.modifiers.push(Modifier {
        what: format!("{} (x{f}{tail})", r.id),
        value: s.total - before,
        section: Some(r.section.clone()),
    });
}

fn number(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round())
    } else {
        format!("{x}")
    }
}

/// What every unit of one combat shares: the hexside features every attacker crosses,
/// and whether it is a flank attack.
pub(crate) struct Contact<'f> {
    pub across: Vec<&'f str>,
    pub flank: bool,
    /// The hexes the melee attackers stand on.
    pub melee: Vec<HexId>,
    /// The highest printed movement allowance among the melee attackers.
    pub fastest: Option<f64>,
}

impl Engine<'_> {
    /// The odds of `attackers` attacking `defender`; `paths` gives, per attacker, the
    /// hexes it moved through this phase (its own hex last), judged as charges.
    pub fn combat(
        &self,
        attackers: &[&str],
        defender: &str,
        paths: &BTreeMap<String, Vec<String>>,
    ) -> Result<Combat, QueryError> {
        let d = self.unit(defender)?;
        let dhex = self.hex_of(d);
        let mut rules: Vec<RuleRef> = Vec::new();
        let atk = self.attackers_of(attackers, d, defender)?;
        let contact = self.contact(&atk, dhex);
        let no_charge = self.no_charge_bonus(d, &contact, &mut rules);
        let mut charges = Vec::new();
        let mut attackers_out = Vec::new();
        for &(i, at_range) in &atk {
            let mut s = self.strength_of(i, d, true, at_range, &contact, &mut rules);
            if let Some(path) = paths.get(&self.units[i].unit.id) {
                let j = self.judge_charge(i, d, path);
                if let Some(section) = &j.section {
                    rules.push(RuleRef::new("charge", Some(section)));
                }
                if j.charge && !no_charge {
                    let (bonus, section) = self.charge_bonus(i, d, &mut rules);
                    s.modifiers.push(Modifier {
                        what: "charge".into(),
                        value: f64::from(bonus),
                        section: section.or_else(|| j.section.clone()),
                    });
                    s.total += f64::from(bonus);
                }
                charges.push(j);
            }
            attackers_out.push(s);
        }
        self.finish_strengths(&mut attackers_out, &atk, d, true, &contact, &mut rules);
        let defenders: Vec<usize> = self.defenders_of(d);
        let first_attacker = atk.first().map_or(d, |a| a.0);
        let mut defenders_out: Vec<Strength> = defenders
            .iter()
            .map(|&i| self.strength_of(i, first_attacker, false, false, &contact, &mut rules))
            .collect();
        let as_defenders: Vec<(usize, bool)> = defenders.iter().map(|&i| (i, false)).collect();
        self.finish_strengths(
            &mut defenders_out,
            &as_defenders,
            first_attacker,
            false,
            &contact,
            &mut rules,
        );
        let attack: f64 = attackers_out.iter().map(|s| s.total).sum();
        let protection = if !atk.is_empty() && atk.iter().all(|(_, at_range)| *at_range) {
            self.fire_protection(dhex, &defenders, &mut rules)
        } else {
            None
        };
        let defence: f64 = match &protection {
            Some(p) => p.value,
            None => defenders_out.iter().map(|s| s.total).sum(),
        };
        let (shifts, die_modifiers) =
            self.terrain_modifiers(dhex, &defenders, &atk, &contact, &mut rules);
        let may_retreat = self.may_retreat(&defenders, &contact, &mut rules);
        let table = self.system.combat_results.as_ref();
        let mut out = Combat {
            attackers: attackers_out,
            defenders: defenders_out,
            attack,
            defence,
            protection,
            index: table
                .map_or(CrtIndex::Odds, |t| t.index)
                .words()
                .to_string(),
            ratio: match table.map(|t| t.index) {
                Some(CrtIndex::Differential) => number(attack - defence),
                _ => format!("{}:{}", number(attack), number(defence)),
            },
            column_before_shifts: None,
            shifts,
            column: None,
            die_modifiers,
            results: Vec::new(),
            modified: Vec::new(),
            charges,
            may_retreat,
            not_allowed: None,
            rules: Vec::new(),
        };
        if let Some(t) = table {
            match odds_column(t, attack, defence) {
                Ok(c) => {
                    let shift: f64 = out.shifts.iter().map(|m| m.value).sum();
                    let last = t.odds.len().saturating_sub(1) as i64;
                    let at = (c as i64 + shift as i64).clamp(0, last) as usize;
                    out.column_before_shifts = t.odds.get(c).cloned();
                    out.column = t.odds.get(at).cloned();
                    out.results = t
                        .rows
                        .iter()
                        .map(|r| DieResult {
                            die: r.die,
                            result: r.results.get(at).cloned().unwrap_or_default(),
                        })
                        .collect();
                    let die: f64 = out.die_modifiers.iter().map(|m| m.value).sum();
                    out.modified = modified_rolls(t, at, die.round() as i32);
                }
                Err(why) => out.not_allowed = Some(why),
            }
            rules.push(RuleRef::new("combat results table", None));
        }
        if let Some(c) = &self.system.rules.combat
            && let Some(g) = &c.combined
        {
            rules.push(RuleRef::new("combined attacks", Some(&g.section)));
        }
        rules.sort();
        rules.dedup();
        out.rules = rules;
        Ok(out)
    }

    /// The attackers by index, each with whether it attacks from range; an error for an
    /// attacker that is no enemy, may not attack or is out of reach, or a defender that
    /// a permission spares that attack (`BeAttackedInMelee`, `BeFiredOn`).
    fn attackers_of(
        &self,
        attackers: &[&str],
        d: usize,
        defender: &str,
    ) -> Result<Vec<(usize, bool)>, QueryError> {
        let dhex = self.hex_of(d);
        let mut atk: Vec<(usize, bool)> = Vec::new();
        for a in attackers {
            let i = self.unit(a)?;
            if !self.enemies(i, d) {
                return Err(QueryError::Invalid {
                    reason: format!("`{a}` and `{defender}` are not enemies"),
                });
            }
            if self.allowance(i, Action::Attack) == Some(Allowance::Never) {
                return Err(QueryError::Invalid {
                    reason: format!("`{a}` may never attack"),
                });
            }
            let dist = self.map.distance(self.hex_of(i), dhex);
            let at_range = dist > 1;
            let range = u32::from(self.units[i].unit.range.unwrap_or(0));
            if dist == 0 || (at_range && dist > range) {
                return Err(QueryError::Invalid {
                    reason: format!(
                        "`{a}` in {} is neither next to `{defender}` in {dhex} nor within its range",
                        self.hex_of(i)
                    ),
                });
            }
            let target = Facts {
                unit: d,
                hex: Some(dhex),
                defending: true,
                opponent: Some(self.hex_of(i)),
                ..Facts::default()
            };
            let (spared, how) = if at_range {
                (Action::BeFiredOn, "fired on")
            } else {
                (Action::BeAttackedInMelee, "attacked in melee")
            };
            if self.allowance_in(d, spared, &target) == Some(Allowance::Never) {
                return Err(QueryError::Invalid {
                    reason: format!("`{defender}` may not be {how} where it stands"),
                });
            }
            let facts = Facts {
                unit: i,
                hex: Some(self.hex_of(i)),
                attacking: true,
                opponent: Some(dhex),
                through: self.class_toward(i, dhex),
                ..Facts::default()
            };
            let act = if at_range { Act::Fire } else { Act::Melee };
            let forbids =
                |e: &Effect| *e == Effect::MayNot(Act::Attack) || *e == Effect::MayNot(act);
            if let Some(r) = self.rules_giving(&facts, forbids).first() {
                let what = if at_range { "fire at" } else { "attack" };
                let section = Some(r.section.as_str()).filter(|s| !s.is_empty());
                return Err(QueryError::Invalid {
                    reason: format!(
                        "`{a}` may not {what} `{defender}` now: rule `{}`{}",
                        r.id,
                        section.map(|s| format!(" ({s})")).unwrap_or_default()
                    ),
                });
            }
            atk.push((i, at_range));
        }
        Ok(atk)
    }

    /// The units unit `id` may attack from where it stands, as [`Engine::combat`] judges
    /// a lone attacker: enemies next to it, or within its range for a missile unit.
    pub fn targets(&self, id: &str) -> Result<Vec<String>, QueryError> {
        self.unit(id)?;
        Ok((0..self.units.len())
            .filter(|&d| self.units[d].hex.is_some())
            .filter(|&d| self.attackers_of(&[id], d, &self.units[d].unit.id).is_ok())
            .map(|d| self.units[d].unit.id.clone())
            .collect())
    }

    /// The class of unit `i`'s hexsides (by its facing) it attacks `target` through: the
    /// hexside toward a neighbour, or those the line of fire leaves by. A line along the
    /// vertex between two classes goes through neither.
    fn class_toward(&self, i: usize, target: HexId) -> Option<&str> {
        let first: Vec<HexId> = if self.map.distance(self.hex_of(i), target) == 1 {
            vec![target]
        } else {
            self.line_between(self.hex_of(i), target)
                .into_iter()
                .next()
                .unwrap_or_default()
        };
        let mut classes = first.iter().map(|h| self.side_class(i, *h));
        let class = classes.next()??;
        classes.all(|c| c == Some(class)).then_some(class)
    }

    /// For each defender of hex `dhex`, the rules in force for it as a defender that
    /// give an effect `want` picks.
    fn defender_rules(
        &self,
        dhex: HexId,
        defenders: &[usize],
        want: impl Fn(&Effect) -> bool + Copy,
    ) -> Vec<Vec<&EffectRule>> {
        defenders
            .iter()
            .map(|&d| {
                let facts = Facts {
                    unit: d,
                    hex: Some(dhex),
                    defending: true,
                    ..Facts::default()
                };
                self.rules_giving(&facts, want)
            })
            .collect()
    }

    /// What defends hex `dhex` against fire, where the system's terrain has fire
    /// protection strengths: a defender's own `FireProtection` by a rule (the highest), else
    /// the best protection of the hex's terrain and features. The number of defenders
    /// does not count (PRESTAGS 6.22).
    fn fire_protection(
        &self,
        dhex: HexId,
        defenders: &[usize],
        rules: &mut Vec<RuleRef>,
    ) -> Option<Modifier> {
        if !self
            .system
            .terrain
            .iter()
            .any(|t| t.fire_protection.is_some())
        {
            return None;
        }
        let fixed = self
            .defender_rules(dhex, defenders, |e| matches!(e, Effect::FireProtection(_)))
            .into_iter()
            .flatten()
            .filter_map(|r| {
                r.then.iter().find_map(|e| match e {
                    Effect::FireProtection(v) => Some((r, *v)),
                    _ => None,
                })
            })
            .max_by_key(|(_, v)| *v);
        if let Some((r, v)) = fixed {
            rules.push(rule_ref(r));
            return Some(Modifier {
                what: format!("{} ({v} against fire)", r.id),
                value: f64::from(v),
                section: Some(r.section.clone()).filter(|s| !s.is_empty()),
            });
        }
        let mut ids: Vec<&str> = self.map.terrain_id_at(dhex).into_iter().collect();
        ids.extend(self.map.feature_ids_at(dhex).iter().map(String::as_str));
        let (id, value) = ids
            .iter()
            .filter_map(|id| {
                let t = self.system.terrain.iter().find(|t| t.id == *id)?;
                Some((*id, t.fire_protection?))
            })
            .max_by_key(|(_, v)| *v)?;
        let what = format!("fire protection of {id}");
        rules.push(RuleRef::new(
            what.clone(),
            self.system.terrain_section.as_deref(),
        ));
        Some(Modifier {
            what,
            value: f64::from(value),
            section: self.system.terrain_section.clone(),
        })
    }

    /// The facts of unit `i` charging unit `d`.
    fn charging(&self, i: usize, d: usize) -> Facts<'_> {
        Facts {
            unit: i,
            hex: Some(self.hex_of(i)),
            attacking: true,
            opponent: Some(self.hex_of(d)),
            ..Facts::default()
        }
    }

    /// What unit `i`'s charge on `d` adds: the first rule in force giving it a
    /// `ChargeBonus` (cited, with its section), else its kind's `charge_bonus`.
    fn charge_bonus(&self, i: usize, d: usize, rules: &mut Vec<RuleRef>) -> (u8, Option<String>) {
        let facts = self.charging(i, d);
        let by_rule = self.rules_giving(&facts, |e| matches!(e, Effect::ChargeBonus(_)));
        let found = by_rule.first().and_then(|r| {
            r.then.iter().find_map(|e| match e {
                Effect::ChargeBonus(n) => Some((r, *n)),
                _ => None,
            })
        });
        match found {
            Some((r, n)) => {
                rules.push(rule_ref(r));
                (n, Some(r.section.clone()).filter(|s| !s.is_empty()))
            }
            None => (
                self.units[i].kind.and_then(|k| k.charge_bonus).unwrap_or(0),
                None,
            ),
        }
    }

    /// The units that defend with `d`: its hex's for systems that attack a hex, else the
    /// unit and the non-combat units stacked with it (a commander adds his strength).
    fn defenders_of(&self, d: usize) -> Vec<usize> {
        let one = self
            .system
            .rules
            .combat
            .as_ref()
            .and_then(|c| c.combined.as_ref())
            .is_some_and(|g| g.defenders == muster_model::combat::DefenderGroup::OneDefender);
        let mut out = vec![d];
        for &o in self.units_at(self.hex_of(d)) {
            if o != d && !self.enemies(o, d) && (!one || self.units[o].role() != UnitRole::Combat) {
                out.push(o);
            }
        }
        out
    }

    /// What the attackers `atk` (by index, each with whether it attacks from range) meet
    /// at the defender's hex `dhex`: the hexsides every melee attacker crosses, whether
    /// they ring it, their hexes, and the fastest of them.
    fn contact(&self, atk: &[(usize, bool)], dhex: HexId) -> Contact<'_> {
        let melee_hexes: Vec<HexId> = atk
            .iter()
            .filter(|(_, r)| !r)
            .map(|(i, _)| self.hex_of(*i))
            .collect();
        let across = |f: &str| {
            !melee_hexes.is_empty()
                && melee_hexes.iter().all(|h| {
                    self.map
                        .hexside(*h, dhex)
                        .is_some_and(|s| s.features.iter().any(|x| x == f))
                })
        };
        let mut all_across: Vec<&str> = self
            .map
            .neighbours(dhex)
            .into_iter()
            .filter_map(|n| self.map.hexside(n, dhex))
            .flat_map(|s| s.features.iter().map(String::as_str))
            .filter(|f| across(f))
            .collect();
        all_across.sort_unstable();
        all_across.dedup();
        Contact {
            flank: self.flank_attack(dhex, &melee_hexes),
            across: all_across,
            melee: melee_hexes,
            fastest: atk
                .iter()
                .filter(|(_, at_range)| !at_range)
                .map(|(i, _)| self.units[*i].unit.movement)
                .reduce(f64::max),
        }
    }

    /// The ids of the defenders that may retreat before a melee: those a rule in force
    /// lets retreat (`May(Retreat)`), none forbids it (`MayNot(Retreat)`) and a hex is
    /// open to, each judged on its own (PRESTAGS 17.5); the rules that let them are
    /// cited.
    fn may_retreat(
        &self,
        defenders: &[usize],
        contact: &Contact,
        rules: &mut Vec<RuleRef>,
    ) -> Vec<String> {
        if contact.melee.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for &d in defenders {
            let facts = self.defender_facts(d, contact);
            let may = self.rules_giving(&facts, |e| *e == Effect::May(Act::Retreat));
            let forbidden = self.rules_giving(&facts, |e| *e == Effect::MayNot(Act::Retreat));
            if !may.is_empty() && forbidden.is_empty() && self.has_retreat(d) {
                rules.extend(may.iter().map(|r| rule_ref(r)));
                out.push(self.units[d].unit.id.clone());
            }
        }
        out
    }

    /// Whether unit `i` has a hex to step back into: a neighbour it may enter from its
    /// hex, by terrain and hexside, and end in, stacking included (PRESTAGS 17.1: a unit
    /// that cannot retreat stays and is attacked).
    fn has_retreat(&self, i: usize) -> bool {
        let h = self.hex_of(i);
        self.map.neighbours(h).into_iter().any(|n| {
            self.may_pass(i, n) && self.may_end(i, n) && self.step_cost(i, h, n, None).is_some()
        })
    }

    /// The facts of defender `d` in its own hex, attacked as `contact` says.
    fn defender_facts<'c>(&self, d: usize, contact: &Contact<'c>) -> Facts<'c> {
        Facts {
            unit: d,
            hex: Some(self.hex_of(d)),
            defending: true,
            all_attackers_across: contact.across.clone(),
            flank_attack: contact.flank,
            fastest_attacker: contact.fastest,
            ..Facts::default()
        }
    }

    fn no_charge_bonus(&self, d: usize, contact: &Contact, rules: &mut Vec<RuleRef>) -> bool {
        let facts = self.defender_facts(d, contact);
        let cancelling = self.rules_giving(&facts, |e| matches!(e, Effect::NoChargeBonus));
        rules.extend(cancelling.iter().map(|r| rule_ref(r)));
        !cancelling.is_empty()
    }

    /// The facts of unit `i` in this combat, attacking or defending against
    /// `opponent`.
    fn combat_facts<'c>(
        &'c self,
        i: usize,
        opponent: usize,
        attacking: bool,
        at_range: bool,
        contact: &Contact<'c>,
    ) -> Facts<'c> {
        let mut attacked_through: Vec<&str> = if attacking {
            Vec::new()
        } else {
            contact
                .melee
                .iter()
                .filter_map(|h| self.side_class(i, *h))
                .collect()
        };
        attacked_through.sort_unstable();
        attacked_through.dedup();
        Facts {
            unit: i,
            hex: Some(self.hex_of(i)),
            attacking,
            defending: !attacking,
            all_attackers_across: contact.across.clone(),
            flank_attack: contact.flank && !at_range,
            opponent: Some(self.hex_of(opponent)),
            through: if attacking {
                self.class_toward(i, self.hex_of(opponent))
            } else {
                None
            },
            attacked_through,
            fastest_attacker: if attacking { None } else { contact.fastest },
            ..Facts::default()
        }
    }

    /// Unit `i`'s strength with the corrections of `Strength` and `FixedStrength`, in
    /// the order of the rules.
    fn strength_of(
        &self,
        i: usize,
        opponent: usize,
        attacking: bool,
        at_range: bool,
        contact: &Contact,
        rules: &mut Vec<RuleRef>,
    ) -> Strength {
        let u = &self.units[i];
        let base = if at_range {
            u.unit.fire.unwrap_or(u.unit.strength)
        } else {
            u.unit.strength
        };
        let mut s = Strength {
            unit: u.unit.id.clone(),
            hex: self.hex_of(i).to_string(),
            base,
            modifiers: Vec::new(),
            total: base,
            at_range,
        };
        let facts = self.combat_facts(i, opponent, attacking, at_range, contact);
        for r in self.rules_giving(&facts, |e| {
            matches!(e, Effect::Strength(_) | Effect::FixedStrength(_))
        }) {
            for e in &r.then {
                match e {
                    Effect::Strength(f) => multiply(&mut s, r, *f, ""),
                    Effect::FixedStrength(v) => {
                        s.modifiers.push(Modifier {
                            what: r.id.clone(),
                            value: f64::from(*v) - s.total,
                            section: Some(r.section.clone()),
                        });
                        s.total = f64::from(*v);
                    }
                    _ => continue,
                }
                rules.push(rule_ref(r));
            }
        }
        s
    }

    /// The last corrections of one side's strengths, after `strength_of` and any
    /// charge: the bonus of the friendly leaders stacked with each unit (`LeaderBonus`,
    /// PRESTAGS 10.1), then the multipliers that come after every other correction
    /// (`FinalStrength`, PRESTAGS 7.52). `who` gives each strength's unit and whether
    /// it attacks from range.
    fn finish_strengths(
        &self,
        out: &mut [Strength],
        who: &[(usize, bool)],
        opponent: usize,
        attacking: bool,
        contact: &Contact,
        rules: &mut Vec<RuleRef>,
    ) {
        let facts: Vec<Facts> = who
            .iter()
            .map(|&(i, r)| self.combat_facts(i, opponent, attacking, r, contact))
            .collect();
        self.leader_bonus(out, who, &facts, rules);
        for (k, f) in facts.iter().enumerate() {
            for r in self.rules_giving(f, |e| matches!(e, Effect::FinalStrength(_))) {
                for e in &r.then {
                    if let Effect::FinalStrength(x) = e {
                        multiply(&mut out[k], r, *x, ", last");
                        rules.push(rule_ref(r));
                    }
                }
            }
        }
    }

    /// Adds to each side's strengths `out` (of the units `who`, with their `facts`)
    /// the bonus of the friendly leaders stacked with the units a `LeaderBonus` rule
    /// picks: once per hex, on the first such unit of the hex, at most the picked
    /// units' strength together where a rule says `capped` (PRESTAGS 10.11). A leader
    /// picked himself gives nothing to his own stack's bonus.
    fn leader_bonus(
        &self,
        out: &mut [Strength],
        who: &[(usize, bool)],
        facts: &[Facts],
        rules: &mut Vec<RuleRef>,
    ) {
        let mut takers: BTreeMap<(HexId, Option<&str>), Vec<Taker>> = BTreeMap::new();
        for (k, f) in facts.iter().enumerate() {
            let found = self.rules_giving(f, |e| matches!(e, Effect::LeaderBonus { .. }));
            if let Some(rule) = found.first() {
                let capped = found
                    .iter()
                    .flat_map(|r| &r.then)
                    .any(|e| matches!(e, Effect::LeaderBonus { capped: true }));
                let i = who[k].0;
                let key = (self.hex_of(i), self.units[i].unit.side.as_deref());
                takers
                    .entry(key)
                    .or_default()
                    .push(Taker { k, rule, capped });
            }
        }
        for ((hex, side), group) in &takers {
            let taking: Vec<usize> = group.iter().map(|t| who[t.k].0).collect();
            let mut leaders = Vec::new();
            let mut bonus = 0.0;
            for &o in self.units_at(*hex) {
                let b = match self.units[o].kind.and_then(|k| k.stats.as_ref()) {
                    Some(KindStats::Leader { combat_bonus, .. }) => *combat_bonus,
                    _ => 0,
                };
                if b > 0 && self.units[o].unit.side.as_deref() == *side && !taking.contains(&o) {
                    leaders.push(self.units[o].unit.id.as_str());
                    bonus += f64::from(b);
                }
            }
            if leaders.is_empty() {
                continue;
            }
            let Taker { k: first, rule, .. } = group[0];
            let mut what = format!("{} ({})", rule.id, leaders.join(", "));
            if group.iter().any(|t| t.capped) {
                let cap: f64 = group.iter().map(|t| out[t.k].total.max(0.0)).sum();
                if cap < bonus {
                    what = format!("{what}, at most the stack's {}", number(cap));
                    bonus = cap;
                }
            }
            out[first].modifiers.push(Modifier {
                what,
                value: bonus,
                section: Some(rule.section.clone()),
            });
            out[first].total += bonus;
            rules.push(rule_ref(rule));
        }
    }

    /// Column shifts and die modifiers of the defender's hex and hexsides and of the
    /// rules in force for the defender and the attackers.
    fn terrain_modifiers(
        &self,
        dhex: HexId,
        defenders: &[usize],
        attackers: &[(usize, bool)],
        contact: &Contact,
        rules: &mut Vec<RuleRef>,
    ) -> (Vec<Modifier>, Vec<Modifier>) {
        let across = &contact.across;
        let mut shifts = Vec::new();
        let mut dice = Vec::new();
        let terrain = self.map.terrain_id_at(dhex).unwrap_or_default().to_string();
        // Where every defender's defence is proof against terrain (LRF 9.4), the hex
        // and its hexsides add nothing; the rules that say so are cited.
        let proof = self.defender_rules(dhex, defenders, |e| matches!(e, Effect::TerrainProof));
        let terrain_proof = !proof.is_empty() && proof.iter().all(|r| !r.is_empty());
        if terrain_proof {
            rules.extend(proof.iter().flatten().map(|r| rule_ref(r)));
        }
        if let Some(e) = self.map.effects_at(dhex).filter(|_| !terrain_proof) {
            if e.column_shift != 0 {
                shifts.push(Modifier {
                    what: format!("defender in {terrain}"),
                    value: f64::from(e.column_shift),
                    section: self.system.terrain_section.clone(),
                });
            }
            if e.die_modifier != 0 {
                dice.push(Modifier {
                    what: format!("defender in {terrain}"),
                    value: f64::from(e.die_modifier),
                    section: self.system.terrain_section.clone(),
                });
            }
        }
        for f in across.iter().filter(|_| !terrain_proof) {
            if let Some(t) = self.system.hexside_features.iter().find(|t| t.id == *f) {
                for c in &t.combat {
                    match c {
                        CombatEffect::DieModifier(v) => dice.push(Modifier {
                            what: format!("every attacker across the {f}"),
                            value: f64::from(*v),
                            section: self.system.terrain_section.clone(),
                        }),
                        CombatEffect::ColumnShift(v) => shifts.push(Modifier {
                            what: format!("every attacker across the {f}"),
                            value: f64::from(*v),
                            section: self.system.terrain_section.clone(),
                        }),
                        _ => {}
                    }
                }
            }
        }
        // The terrain's own modifiers, those above, cite the chart's section.
        if !shifts.is_empty() || !dice.is_empty() {
            rules.push(RuleRef::new(
                "terrain effects",
                self.system.terrain_section.as_deref(),
            ));
        }
        // The rules of each defender, then of each attacker: a rule counts once however
        // many units meet it (PRESTAGS 8.2: a stack with one disrupted unit in it).
        let defender = defenders.iter().map(|&d| Facts {
            unit: d,
            hex: Some(dhex),
            defending: true,
            all_attackers_across: across.clone(),
            flank_attack: contact.flank,
            fastest_attacker: contact.fastest,
            ..Facts::default()
        });
        let attacking = attackers.iter().map(|&(a, at_range)| Facts {
            unit: a,
            hex: Some(self.hex_of(a)),
            attacking: true,
            all_attackers_across: across.clone(),
            flank_attack: contact.flank && !at_range,
            opponent: Some(dhex),
            ..Facts::default()
        });
        let mut counted: Vec<&str> = Vec::new();
        for facts in defender.chain(attacking) {
            for r in self.rules_giving(&facts, |e| {
                matches!(e, Effect::OddsShift(_) | Effect::DieModifier(_))
            }) {
                if counted.contains(&r.id.as_str()) {
                    continue;
                }
                counted.push(&r.id);
                for e in &r.then {
                    match e {
                        Effect::OddsShift(v) => shifts.push(Modifier {
                            what: r.id.clone(),
                            value: f64::from(*v),
                            section: Some(r.section.clone()),
                        }),
                        Effect::DieModifier(v) => dice.push(Modifier {
                            what: r.id.clone(),
                            value: f64::from(*v),
                            section: Some(r.section.clone()),
                        }),
                        _ => continue,
                    }
                    rules.push(rule_ref(r));
                }
            }
        }
        (shifts, dice)
    }

    /// Whether the units attacking in melee from `attacker_hexes` occupy, or stand next
    /// to, every one of the six hexes around `dhex` (PRESTAGS 7.51: a flank attack).
    /// Hexes off the map count like any other (7.54: a map edge flanks no one).
    fn flank_attack(&self, dhex: HexId, attacker_hexes: &[HexId]) -> bool {
        const AROUND: [[i32; 2]; 6] = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
        let layout = self.map.grid().layout;
        let [q, r] = layout.axial(dhex);
        let attackers: Vec<[i32; 2]> = attacker_hexes.iter().map(|h| layout.axial(*h)).collect();
        let near = |a: [i32; 2], b: [i32; 2]| {
            let (dq, dr) = (a[0] - b[0], a[1] - b[1]);
            (dq.abs() + dr.abs() + (dq + dr).abs()) / 2 <= 1
        };
        !attackers.is_empty()
            && AROUND
                .iter()
                .all(|d| attackers.iter().any(|a| near(*a, [q + d[0], r + d[1]])))
    }

    /// Whether moving along `path` (the hexes entered in order, the attacker's own hex
    /// last) is a charge at unit `d`, by the system's charge rule.
    pub fn judge_charge(&self, i: usize, d: usize, path: &[String]) -> ChargeJudgement {
        let rule = self.system.rules.charge.as_ref();
        let mut j = ChargeJudgement {
            unit: self.units[i].unit.id.clone(),
            path: path.to_vec(),
            charge: false,
            reason: None,
            section: rule.map(|r| r.section.clone()),
        };
        let refuse = |mut j: ChargeJudgement, why: String| {
            j.reason = Some(why);
            j
        };
        // A rule in force may forbid this charge, or allow it whatever the permissions
        // and the charge rule's target terrain say (a special rule's charging unit).
        let facts = self.charging(i, d);
        let said = self.rules_giving(&facts, |e| {
            matches!(e, Effect::May(Act::Charge) | Effect::MayNot(Act::Charge))
        });
        let says = |want: &Effect| said.iter().find(|r| r.then.contains(want));
        if let Some(r) = says(&Effect::MayNot(Act::Charge)) {
            j.section = Some(r.section.clone())
                .filter(|s| !s.is_empty())
                .or(j.section);
            return refuse(j, format!("rule `{}` forbids this charge", r.id));
        }
        let allowed = says(&Effect::May(Act::Charge)).is_some();
        if !allowed && self.allowance_in(i, Action::Charge, &facts) != Some(Allowance::May) {
            return refuse(j, format!("{} may not charge", self.units[i].unit.kind));
        }
        let Some(rule) = rule else {
            return refuse(j, "the system has no charge rule".into());
        };
        let mut hexes = Vec::new();
        for p in path {
            match self.hex(p) {
                Ok(h) => hexes.push(h),
                Err(e) => return refuse(j, e.to_string()),
            }
        }
        let target = self.hex_of(d);
        if hexes.last() != Some(&self.hex_of(i)) {
            return refuse(
                j,
                format!(
                    "the path does not end where the unit stands ({})",
                    self.hex_of(i)
                ),
            );
        }
        if !allowed
            && !rule.target_in.is_empty()
            && !rule.target_in.iter().any(|t| self.hex_has(target, t))
        {
            return refuse(
                j,
                format!(
                    "the target's hex {target} is not {}",
                    rule.target_in.join(", ")
                ),
            );
        }
        for h in &hexes {
            if !rule.through.is_empty() && !rule.through.iter().any(|t| self.hex_has(*h, t)) {
                return refuse(j, format!("{h} is not {}", rule.through.join(" or ")));
            }
        }
        for w in hexes.windows(2) {
            if !self.map.grid().adjacent(w[0], w[1]) {
                return refuse(j, format!("{} and {} are not adjacent", w[0], w[1]));
            }
        }
        if rule.straight_line {
            let layout = self.map.grid().layout;
            let ax = |h: HexId| layout.axial(h);
            let step = |a: HexId, b: HexId| {
                let (p, q) = (ax(a), ax(b));
                [q[0] - p[0], q[1] - p[1]]
            };
            let mut line = hexes.clone();
            line.push(target);
            let first = step(line[0], line[1]);
            for w in line.windows(2) {
                if step(w[0], w[1]) != first {
                    let turn = w[0];
                    let why = if w[1] == target {
                        format!(
                            "the target in {target} is not straight ahead of the move (it turns at {turn})"
                        )
                    } else {
                        format!("the move turns at {turn}: not a straight line towards {target}")
                    };
                    return refuse(j, why);
                }
            }
        }
        j.charge = true;
        j
    }
}
