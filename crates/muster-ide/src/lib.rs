//! What muster's front ends show, above the check catalogue: the CLI and the language
//! server share it, and it prints nothing itself.
//!
//! [`summary`] is a scenario in words, [`catalog`] what `muster list` and completion
//! offer, [`template`] what `muster new` writes, [`provenance`] where a figure came from
//! (printed or assumed), [`output`] the JSON and SARIF report types, [`schema`] every
//! published JSON Schema, and [`watch`] which files a change makes stale.

pub mod catalog;
pub mod output;
pub mod provenance;
pub mod rule_words;
pub mod schema;
pub mod summary;
pub mod template;
pub mod watch;
