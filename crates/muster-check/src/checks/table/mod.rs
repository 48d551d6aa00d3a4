//! Units on an open table: sizes, positions, ground, weapons, edges; and the plane
//! geometry of unit footprints these checks share.

pub mod impassable_terrain;
pub mod missiles_without_weapon;
pub mod off_table;
pub mod overlap;
pub mod unit_size;
pub mod unknown_edge;
