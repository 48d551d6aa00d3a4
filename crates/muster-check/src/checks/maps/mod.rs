//! Maps: overlays must draw what a printed map could have.

pub mod base_only_feature;
pub mod duplicate_label;
pub mod grid_too_large;
pub mod hexside_not_adjacent;
pub mod layout_mismatch;
pub mod no_combine_rule;
pub mod overlay_conflict;
pub mod path_gap;
pub mod redundant_feature;
pub mod table_size_not_positive;
