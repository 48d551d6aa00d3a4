//! References: every name a file uses must name something that exists.

pub mod duplicate_id;
pub mod outside_root;
pub mod unknown_army;
pub mod unknown_counter;
pub mod unknown_feature;
pub mod unknown_file;
pub mod unknown_side;
pub mod unknown_terrain;
pub mod unknown_unit_kind;
pub mod wrong_system;
