//! Sample deployments: a concrete setup of a zone-deployed force, checked like a real one.

pub mod impassable_terrain;
pub mod incompatible_classes;
pub mod outside_zone;
pub mod over_stacked;
pub mod units_mismatch;
