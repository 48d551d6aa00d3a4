//! The muster project database: the bottom layer every other muster crate reads.
//!
//! [`project::Db::load`] reads every file of a project (in parallel) through [`load`]:
//! the size limit, UTF-8, the file kind, the lossless tree and typed model from
//! `muster-syntax`, and the schema's constraints with `jsonschema`. It resolves
//! references by id or by path inside the project root and compiles each map with
//! `muster-map`. Every position comes from a file's tree: checks name places as typed
//! [`place::Place`]s and [`report::Sink`] turns them into spans through the file's span
//! index. [`registry::CheckMeta`] and [`declare_check!`] describe a code where it is
//! reported, here for the loader's own.
//!
//! **Boundary:** nothing here knows a rule, a check or an output format; problems in
//! user data are [`Diagnostic`]s, never `Err` and never panics.

pub mod diagnostic;
pub mod limits;
pub mod load;
pub mod place;
pub mod project;
pub mod registry;
pub mod report;
pub mod schema;
pub mod source;
pub mod suggest;
pub mod text;

/// A hash map for muster's lookup tables by id, path or position: std's map with
/// foldhash, seeded per process. Keys come from the user's files, so the seed matters;
/// SipHash cost more than the lookups it served.
pub type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
/// The set that goes with [`FastMap`].
pub type FastSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

pub use diagnostic::{Diagnostic, Label, Severity};
pub use project::Db;
pub use registry::CheckMeta;
