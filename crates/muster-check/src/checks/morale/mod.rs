//! Army morale: thresholds must be reachable by what the army can lose.

pub mod threshold_unreachable;
