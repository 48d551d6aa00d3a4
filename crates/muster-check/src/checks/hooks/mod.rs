//! Special-rule hooks: known ids with well-typed parameters.

pub mod bad_parameter;
pub mod unknown_hook;
