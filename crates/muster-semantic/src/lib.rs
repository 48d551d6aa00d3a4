//! The semantic model, above `muster-db`: the resolved project as checks, summaries, compile and the CLI
//! see it. A scenario's system, counter sheet and compiled map resolved; every unit
//! expanded with its place; hooks parsed once; the figures the rulebooks derive
//! (victory points, break points, morale losses); stacking occupancy, open-table
//! geometry, and queries on the system's typed rules (`rules`: which kinds a troop
//! name covers, which permission applies, every name the rules refer to, what they
//! mean for a scenario). The check
//! catalogue (`muster-check`) only reads from here and reports; `muster-render` and
//! `muster-ide` read it too, never the catalogue.

pub mod board;
mod context;
pub mod derived;
mod entry;
pub mod features;
pub mod hooks;
pub mod morale;
pub mod placeholder;
pub mod references;
pub mod rules;
pub mod setup;
pub mod stacking;
pub mod table;
pub mod victory;

pub use context::*;
pub use entry::Entry;

pub use placeholder::PLACEHOLDER_MARK;
