//! A system's combat rules (`rules.combat`) in words, one line per rule with its
//! section, as `summary` and `muster list rules` print them.

use muster_model::combat::{CombatRules, DefenderGroup, Obligation};
use muster_model::system::GridKind;

use super::condition_words;

/// Each combat rule the system states, by its field name (`compulsory`), in words; on
/// an open table (`grid`) without hexes.
pub fn combat_words(c: &CombatRules, grid: &GridKind) -> Vec<(&'static str, String)> {
    let table = match grid {
        GridKind::Hex { .. } => false,
        GridKind::Table { .. } => true,
    };
    let space = if table { "the space" } else { "a hex" };
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
        let from = match (x.attackers, table) {
            (true, false) => "units in several hexes may attack together",
            (true, true) => "several units may attack together",
            (false, false) => "an attack is made from one hex",
            (false, true) => "an attack is made by one unit",
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
            None => format!("every attacking unit may advance into {space} combat empties"),
            Some(1) => format!("one attacking unit may advance into {space} combat empties"),
            Some(n) => format!("up to {n} attacking units may advance into {space} combat empties"),
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
        let hexes = GridKind::Hex {
            layout: Default::default(),
        };
        assert_eq!(
            combat_words(&c, &hexes),
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
        assert!(combat_words(&CombatRules::default(), &hexes).is_empty());
    }

    #[test]
    fn on_an_open_table_combat_words_name_no_hexes() {
        use muster_model::combat::{AdvanceAfterCombat, CombinedAttacks};
        let c = CombatRules {
            combined: Some(CombinedAttacks {
                section: "l. 103".into(),
                attackers: true,
                defenders: DefenderGroup::OneDefender,
                note: None,
            }),
            advance: Some(AdvanceAfterCombat {
                section: "l. 147".into(),
                units: Some(1),
                ignores_zoc: false,
                defender_too: false,
                note: None,
            }),
            ..CombatRules::default()
        };
        let table = GridKind::Table {
            features: Vec::new(),
            facing_change: None,
        };
        let texts: Vec<String> = combat_words(&c, &table)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        assert_eq!(
            texts,
            [
                "several units may attack together; an attack takes one defending unit (l. 103)",
                "one attacking unit may advance into the space combat empties (l. 147)",
            ]
        );
        let hexes = GridKind::Hex {
            layout: Default::default(),
        };
        assert!(combat_words(&c, &hexes)[0].1.contains("several hexes"));
    }
}
