//! The muster data model: serde + schemars types for every file kind muster reads
//! (rules [`system`], [`counters`] sheets, [`map`] overlay descriptions, [`scenario`]s)
//! and the one it writes (compiled terrain [`table`]s).
//!
//! **Boundary:** this crate has no IO, no diagnostics and no rendering. Hex ids are
//! kept as the strings the author wrote (`"0207"`), so that a malformed id is a
//! diagnostic of the validator with a span, not a parse failure here.
//!
//! **Provenance:** records that carry values the rulebook does not print have an
//! `assumed` map: field name -> one-line reason. Tools count these entries.

pub mod combat;
pub mod counters;
pub mod map;
pub mod rules;
pub mod scenario;
pub mod system;
pub mod table;
pub mod vocab;

use std::collections::BTreeMap;

pub use muster_hex::{Edge, HexLayout};

/// Version of the file formats described by this crate, written into compiled tables.
/// 2: a terrain entry carries the troops its terrain prohibits (`prohibited`, `allowed`),
/// so a `move_cost` no longer means that every unit may enter.
pub const FORMAT_VERSION: u32 = 2;

/// Values not printed in the rulebook: field name -> why the value was chosen.
pub type Assumed = BTreeMap<String, String>;

/// The kinds of file muster reads, with the top-level struct name that tags them in RON
/// (`System(...)`, `CounterSheet(...)`, `Map(...)`, `Scenario(...)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FileKind {
    System,
    Counters,
    Map,
    Scenario,
}

impl FileKind {
    pub const ALL: [FileKind; 4] = [
        FileKind::System,
        FileKind::Counters,
        FileKind::Map,
        FileKind::Scenario,
    ];

    /// The struct name written before the opening parenthesis in RON files.
    pub fn tag(self) -> &'static str {
        match self {
            FileKind::System => "System",
            FileKind::Counters => "CounterSheet",
            FileKind::Map => "Map",
            FileKind::Scenario => "Scenario",
        }
    }

    /// The value of the `"kind"` member in JSON files and the schema file stem.
    pub fn name(self) -> &'static str {
        match self {
            FileKind::System => "system",
            FileKind::Counters => "counters",
            FileKind::Map => "map",
            FileKind::Scenario => "scenario",
        }
    }

    /// Kind from a file name: `*.system.ron`, `*.counters.ron`, `*.map.ron`,
    /// `*.scenario.ron` (or `.json`).
    pub fn from_file_name(name: &str) -> Option<FileKind> {
        let stem = name
            .strip_suffix(".ron")
            .or_else(|| name.strip_suffix(".json"))?;
        FileKind::ALL.into_iter().find(|k| {
            stem.strip_suffix(k.name())
                .is_some_and(|rest| rest.ends_with('.'))
        })
    }
}

pub(crate) fn is_zero(n: &u8) -> bool {
    *n == 0
}

pub(crate) fn one() -> u8 {
    1
}
