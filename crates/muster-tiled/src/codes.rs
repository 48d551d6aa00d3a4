//! The stable codes of the diagnostics `muster import tiled` reports on a TMX file, with
//! their documentation ([`CHECKS`]). They are the importer's own (the TMX is not a
//! muster source file, and `muster validate` never reports them), so they are not in
//! the validator's registry; `muster explain` and `docs/checks.md` show them beside it.

use muster_db::{CheckMeta, Severity};

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
/// A layer muster does not read (an image, a group, an object layer of another name).
pub const IGNORED_LAYER: &str = "tiled::ignored-layer";
/// Hexes no terrain layer paints: they get the base terrain.
pub const UNPAINTED: &str = "tiled::unpainted-hexes";

/// The documentation of every code above, in order of code.
pub static CHECKS: &[CheckMeta] = &[
    CheckMeta {
        code: BAD_HEX,
        severity: Severity::Error,
        summary: "an object names a hex off the map, or hexes that are not neighbours",
        doc: "## What it does\nReports an object of the `hexsides` or `labels` layer whose `hexes`, `from` or `hex` property names no hex of the map, or a hexside between two hexes that do not touch.\n\n## Why is this bad?\nThe feature or label would stand nowhere: muster cannot write it into the map.\n\n## Example\n```xml\n<object id=\"7\" name=\"road\"><properties><property name=\"feature\" value=\"road\"/><property name=\"hexes\" value=\"0203 0907\"/></properties></object>\n```\n\nUse instead:\n```xml\n<object id=\"7\" name=\"road\"><properties><property name=\"feature\" value=\"road\"/><property name=\"hexes\" value=\"0203 0204\"/></properties></object>\n```\n",
    },
    CheckMeta {
        code: IGNORED_LAYER,
        severity: Severity::Warning,
        summary: "a layer muster does not read",
        doc: "## What it does\nReports an image layer, a group, or an object layer other than `hexsides` and `labels` (a scenario's `setup` layer included: a set-up lives in its scenario file).\n\n## Why is this bad?\nWhat is drawn on it does not reach the muster map: a designer who drew roads on a layer named `roads` would lose them silently.\n\n## Example\n```xml\n<objectgroup id=\"4\" name=\"roads\">\n```\n\nUse instead:\n```xml\n<objectgroup id=\"4\" name=\"hexsides\">\n```\n",
    },
    CheckMeta {
        code: MALFORMED,
        severity: Severity::Error,
        summary: "the file is not well-formed XML, or not a TMX map",
        doc: "## What it does\nReports a TMX file that is not well-formed XML, that the `tiled` reader refuses, or a tile layer whose data does not fill its size.\n\n## Why is this bad?\nNothing of the map can be read with certainty, so no map source is written.\n\n## Example\n```xml\n<map version=\"1.8\" orientation=\"hexagonal\"\n```\n\nUse instead:\n```xml\n<map version=\"1.8\" orientation=\"hexagonal\" ...> ... </map>\n```\n",
    },
    CheckMeta {
        code: NOT_HEX_MAP,
        severity: Severity::Error,
        summary: "the map is not a finite hexagonal map staggered by columns, at most 99 x 99",
        doc: "## What it does\nReports a map that is orthogonal or isometric, staggered by rows, infinite, or larger than muster's `CCRR` numbering allows.\n\n## Why is this bad?\nmuster's hexes are flat-topped in staggered columns, numbered `CCRR`: any other grid has no muster hex for its cells.\n\n## Example\n```xml\n<map orientation=\"hexagonal\" staggeraxis=\"y\" staggerindex=\"odd\">\n```\n\nUse instead:\n```xml\n<map orientation=\"hexagonal\" staggeraxis=\"x\" staggerindex=\"odd\">\n```\n",
    },
    CheckMeta {
        code: UNKNOWN_FEATURE,
        severity: Severity::Error,
        summary: "a hexside object's `feature` is no hexside feature of the system",
        doc: "## What it does\nReports an object of the `hexsides` layer whose `feature` property names no hexside feature of the rules system given with `--system`.\n\n## Why is this bad?\nThe map source would name a feature the system cannot cost or draw.\n\n## Example\n```xml\n<property name=\"feature\" value=\"raod\"/>\n```\n\nUse instead:\n```xml\n<property name=\"feature\" value=\"road\"/>\n```\n",
    },
    CheckMeta {
        code: UNKNOWN_OBJECT,
        severity: Severity::Error,
        summary: "an object that is no hexside feature, access restriction, river course or label",
        doc: "## What it does\nReports an object of the `hexsides` or `labels` layer that carries none of the properties (`feature`, `access`, `flow`) or the text that say what it is.\n\n## Why is this bad?\nmuster cannot tell what the object stands for, so it would be left out of the map.\n\n## Example\n```xml\n<object id=\"9\" name=\"bridge\" x=\"40\" y=\"52\"/>\n```\n\nUse instead:\n```xml\n<object id=\"9\" name=\"bridge\"><properties><property name=\"feature\" value=\"bridge\"/><property name=\"hexes\" value=\"0203 0204\"/></properties></object>\n```\n",
    },
    CheckMeta {
        code: UNKNOWN_PROPERTY,
        severity: Severity::Warning,
        summary: "a map, layer, tile or object property that muster does not read",
        doc: "## What it does\nReports a custom property muster does not read, with the nearest one it does when there is one.\n\n## Why is this bad?\nA misspelt property (`terain`) is silently without effect: the tile would carry no terrain.\n\n## Example\n```xml\n<property name=\"terain\" value=\"forest\"/>\n```\n\nUse instead:\n```xml\n<property name=\"terrain\" value=\"forest\"/>\n```\n",
    },
    CheckMeta {
        code: UNKNOWN_TERRAIN,
        severity: Severity::Error,
        summary: "a tile's `terrain` names no terrain type of the system",
        doc: "## What it does\nReports a tile whose `terrain` property is not the id of a terrain type of the rules system given with `--system`.\n\n## Why is this bad?\nEvery hex painted with the tile would have a terrain the system cannot cost.\n\n## Example\n```xml\n<tile id=\"3\"><properties><property name=\"terrain\" value=\"woods\"/></properties></tile>\n```\n\nUse instead:\n```xml\n<tile id=\"3\"><properties><property name=\"terrain\" value=\"forest\"/></properties></tile>\n```\n",
    },
    CheckMeta {
        code: UNPAINTED,
        severity: Severity::Warning,
        summary: "hexes that no terrain layer paints",
        doc: "## What it does\nReports the hexes of the map that no tile layer paints, naming the first and how many.\n\n## Why is this bad?\nThey get the map's base terrain (the most painted one), which may not be what the designer meant.\n\n## Example\n```xml\n<data encoding=\"csv\">1,1,0,1</data>\n```\n\nUse instead:\n```xml\n<data encoding=\"csv\">1,1,2,1</data>\n```\n",
    },
    CheckMeta {
        code: UNTYPED_TILE,
        severity: Severity::Error,
        summary: "a painted tile without a `terrain` property",
        doc: "## What it does\nReports a tile painted on the map that has no string property `terrain`, with the hexes it covers.\n\n## Why is this bad?\nmuster cannot tell which terrain those hexes are.\n\n## Example\n```xml\n<tile id=\"5\"/>\n```\n\nUse instead:\n```xml\n<tile id=\"5\"><properties><property name=\"terrain\" value=\"marsh\"/></properties></tile>\n```\n",
    },
];

/// The documentation of the importer's code `code`.
pub fn find(code: &str) -> Option<&'static CheckMeta> {
    CHECKS.iter().find(|c| c.code == code)
}
