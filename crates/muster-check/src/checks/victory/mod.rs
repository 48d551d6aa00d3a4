//! Victory conditions: places and turns they name must exist.

pub mod cannot_be_met;
pub mod exit_not_on_edge;
pub mod objective_unreachable;
pub mod road_not_at_edge;
pub mod turn_out_of_range;
pub mod unknown_label;
