//! Hidden traps laid before a miniatures battle.

pub mod not_before_foot;
