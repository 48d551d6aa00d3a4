//! `template::*`: what the skeletons of `muster new` leave for the author to fill in.

pub mod placeholder;
