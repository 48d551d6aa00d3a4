//! The check catalogue: one check per file, grouped by what they look at. Each file
//! declares its code and documentation with [`muster_db::declare_check!`] and a `run`
//! function over a context; [`REGISTRY`] lists them all.

pub mod battles;
// The group of `checks::skipped`, named after its code like every other group.
#[allow(clippy::module_inception)]
pub mod checks;
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
pub mod system;
pub mod table;
pub mod template;
pub mod traps;
pub mod victory;
pub mod zones;

use muster_semantic::{FileCx, ScenarioCx};

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

/// A code and when it is reported.
pub struct Registered {
    pub meta: &'static CheckMeta,
    pub runner: Runner,
}
