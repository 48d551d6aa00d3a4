//! Maps: overlays must draw what a printed map could have.

pub mod duplicate_label;
pub mod hexside_not_adjacent;
pub mod overlay_conflict;
pub mod path_gap;
