//! About the checking itself: checks that could not run, and why.

pub mod skipped;
