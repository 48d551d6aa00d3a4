//! The stable codes of the diagnostics `muster import tiled` reports on a TMX file.
//! They are the importer's own (the TMX is not a muster source file), so they are not
//! part of the validator's catalogue.

/// The file is not well-formed XML, or not a TMX map the `tiled` reader accepts.
pub const MALFORMED: &str = "tiled::malformed";
/// The map is not a flat-topped hexagonal map of at most 99 by 99 hexes.
pub const NOT_HEX_MAP: &str = "tiled::not-a-hex-map";
/// A tile, object or layer property that muster does not read.
pub const UNKNOWN_PROPERTY: &str = "tiled::unknown-property";
/// A tile's `terrain` names no terrain type of the system.
pub const UNKNOWN_TERRAIN: &str = "tiled::unknown-terrain";
/// A painted tile without a `terrain` property.
pub const UNTYPED_TILE: &str = "tiled::untyped-tile";
/// A hexside object's `feature` names no hexside feature of the system.
pub const UNKNOWN_FEATURE: &str = "tiled::unknown-feature";
/// An object's hex is not a hex of the map, or its hexes are not neighbours.
pub const BAD_HEX: &str = "tiled::bad-hex";
/// An object that is neither a hexside feature, an access restriction, a river course
/// nor a label.
pub const UNKNOWN_OBJECT: &str = "tiled::unknown-object";
/// A layer muster does not read (a scenario's set-up, an image, a group).
pub const IGNORED_LAYER: &str = "tiled::ignored-layer";
/// Hexes no terrain layer paints: they get the base terrain.
pub const UNPAINTED: &str = "tiled::unpainted-hexes";
