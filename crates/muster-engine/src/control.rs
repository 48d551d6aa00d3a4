//! Who holds the map's labelled hexes ([`Engine::control`]), by the system's `control`
//! rule (PRESTAGS 11.3): the side whose units alone stand in a hex holds it; an empty
//! hex stays with the side that held it last where the rule keeps it (the position's
//! `controls` is that record), and is nobody's otherwise. Without the rule the position
//! says who holds what. `SideFact::Controls` and `ControlsAtLeast` read the same answer
//! where the rule is there, and the position's record where it is not.

use muster_hex::HexId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Engine, RuleRef};

/// Who holds each labelled hex of the map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Control {
    /// In hex order.
    pub hexes: Vec<HeldHex>,
    pub rules: Vec<RuleRef>,
}

/// One labelled hex and who holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HeldHex {
    pub hex: String,
    pub label: String,
    /// The side that holds it, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    pub by: HeldBy,
}

/// Why a hex is held, or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HeldBy {
    /// The side's units alone stand in it.
    Occupied,
    /// Units of both sides stand in it, so neither holds it.
    Contested,
    /// No unit stands in it; the side held it last (the position's record).
    HeldLast,
    /// No unit stands in it, and the rule gives it to nobody.
    Nobody,
    /// The system has no `control` rule: the position's record says.
    Recorded,
}

impl Engine<'_> {
    /// Who holds each labelled hex of the map.
    pub fn control(&self) -> Control {
        let mut hexes: Vec<HeldHex> = self
            .map
            .table()
            .labels
            .iter()
            .filter_map(|l| {
                let hex = HexId::parse(&l.hex).ok()?;
                let (side, by) = self.holder(hex, &l.text);
                Some(HeldHex {
                    hex: hex.to_string(),
                    label: l.text.clone(),
                    side: side.map(str::to_string),
                    by,
                })
            })
            .collect();
        hexes.sort_by(|a, b| a.hex.cmp(&b.hex));
        let rules = self
            .system
            .rules
            .control
            .iter()
            .map(|c| RuleRef::new("control of hexes", Some(&c.section)))
            .collect();
        Control { hexes, rules }
    }

    /// Who holds hex `hex`, labelled `label`, and why.
    fn holder(&self, hex: HexId, label: &str) -> (Option<&str>, HeldBy) {
        let recorded = || {
            self.position
                .sides
                .iter()
                .find(|s| s.controls.iter().any(|c| c == label))
                .map(|s| s.id.as_str())
        };
        let Some(rule) = &self.system.rules.control else {
            return (recorded(), HeldBy::Recorded);
        };
        let mut sides = self
            .units_at(hex)
            .iter()
            .filter_map(|&o| self.units[o].unit.side.as_deref());
        match sides.next() {
            Some(first) if sides.all(|s| s == first) => (Some(first), HeldBy::Occupied),
            Some(_) => (None, HeldBy::Contested),
            None if rule.kept_when_left => match recorded() {
                Some(s) => (Some(s), HeldBy::HeldLast),
                None => (None, HeldBy::Nobody),
            },
            None => (None, HeldBy::Nobody),
        }
    }

    /// The distinct labels side `side` holds.
    pub(crate) fn labels_held(&self, side: &str) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .map
            .table()
            .labels
            .iter()
            .filter(|l| HexId::parse(&l.hex).is_ok_and(|h| self.holder(h, &l.text).0 == Some(side)))
            .map(|l| l.text.as_str())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}
