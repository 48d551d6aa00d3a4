//! `viking-ferocity`: the Viking ferocity rules (PRESTAGS Viking 3.6-3.9).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::{Act, Condition, Effect as VEffect, EffectRule, SideFact};

/// `viking-ferocity`: the Viking ferocity rules (PRESTAGS Viking 3.6-3.9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VikingFerocity {
    /// The Viking side.
    pub side: String,
    /// Whether the rules must be used rather than may.
    #[serde(default)]
    pub mandatory: bool,
}

impl HookSpec for VikingFerocity {
    const ID: &'static str = "viking-ferocity";
    const SYSTEMS: &'static [&'static str] = &["prestags"];
    const SUMMARY: &'static str = "the Viking ferocity rules apply to one side";
    const EXAMPLE: &'static str = r#"(hook: "viking-ferocity", params: {"side": "vikings", "mandatory": true}, text: "Viking ferocity rules apply (Excl 3.6-3.9).")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.side("side", &self.side);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }

    /// Excl 3.61: the side's melee attacks gain a column in the player-turn of its first
    /// melee attack; 3.71: one on the die in every later attack; 3.81: one off the die
    /// of every attack on its units from the game turn after the first attack's. 3.9: all of it ends
    /// when the side panics (`Demoralised`).
    fn rules(&self) -> Vec<EffectRule> {
        let rule = |id: &str, section: &str, mut when: Vec<Condition>, then, note: &str| {
            when.insert(0, Condition::Side(self.side.clone()));
            when.push(Condition::Not(Box::new(Condition::OwnSide(
                SideFact::Demoralised,
            ))));
            EffectRule {
                id: id.into(),
                section: section.into(),
                when: Some(Condition::All(when)),
                then: vec![then],
                note: Some(note.into()),
            }
        };
        let first = || Condition::OwnSide(SideFact::ActedBefore(Act::Melee));
        vec![
            rule(
                "viking-first-attack",
                "Excl 3.61",
                vec![
                    Condition::Phase("melee".into()),
                    Condition::Attacking,
                    Condition::Not(Box::new(first())),
                ],
                VEffect::OddsShift(1),
                "every melee attack of that player-turn (3.62); lost on panic (3.9)",
            ),
            rule(
                "viking-later-attacks",
                "Excl 3.71",
                vec![
                    Condition::Phase("melee".into()),
                    Condition::Attacking,
                    first(),
                ],
                VEffect::DieModifier(1),
                "never in place of the first attack's column (3.73); lost on panic (3.9); a six stays six (3.72) by the table's rolls_beyond",
            ),
            rule(
                "viking-later-defence",
                "Excl 3.81",
                vec![
                    Condition::Phase("melee".into()),
                    Condition::Defending,
                    Condition::OwnSide(SideFact::ActedInEarlierTurn(Act::Melee)),
                ],
                VEffect::DieModifier(-1),
                "lost on panic (3.9); a one stays one (3.82) by the table's rolls_beyond",
            ),
        ]
    }
}
