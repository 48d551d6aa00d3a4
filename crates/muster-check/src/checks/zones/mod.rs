//! Deployment zones of zone-deployed forces (PRESTAGS): labels, room, shares.

pub mod too_small;
pub mod units_mismatch;
pub mod unknown_label;
pub mod vp_share_mismatch;
