//! Hexagonal Tiled maps for muster: [`export`] writes a compiled map (or a scenario's
//! map and set-up) as a TMX file with an embedded tileset, one tile per terrain type;
//! [`import`] reads a TMX that a designer painted in Tiled back into a muster map source
//! with compact overlays, and reports what it cannot read as diagnostics with spans.
//!
//! The convention both ways: Tiled's cell `(x, y)` is muster's hex `CCRR` with
//! `CC = x + 1` and `RR = y + 1`; hexes are flat-topped (`staggeraxis="x"`), and
//! [`geometry::stagger_index`] says which columns sit half a hex lower.
//!
//! Layers: tile layers paint terrain in order (a later layer wins, as a later overlay
//! does), except those named `features...`, whose tiles are added features; the object
//! layer `hexsides` holds hexside features, access restrictions and river courses,
//! `labels` the names printed on the map, and an exported scenario's `setup` its
//! counters.

pub mod codes;
pub mod export;
pub mod geometry;
pub mod image;
pub mod import;
pub mod setup;

pub use export::{Exported, Input, export, system_tiles, write};
pub use import::{Imported, import};

/// The names of the layers muster writes and reads.
pub mod layer {
    /// The tile layer of each hex's terrain.
    pub const TERRAIN: &str = "terrain";
    /// The prefix of the tile layers of added features (`features`, `features 2`, ...).
    pub const FEATURES: &str = "features";
    /// The object layer of hexside features, access restrictions and river courses.
    pub const HEXSIDES: &str = "hexsides";
    /// The object layer of the names printed on the map.
    pub const LABELS: &str = "labels";
    /// The object layer of a scenario's counters at the start.
    pub const SETUP: &str = "setup";
}
