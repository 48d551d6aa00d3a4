//! Geometry: hex ids must be well formed, on the map, and ranges straight and in order;
//! shapes on a table must have a size.

pub mod crooked_range;
pub mod degenerate_shape;
pub mod malformed_hex;
pub mod off_map;
pub mod radius_beyond_map;
pub mod reversed_range;
