//! A counter sheet: the physical units of a game, grouped by army.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Assumed, one};

/// `CounterSheet(...)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterSheet {
    pub id: String,
    /// The rules system these counters belong to (id or relative path).
    pub system: String,
    pub armies: Vec<Army>,
}

/// The counters of one army, in one background colour.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Army {
    pub id: String,
    pub name: String,
    pub colour: String,
    pub counters: Vec<Counter>,
}

/// One counter design and how many copies of it the sheet holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Counter {
    /// Id used by scenarios (`"neustrie-cavalry-4"`).
    pub id: String,
    /// The name printed on the counter.
    pub name: String,
    /// A unit kind of the system (`"cavalry"`).
    pub kind: String,
    /// The strength printed on the full-strength side. What else it counts for (combat,
    /// morale, losses) is the rules system's to say.
    pub strength: u8,
    /// Strength on the reduced side; `None` for one-step counters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduced: Option<u8>,
    /// Movement points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<f64>,
    /// Fire range in hexes, for missile units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<u8>,
    /// What the back of a one-step counter shows once the unit is eliminated but stays
    /// on the map ("Pillé" baggage, a burnt drakkar).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eliminated_side: Option<String>,
    /// Copies on the sheet.
    #[serde(default = "one")]
    #[schemars(range(min = 1))]
    pub count: u8,
    #[serde(default, skip_serializing_if = "Assumed::is_empty")]
    pub assumed: Assumed,
}

impl Counter {
    /// Number of step losses that eliminate the unit.
    pub fn steps(&self) -> u8 {
        if self.reduced.is_some() { 2 } else { 1 }
    }
}
