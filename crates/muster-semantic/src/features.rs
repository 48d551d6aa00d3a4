//! The terrain features a map adds to its hexes (`AddTerrain`), overlay by overlay:
//! where each adds something, and where it adds what the hex already has (its own
//! terrain, or the same feature from an earlier overlay). Read by the map checks on
//! features; the compiled table holds the result.

use std::collections::HashMap;

use muster_hex::HexId;
use muster_map::TerrainMap;
use muster_model::map::{MapSource, Overlay};

/// One `AddTerrain` overlay of a map, read against the compiled map.
#[derive(Debug, Clone, PartialEq)]
pub struct AddedFeature<'a> {
    /// Its index in the map's `overlays`.
    pub overlay: usize,
    pub terrain: &'a str,
    /// Hexes of the map it gives a feature they have from no earlier overlay.
    pub adds: usize,
    /// Hexes whose own terrain the feature is, the first of them.
    pub own_terrain: Vec<HexId>,
    /// Hexes an earlier overlay gave the same feature, the first of them with that
    /// overlay's index.
    pub again: Vec<(HexId, usize)>,
}

/// Every `AddTerrain` overlay of `source`, in order, with the compiled `map` giving
/// each hex's own terrain. Hexes off the map are left out (other checks report them).
/// Costs the hexes the overlays cover.
pub fn added_features<'a>(source: &'a MapSource, map: &TerrainMap) -> Vec<AddedFeature<'a>> {
    let grid = map.grid();
    let mut first: HashMap<(HexId, &str), usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, overlay) in source.overlays.iter().enumerate() {
        let Overlay::AddTerrain { terrain, area } = overlay else {
            continue;
        };
        let mut added = AddedFeature {
            overlay: i,
            terrain,
            adds: 0,
            own_terrain: Vec::new(),
            again: Vec::new(),
        };
        let hexes = muster_map::resolve_area(grid, area).unwrap_or_default();
        for hex in hexes.into_iter().filter(|h| grid.contains(*h)) {
            if map.terrain_id_at(hex) == Some(terrain.as_str()) {
                added.own_terrain.push(hex);
            } else if let Some(&earlier) = first.get(&(hex, terrain.as_str())) {
                if earlier != i {
                    added.again.push((hex, earlier));
                }
            } else {
                first.insert((hex, terrain), i);
                added.adds += 1;
            }
        }
        out.push(added);
    }
    out
}
