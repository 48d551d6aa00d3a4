//! Stacking: how many units may share a hex at setup.

pub mod enemy_shared_hex;
pub mod over_stacked;
