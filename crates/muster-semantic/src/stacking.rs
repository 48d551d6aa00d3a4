//! Who stands on which hex: the occupancy that stacking checks read.

use std::collections::BTreeMap;

use muster_hex::HexId;

use crate::{ScenarioCx, UnitSlot};
use muster_db::place::Place;

/// A unit standing in a hex at setup.
pub struct Occupant<'c, 'a> {
    pub side: Option<usize>,
    pub slot: &'c UnitSlot<'a>,
    /// Place of the hex value that puts it there.
    pub at: Place,
}

/// Units by hex, for placements that name hexes. Within a group the owner chooses who
/// goes where; units are taken in listed order, which does not change the counts by
/// role that stacking looks at when a group holds one kind of unit.
pub fn occupancy<'c, 'a>(cx: &'c ScenarioCx<'a>) -> BTreeMap<HexId, Vec<Occupant<'c, 'a>>> {
    let mut out: BTreeMap<HexId, Vec<Occupant>> = BTreeMap::new();
    for g in cx.groups() {
        for (slot, (hex, place)) in g.units.iter().zip(&g.hexes) {
            out.entry(*hex).or_default().push(Occupant {
                side: g.side,
                slot,
                at: place.clone(),
            });
        }
    }
    out
}
