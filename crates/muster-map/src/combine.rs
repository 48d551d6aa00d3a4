//! What a hex with several terrains does: its own terrain and the features a map adds
//! to it (`AddTerrain`), combined by the system's rule (`rules.terrain_combine`, carried
//! in the compiled table). [`combine`] is the rule; [`crate::TerrainMap::effects_at`]
//! applies it to a hex of a loaded table.

use muster_model::system::{CostCombine, EffectCombine, TerrainCombine};
use muster_model::table::TerrainEntry;

/// The effects of a hex, all its terrains counted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HexEffects {
    /// Movement points to enter; `None` when impassable.
    pub move_cost: Option<f64>,
    pub die_modifier: i8,
    pub column_shift: i8,
    /// Whether a unit in the hex may not retreat.
    pub no_retreat: bool,
}

/// The effects of a hex whose own terrain is `base` and whose features are `features`,
/// by `rule`. Without a rule the features change nothing (a map that adds features to
/// a system without `terrain_combine` is an error the validator reports).
pub fn combine(
    base: &TerrainEntry,
    features: &[&TerrainEntry],
    rule: Option<TerrainCombine>,
) -> HexEffects {
    let Some(rule) = rule.filter(|_| !features.is_empty()) else {
        return effects_of(base);
    };
    let all = || std::iter::once(base).chain(features.iter().copied());
    let move_cost = match rule.cost {
        CostCombine::Base => base.move_cost,
        CostCombine::MostCostly => all()
            .map(|t| t.move_cost)
            .try_fold(0.0_f64, |most, c| c.map(|c| most.max(c))),
        CostCombine::Cumulative => all().map(|t| t.move_cost).sum(),
    };
    let effect = |of: fn(&TerrainEntry) -> i8| match rule.combat {
        EffectCombine::Base => of(base),
        // `max_by_key` keeps the last of equals: the list is walked from the last
        // feature back to the base, so the base wins a tie.
        EffectCombine::Strongest => all()
            .rev()
            .map(of)
            .max_by_key(|n| n.unsigned_abs())
            .unwrap_or(0),
        EffectCombine::Cumulative => all().map(of).fold(0_i8, i8::saturating_add),
    };
    HexEffects {
        move_cost,
        die_modifier: effect(|t| t.die_modifier),
        column_shift: effect(|t| t.column_shift),
        no_retreat: match rule.combat {
            EffectCombine::Base => base.no_retreat,
            EffectCombine::Strongest | EffectCombine::Cumulative => all().any(|t| t.no_retreat),
        },
    }
}

fn effects_of(t: &TerrainEntry) -> HexEffects {
    HexEffects {
        move_cost: t.move_cost,
        die_modifier: t.die_modifier,
        column_shift: t.column_shift,
        no_retreat: t.no_retreat,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terrain(id: &str, cost: Option<f64>, dm: i8, shift: i8) -> TerrainEntry {
        TerrainEntry {
            id: id.into(),
            move_cost: cost,
            along_road: None,
            die_modifier: dm,
            column_shift: shift,
            no_retreat: false,
            fire_protection: None,
            prohibited: vec![],
            allowed: vec![],
        }
    }

    fn rule(cost: CostCombine, combat: EffectCombine) -> Option<TerrainCombine> {
        Some(TerrainCombine { cost, combat })
    }

    #[test]
    fn costs_combine_by_the_rule() {
        let woods = terrain("woods", Some(2.0), 0, -1);
        let village = terrain("village", Some(1.0), 1, 0);
        let rough = terrain("rough", Some(3.0), 0, 0);
        let with = |c| combine(&woods, &[&village, &rough], rule(c, EffectCombine::Base));
        assert_eq!(with(CostCombine::MostCostly).move_cost, Some(3.0));
        assert_eq!(with(CostCombine::Cumulative).move_cost, Some(6.0));
        assert_eq!(with(CostCombine::Base).move_cost, Some(2.0));
    }

    #[test]
    fn impassable_terrain_keeps_the_hex_impassable_unless_the_base_alone_counts() {
        let clear = terrain("clear", Some(1.0), 0, 0);
        let marsh = terrain("marsh", None, 0, 0);
        let with = |c| combine(&clear, &[&marsh], rule(c, EffectCombine::Base)).move_cost;
        assert_eq!(with(CostCombine::MostCostly), None);
        assert_eq!(with(CostCombine::Cumulative), None);
        assert_eq!(with(CostCombine::Base), Some(1.0));
    }

    #[test]
    fn effects_combine_by_the_rule_each_apart() {
        let woods = terrain("woods", Some(2.0), 1, -1);
        let town = terrain("town", Some(1.0), -2, -2);
        let with = |e| combine(&woods, &[&town], rule(CostCombine::Base, e));
        let strongest = with(EffectCombine::Strongest);
        assert_eq!((strongest.die_modifier, strongest.column_shift), (-2, -2));
        let cumulative = with(EffectCombine::Cumulative);
        assert_eq!((cumulative.die_modifier, cumulative.column_shift), (-1, -3));
        let base = with(EffectCombine::Base);
        assert_eq!((base.die_modifier, base.column_shift), (1, -1));
    }

    #[test]
    fn the_own_terrain_wins_a_tie_of_strength() {
        let hill = terrain("hill", Some(2.0), 1, 0);
        let town = terrain("town", Some(1.0), -1, 0);
        let e = combine(
            &hill,
            &[&town],
            rule(CostCombine::Base, EffectCombine::Strongest),
        );
        assert_eq!(e.die_modifier, 1);
    }

    #[test]
    fn no_rule_or_no_feature_is_the_own_terrain() {
        let woods = terrain("woods", Some(2.0), 0, -1);
        let village = terrain("village", Some(1.0), 1, 0);
        let alone = combine(&woods, &[&village], None);
        assert_eq!((alone.move_cost, alone.die_modifier), (Some(2.0), 0));
        let bare = combine(
            &woods,
            &[],
            rule(CostCombine::Cumulative, EffectCombine::Cumulative),
        );
        assert_eq!((bare.move_cost, bare.column_shift), (Some(2.0), -1));
    }

    #[test]
    fn no_retreat_from_any_terrain_unless_the_base_alone_counts() {
        let clear = terrain("clear", Some(1.0), 0, 0);
        let mut fort = terrain("fort", Some(1.0), 0, 0);
        fort.no_retreat = true;
        let with = |e| combine(&clear, &[&fort], rule(CostCombine::Base, e)).no_retreat;
        assert!(with(EffectCombine::Strongest));
        assert!(!with(EffectCombine::Base));
    }
}
