//! Battles of a miniatures army: leaders and the units they command.

pub mod army_commander;
pub mod atypical_size;
pub mod foreign_unit;
pub mod no_leader;
