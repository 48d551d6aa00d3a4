//! Derived figures: what a side's units add up to under its system's rules.

use muster_model::scenario::TableForces;

use crate::ScenarioCx;

/// An army's break point (Chanson de Geste, Break Point): one point for every base of
/// the army, the camp's or baggage's bases included, leaders not counted, plus the
/// scenario's adjustments. `None` when the system has no break point rule.
pub fn break_point(cx: &ScenarioCx, forces: &TableForces) -> Option<i64> {
    cx.system?.break_point.as_ref()?;
    let bases: i64 = forces.units.iter().map(|u| i64::from(u.bases)).sum();
    let camp = forces
        .camp
        .as_ref()
        .map_or(0, |c| i64::from(c.transport_bases));
    let adjustments: i64 = forces
        .break_point
        .iter()
        .flat_map(|b| b.adjustments.iter())
        .map(|a| i64::from(a.points))
        .sum();
    Some(bases + camp + adjustments)
}
