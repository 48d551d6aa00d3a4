//! The check catalogue: one check per file, grouped by what they look at. Each file
//! declares its code and documentation with [`crate::declare_check!`] and a `run`
//! function over a context; [`REGISTRY`] lists them all.

pub mod context;
pub mod counters;
pub mod geometry;
pub mod hooks;
pub mod maps;
pub mod morale;
pub mod references;
pub mod reinforcements;
pub mod setup;
pub mod stacking;
pub mod structure;
pub mod system;
pub mod victory;

use context::{FileCx, ScenarioCx};

use crate::registry::CheckMeta;
use crate::report::Sink;

/// When a check runs.
pub enum Runner {
    /// Reported by the loader while reading and parsing.
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
    file!(geometry::malformed_hex::META, geometry::malformed_hex::run),
    file!(geometry::off_map::META, geometry::off_map::run),
    file!(
        geometry::reversed_range::META,
        geometry::reversed_range::run
    ),
    file!(geometry::crooked_range::META, geometry::crooked_range::run),
    file!(maps::path_gap::META, maps::path_gap::run),
    file!(
        maps::hexside_not_adjacent::META,
        maps::hexside_not_adjacent::run
    ),
    file!(maps::duplicate_label::META, maps::duplicate_label::run),
    file!(maps::overlay_conflict::META, maps::overlay_conflict::run),
    file!(system::crt_shape::META, system::crt_shape::run),
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
];

/// The registered check with this code.
pub fn find(code: &str) -> Option<&'static CheckMeta> {
    REGISTRY.iter().map(|r| r.meta).find(|m| m.code == code)
}
