//! The check catalogue: one check per file, grouped by what they look at. Each file
//! declares its code and documentation with [`muster_db::declare_check!`] and a `run`
//! function over a context; [`REGISTRY`] lists them all.

pub mod battles;
// The group of `checks::skipped`, named after its code like every other group.
#[allow(clippy::module_inception)]
pub mod checks;
pub mod config;
pub mod counters;
pub mod derived;
pub mod fleets;
pub mod geometry;
pub mod hooks;
pub mod maps;
pub mod morale;
pub mod references;
pub mod reinforcements;
pub mod rules;
pub mod sample;
pub mod setup;
pub mod stacking;
pub mod suppression;
pub mod system;
pub mod table;
pub mod traps;
pub mod victory;
pub mod zones;

use muster_semantic::{FileCx, ScenarioCx};

use muster_db::load::structure;
use muster_db::registry::CheckMeta;
use muster_db::report::Sink;

/// When a check runs.
pub enum Runner {
    /// Reported while reading and parsing a file, applying its suppressions, or reading
    /// `muster.toml`.
    Loader,
    /// Runs on every parsed file (maps, scenarios, systems, counter sheets).
    File(fn(&FileCx, &mut Sink)),
    /// Runs on scenarios, with their system, counters and compiled map resolved.
    Scenario(fn(&ScenarioCx, &mut Sink)),
}

pub struct Registered {
    pub meta: &'static CheckMeta,
    pub runner: Runner,
}

macro_rules! file {
    ($m:path, $f:path) => {
        Registered {
            meta: &$m,
            runner: Runner::File($f),
        }
    };
}
macro_rules! scenario {
    ($m:path, $f:path) => {
        Registered {
            meta: &$m,
            runner: Runner::Scenario($f),
        }
    };
}
macro_rules! loader {
    ($m:path) => {
        Registered {
            meta: &$m,
            runner: Runner::Loader,
        }
    };
}

/// Every check muster runs, in report order.
pub static REGISTRY: &[Registered] = &[
    loader!(structure::SYNTAX),
    loader!(structure::DUPLICATE_KEY),
    loader!(structure::UNCLOSED),
    loader!(structure::UNEXPECTED_TOKEN),
    loader!(structure::UNTERMINATED_STRING),
    loader!(structure::UNKNOWN_FIELD),
    loader!(structure::UNKNOWN_VARIANT),
    loader!(structure::MISSING_FIELD),
    loader!(structure::WRONG_TYPE),
    loader!(structure::SCHEMA_VIOLATION),
    loader!(structure::TOO_LARGE),
    loader!(structure::NOT_TEXT),
    loader!(structure::UNKNOWN_KIND),
    loader!(structure::UNREADABLE),
    file!(
        references::unknown_file::META,
        references::unknown_file::run
    ),
    file!(
        references::outside_root::META,
        references::outside_root::run
    ),
    file!(
        references::duplicate_id::META,
        references::duplicate_id::run
    ),
    file!(
        references::unknown_terrain::META,
        references::unknown_terrain::run
    ),
    file!(
        references::unknown_feature::META,
        references::unknown_feature::run
    ),
    file!(
        references::unknown_unit_kind::META,
        references::unknown_unit_kind::run
    ),
    scenario!(
        references::unknown_army::META,
        references::unknown_army::run
    ),
    scenario!(
        references::unknown_counter::META,
        references::unknown_counter::run
    ),
    scenario!(
        references::unknown_side::META,
        references::unknown_side::run
    ),
    scenario!(
        references::wrong_system::META,
        references::wrong_system::run
    ),
    file!(geometry::malformed_hex::META, geometry::malformed_hex::run),
    file!(geometry::off_map::META, geometry::off_map::run),
    file!(
        geometry::reversed_range::META,
        geometry::reversed_range::run
    ),
    file!(geometry::crooked_range::META, geometry::crooked_range::run),
    file!(
        geometry::degenerate_shape::META,
        geometry::degenerate_shape::run
    ),
    file!(maps::grid_too_large::META, maps::grid_too_large::run),
    file!(maps::layout_mismatch::META, maps::layout_mismatch::run),
    file!(
        maps::table_size_not_positive::META,
        maps::table_size_not_positive::run
    ),
    file!(
        geometry::radius_beyond_map::META,
        geometry::radius_beyond_map::run
    ),
    file!(maps::path_gap::META, maps::path_gap::run),
    file!(
        maps::hexside_not_adjacent::META,
        maps::hexside_not_adjacent::run
    ),
    file!(maps::duplicate_label::META, maps::duplicate_label::run),
    file!(maps::overlay_conflict::META, maps::overlay_conflict::run),
    file!(system::crt_shape::META, system::crt_shape::run),
    file!(system::crt_coverage::META, system::crt_coverage::run),
    file!(rules::unknown_name::META, rules::unknown_name::run),
    file!(rules::band_gap::META, rules::band_gap::run),
    file!(
        rules::phase_without_actor::META,
        rules::phase_without_actor::run
    ),
    file!(rules::ladder_skipped::META, rules::ladder_skipped::run),
    file!(
        rules::permission_conflict::META,
        rules::permission_conflict::run
    ),
    file!(
        rules::terrain_exception_conflict::META,
        rules::terrain_exception_conflict::run
    ),
    file!(rules::trigger_conflict::META, rules::trigger_conflict::run),
    file!(rules::victory_order::META, rules::victory_order::run),
    file!(rules::exit_cost::META, rules::exit_cost::run),
    file!(rules::impossible_roll::META, rules::impossible_roll::run),
    file!(
        rules::immunity_conflict::META,
        rules::immunity_conflict::run
    ),
    file!(rules::sight_conflict::META, rules::sight_conflict::run),
    file!(
        rules::movement_conflict::META,
        rules::movement_conflict::run
    ),
    file!(
        rules::state_effect_conflict::META,
        rules::state_effect_conflict::run
    ),
    file!(rules::panic_conflict::META, rules::panic_conflict::run),
    file!(rules::defence_conflict::META, rules::defence_conflict::run),
    file!(
        rules::elimination_conflict::META,
        rules::elimination_conflict::run
    ),
    file!(
        rules::follow_up_conflict::META,
        rules::follow_up_conflict::run
    ),
    file!(
        counters::reduced_not_lower::META,
        counters::reduced_not_lower::run
    ),
    scenario!(setup::count_mismatch::META, setup::count_mismatch::run),
    scenario!(
        setup::exceeds_counter_sheet::META,
        setup::exceeds_counter_sheet::run
    ),
    scenario!(
        setup::impassable_terrain::META,
        setup::impassable_terrain::run
    ),
    scenario!(
        setup::on_unit_unmatched::META,
        setup::on_unit_unmatched::run
    ),
    scenario!(setup::spacing::META, setup::spacing::run),
    scenario!(setup::placeholder::META, setup::placeholder::run),
    scenario!(stacking::over_stacked::META, stacking::over_stacked::run),
    scenario!(
        stacking::enemy_shared_hex::META,
        stacking::enemy_shared_hex::run
    ),
    scenario!(
        reinforcements::entry_not_on_edge::META,
        reinforcements::entry_not_on_edge::run
    ),
    scenario!(
        reinforcements::entry_impassable::META,
        reinforcements::entry_impassable::run
    ),
    scenario!(
        reinforcements::turn_out_of_range::META,
        reinforcements::turn_out_of_range::run
    ),
    scenario!(
        reinforcements::no_entry::META,
        reinforcements::no_entry::run
    ),
    scenario!(
        victory::exit_not_on_edge::META,
        victory::exit_not_on_edge::run
    ),
    scenario!(
        victory::turn_out_of_range::META,
        victory::turn_out_of_range::run
    ),
    scenario!(
        morale::threshold_unreachable::META,
        morale::threshold_unreachable::run
    ),
    scenario!(hooks::unknown_hook::META, hooks::unknown_hook::run),
    scenario!(hooks::bad_parameter::META, hooks::bad_parameter::run),
    scenario!(
        hooks::counter_not_in_scenario::META,
        hooks::counter_not_in_scenario::run
    ),
    scenario!(
        hooks::counter_wrong_side::META,
        hooks::counter_wrong_side::run
    ),
    scenario!(
        derived::vp_total_mismatch::META,
        derived::vp_total_mismatch::run
    ),
    scenario!(
        derived::panic_level_too_high::META,
        derived::panic_level_too_high::run
    ),
    scenario!(
        derived::break_point_mismatch::META,
        derived::break_point_mismatch::run
    ),
    scenario!(
        derived::morale_figures_mismatch::META,
        derived::morale_figures_mismatch::run
    ),
    scenario!(zones::unknown_label::META, zones::unknown_label::run),
    scenario!(zones::too_small::META, zones::too_small::run),
    scenario!(
        zones::vp_share_mismatch::META,
        zones::vp_share_mismatch::run
    ),
    scenario!(zones::units_mismatch::META, zones::units_mismatch::run),
    scenario!(sample::outside_zone::META, sample::outside_zone::run),
    scenario!(sample::over_stacked::META, sample::over_stacked::run),
    scenario!(
        sample::incompatible_classes::META,
        sample::incompatible_classes::run
    ),
    scenario!(
        sample::impassable_terrain::META,
        sample::impassable_terrain::run
    ),
    scenario!(sample::units_mismatch::META, sample::units_mismatch::run),
    scenario!(fleets::on_land::META, fleets::on_land::run),
    scenario!(fleets::shared_hex::META, fleets::shared_hex::run),
    scenario!(fleets::overloaded::META, fleets::overloaded::run),
    scenario!(victory::unknown_label::META, victory::unknown_label::run),
    scenario!(
        victory::road_not_at_edge::META,
        victory::road_not_at_edge::run
    ),
    scenario!(table::unit_size::META, table::unit_size::run),
    scenario!(table::off_table::META, table::off_table::run),
    scenario!(table::overlap::META, table::overlap::run),
    scenario!(
        table::impassable_terrain::META,
        table::impassable_terrain::run
    ),
    scenario!(
        table::missiles_without_weapon::META,
        table::missiles_without_weapon::run
    ),
    scenario!(table::unknown_edge::META, table::unknown_edge::run),
    scenario!(battles::no_leader::META, battles::no_leader::run),
    scenario!(battles::army_commander::META, battles::army_commander::run),
    scenario!(battles::foreign_unit::META, battles::foreign_unit::run),
    scenario!(battles::atypical_size::META, battles::atypical_size::run),
    scenario!(traps::not_before_foot::META, traps::not_before_foot::run),
    scenario!(checks::skipped::META, checks::skipped::run),
    loader!(suppression::MISSING_REASON),
    loader!(suppression::UNKNOWN_CODE),
    loader!(suppression::NOT_ALLOWED),
    loader!(suppression::UNUSED),
    loader!(config::INVALID),
    loader!(config::UNKNOWN_CHECK),
    loader!(config::CANNOT_RELAX),
    loader!(config::MISSING_PATH),
];

/// The registered check with this code.
pub fn find(code: &str) -> Option<&'static CheckMeta> {
    REGISTRY.iter().map(|r| r.meta).find(|m| m.code == code)
}
