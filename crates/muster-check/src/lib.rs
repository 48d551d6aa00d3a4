//! The muster check catalogue, above `muster-semantic` and `muster-db`.
//!
//! [`registry::REGISTRY`] lists every check: one file each, declaring its code and
//! documentation with `muster_db::declare_check!` and a `run` over a semantic context.
//! Checks read the semantic model and report; the domain logic they report on lives
//! below them. [`suppress`] applies in-file `allow` comments, [`config`] reads
//! `muster.toml`, [`docs`] renders each code's page. The drivers run it all:
//! [`drive`] for one file or a loaded project, [`batch`] for `muster validate` on a
//! whole project in bounded memory.
//!
//! **Boundary:** nothing here prints, watches files or decides exit codes; that is the
//! CLI's job. Problems in user data are [`Diagnostic`]s, never `Err` and never panics.

pub mod batch;
pub mod checks;
pub mod config;
pub mod docs;
pub mod drive;
pub mod registry;
pub mod suppress;

pub use batch::validate_project;
pub use config::Config;
pub use drive::{check_file, check_leaves, validate, validate_paths};
pub use muster_db::{CheckMeta, Diagnostic, Severity};
