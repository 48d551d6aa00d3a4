//! Counter sheets: values must be self-consistent.

pub mod reduced_not_lower;
