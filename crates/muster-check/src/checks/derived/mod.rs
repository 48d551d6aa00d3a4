//! Derived figures: what the rulebook prints must match what its own rules compute.

pub mod break_point_mismatch;
pub mod morale_figures_mismatch;
pub mod panic_level_too_high;
pub mod vp_total_mismatch;
