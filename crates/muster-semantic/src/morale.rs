//! Morale figures the rulebooks derive from a side's units.

use muster_model::system::{ArmyMoraleScoring, UnitRole};

use crate::ScenarioCx;

/// Everything side `index` could lose, scored as the system scores losses: the
/// strength of every unit (setup and reinforcements), plus the commander and baggage
/// bonuses.
pub fn max_losses(cx: &ScenarioCx, index: usize, scoring: &ArmyMoraleScoring) -> u32 {
    let score = |strength: u8, role: Option<UnitRole>| {
        u32::from(strength)
            + match role {
                Some(UnitRole::Commander) => u32::from(scoring.commander_bonus),
                Some(UnitRole::Baggage) => u32::from(scoring.baggage_bonus),
                _ => 0,
            }
    };
    let setup: u32 = cx
        .side_groups(index)
        .flat_map(|g| g.units.iter())
        .filter_map(|u| Some(score(u.counter?.strength, u.role())))
        .sum();
    let arriving: u32 = cx
        .side_reinforcements(index)
        .flat_map(|r| r.units.iter().map(move |g| (cx.reinforcement_army(r), g)))
        .filter_map(|(army, g)| {
            let c = army?.counters.iter().find(|c| c.id == g.counter)?;
            Some(score(c.strength, cx.unit_kind(&c.kind).map(|k| k.role)) * u32::from(g.count))
        })
        .sum();
    setup + arriving
}
