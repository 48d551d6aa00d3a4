//! Flight (`Flees`, PRESTAGS 13.0): a unit a `Flees` rule holds for moves only from
//! hex to hex each further from the nearest enemy than the last, and ends as far from
//! the nearest enemy as it can get. Leaving the map, where the rule's note allows it,
//! is not searched.

use std::collections::HashMap;

use muster_hex::HexId;
use muster_model::vocab::{Effect, EffectRule};

use crate::cond::Facts;
use crate::reach::ReachHex;
use crate::{Engine, RuleRef, rule_ref};

/// The enemies a fleeing unit runs from, and the rule that makes it flee.
pub(crate) struct Flight<'a> {
    enemies: Vec<HexId>,
    pub(crate) rule: &'a EffectRule,
}

impl Flight<'_> {
    /// How far `h` is from the nearest enemy.
    pub(crate) fn distance(&self, engine: &Engine, h: HexId) -> u32 {
        self.enemies
            .iter()
            .map(|e| engine.map.distance(h, *e))
            .min()
            .unwrap_or(u32::MAX)
    }

    /// Whether a step from `h` into `n` takes the unit further from the nearest enemy.
    pub(crate) fn away(&self, engine: &Engine, h: HexId, n: HexId) -> bool {
        self.distance(engine, n) > self.distance(engine, h)
    }
}

impl<'a> Engine<'a> {
    /// How unit `i`, starting on `start`, flees, if a rule in force there says it does
    /// and an enemy is on the map to flee from.
    pub(crate) fn flight(&self, i: usize, start: HexId) -> Option<Flight<'a>> {
        let facts = Facts::at(self, i, start);
        let rule = *self.rules_giving(&facts, |e| *e == Effect::Flees).first()?;
        let enemies: Vec<HexId> = (0..self.units.len())
            .filter(|&o| self.enemies(i, o) && self.units[o].hex.is_some())
            .map(|o| self.hex_of(o))
            .collect();
        (!enemies.is_empty()).then_some(Flight { enemies, rule })
    }

    /// Narrows a fleeing unit's reach `out` to the hexes furthest from the nearest
    /// enemy, and further than `start`; a unit with nowhere further to go stays.
    pub(crate) fn flee(
        &self,
        i: usize,
        start: HexId,
        out: &mut HashMap<HexId, ReachHex>,
        rules: &mut Vec<RuleRef>,
    ) {
        let Some(flight) = self.flight(i, start) else {
            return;
        };
        rules.push(rule_ref(flight.rule));
        let from = flight.distance(self, start);
        let furthest = out
            .keys()
            .map(|h| flight.distance(self, *h))
            .filter(|d| *d > from)
            .max();
        out.retain(|h, _| Some(flight.distance(self, *h)) == furthest);
    }
}
