//! A system's combat rules (`rules.combat`) in words, one line per rule with its
//! section, as `summary` and `muster list rules` print them.

use muster_model::combat::{CombatRules, DefenderGroup, Obligation};

use super::condition_words;

/// Each combat rule the system states, by its field name (`compulsory`), in words.
pub fn combat_words(c: &CombatRules) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if let Some(x) = &c.compulsory {
        let mut text = match x.attacks {
            Obligation::Voluntary => "no attack is compulsory".to_string(),
            Obligation::EveryAdjacentUnit => "every unit next to an enemy must attack".to_string(),
            Obligation::EveryAdjacentEnemy => {
                "every enemy next to a phasing unit must be attacked".to_string()
            }
            Obligation::EveryAdjacentEnemyAndUnit => {
                "every unit next to an enemy must attack, and every such enemy be attacked"
                    .to_string()
            }
        };
        if let Some(who) = &x.who {
            text += &format!(", binding {}", condition_words(who));
        }
        out.push(("compulsory", format!("{text} ({})", x.section)));
    }
    if let Some(x) = &c.once_per_phase {
        let text = match (x.each_attacker_once, x.each_defender_once) {
            (true, true) => {
                "a unit attacks at most once and is attacked at most once a combat phase"
            }
            (true, false) => {
                "a unit attacks at most once a combat phase, and may be attacked again"
            }
            (false, true) => "a unit is attacked at most once a combat phase, and may attack again",
            (false, false) => "a unit may attack and be attacked more than once a combat phase",
        };
        out.push(("once_per_phase", format!("{text} ({})", x.section)));
    }
    if let Some(x) = &c.combined {
        let from = if x.attackers {
            "units in several hexes may attack together"
        } else {
            "an attack is made from one hex"
        };
        let takes = match x.defenders {
            DefenderGroup::OneDefender => "one defending unit",
            DefenderGroup::OneHex => "the units of one hex, together",
            DefenderGroup::MultiHex => {
                "the units of one or more hexes, every attacker next to every defender"
            }
        };
        out.push((
            "combined",
            format!("{from}; an attack takes {takes} ({})", x.section),
        ));
    }
    if let Some(x) = &c.split_strength {
        let text = if x.allowed {
            "a unit's strength may be split among attacks"
        } else {
            "a unit's strength is never split among attacks"
        };
        out.push(("split_strength", format!("{text} ({})", x.section)));
    }
    if let Some(x) = &c.advance {
        let mut text = match x.units {
            None => "every attacking unit may advance into a hex combat empties".to_string(),
            Some(1) => "one attacking unit may advance into a hex combat empties".to_string(),
            Some(n) => format!("up to {n} attacking units may advance into a hex combat empties"),
        };
        if x.ignores_zoc {
            text += ", whatever the zones of control";
        }
        if x.defender_too {
            text += "; a defender likewise";
        }
        out.push(("advance", format!("{text} ({})", x.section)));
    }
    out
}

#[cfg(test)]
mod tests {
    use muster_model::combat::{CompulsoryAttacks, SplitStrength};
    use muster_model::vocab::Condition;

    use super::*;

    #[test]
    fn combat_rules_read_one_line_each_with_their_section() {
        let c = CombatRules {
            compulsory: Some(CompulsoryAttacks {
                section: "7.1".into(),
                attacks: Obligation::EveryAdjacentUnit,
                who: Some(Condition::Not(Box::new(Condition::Troop("levy".into())))),
                note: None,
            }),
            split_strength: Some(SplitStrength {
                section: "7.4".into(),
                allowed: false,
                note: None,
            }),
            ..CombatRules::default()
        };
        assert_eq!(
            combat_words(&c),
            vec![
                (
                    "compulsory",
                    "every unit next to an enemy must attack, binding not `levy` units (7.1)"
                        .to_string()
                ),
                (
                    "split_strength",
                    "a unit's strength is never split among attacks (7.4)".to_string()
                ),
            ]
        );
        assert!(combat_words(&CombatRules::default()).is_empty());
    }
}
