//! Systems: tables must be self-consistent.

pub mod crt_coverage;
pub mod crt_meaning;
pub mod crt_shape;
