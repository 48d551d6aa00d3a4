//! Geometry: hex ids must be well formed, on the map, and ranges straight and in order;
//! shapes on a table must have a size.

pub mod crooked_range;
pub mod degenerate_shape;
pub mod malformed_hex;
pub mod off_map;
pub mod radius_beyond_map;
pub mod reversed_range;

use muster_hex::{HexGrid, HexId, RangeError};

use muster_db::registry::CheckMeta;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;

/// Reports each range of the file whose ends are hexes but which is not a range for
/// `error` (crooked, reversed), with the message and help `words` give for its ends.
fn ranges_that_are(
    cx: &FileCx,
    sink: &mut Sink,
    meta: &'static CheckMeta,
    error: RangeError,
    words: impl Fn(HexId, HexId) -> (String, String),
) {
    for r in cx.range_refs() {
        let (Ok(a), Ok(b)) = (HexId::parse(r.from), HexId::parse(r.to)) else {
            continue;
        };
        if HexGrid::straight_range(a, b) == Err(error) {
            let (message, help) = words(a, b);
            sink.push(Report::new(meta, r.place, message).help(help));
        }
    }
}
