//! Reinforcements: units arriving during play must be able to arrive.

pub mod cannot_arrive;
pub mod cannot_enter;
pub mod entry_impassable;
pub mod entry_not_on_edge;
pub mod no_entry;
pub mod turn_out_of_range;
pub mod withdrawal_not_in_play;
