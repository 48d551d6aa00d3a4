//! Geometry: hex ids must be well formed, on the map, and ranges straight and in order.

pub mod crooked_range;
pub mod malformed_hex;
pub mod off_map;
pub mod radius_beyond_map;
pub mod reversed_range;
