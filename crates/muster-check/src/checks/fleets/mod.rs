//! Fleets (carriers) in sample deployments: where they stand and what they carry.

pub mod on_land;
pub mod overloaded;
pub mod shared_hex;
