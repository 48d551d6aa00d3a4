//! VASSAL modules from a muster project: `export` writes one `.vmod` for the scenarios
//! of one rules system. Each map is a board (muster's drawing, as PNG when this build
//! has PNG output, else SVG, which VASSAL reads too) with a `HexGrid` whose numbering
//! names every hex with muster's id ([`grid`]); every counter is a piece drawn by
//! muster's counter art, with a layer for its reduced side and a prototype per unit
//! kind; every scenario is a predefined set-up (a `.vsav`, [`savefile`]): its counters on
//! their hexes, the owner's choices in a "To place" window with their hexes ([`choice`]), its reinforcements in a holding window by
//! turn with their entry hexes, under a turn track with the turn marker on turn 1; the combat results and terrain effects as charts.
//!
//! The same project gives the same bytes (fixed zip dates, order and key). [`read`]
//! reads a module and its set-ups back, for tests and for `--into`.

pub mod charts;
pub mod choice;
pub mod grid;
mod module;
pub mod pieces;
pub mod read;
pub mod savefile;
pub mod seq;
mod zipfile;

pub use module::{Export, TURN_MARKER, export};

/// Text escaped for XML: markup characters as entities, tabs and line breaks as
/// character references (VASSAL's trait strings hold tabs, which an attribute would
/// otherwise turn into spaces), any other control character as U+FFFD.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The VASSAL version the module says it was written for.
pub const VASSAL_VERSION: &str = "3.6.7";
/// Board images are drawn at this many pixels per unit of muster's board drawing (a
/// hex is 56 pixels across its corners).
pub const SCALE: f64 = 1.0;
/// The map window holding the battle's boards.
pub const BATTLEFIELD: &str = "Battlefield";
/// The map window holding reinforcements by turn.
pub const HOLDING: &str = "Reinforcements";
/// The map window holding each set-up's owner's choices, to be placed by their owner.
pub const TO_PLACE: &str = "To place";
