//! Setup: every unit listed goes somewhere it may be, as many units as places.

pub mod choose_out_of_range;
pub mod count_mismatch;
pub mod exceeds_counter_sheet;
pub mod hidden_in_plain_sight;
pub mod impassable_terrain;
pub mod impossible_status;
pub mod isolated;
pub mod on_unit_unmatched;
pub mod placeholder;
pub mod setup_order;
pub mod spacing;
pub mod unknown_status;
