//! The semantic layer: the resolved project as checks, summaries, compile and the CLI
//! see it. A scenario's system, counter sheet and compiled map resolved; every unit
//! expanded with its place; hooks parsed once; the figures the rulebooks derive
//! (victory points, break points, morale losses); stacking occupancy and open-table
//! geometry. The check catalogue (`checks/`) only reads from here and reports.

pub mod board;
mod context;
pub mod derived;
pub mod morale;
pub mod references;
pub mod stacking;
pub mod table;

pub use context::*;
