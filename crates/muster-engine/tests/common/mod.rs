//! Helpers the engine's test files share.

/// A clear hex whose six neighbours are clear, and one of them.
pub fn open_ground(map: &muster_map::TerrainMap) -> (muster_hex::HexId, muster_hex::HexId) {
    let h = map
        .grid()
        .hexes()
        .find(|h| {
            map.terrain_id_at(*h) == Some("clear")
                && map.neighbours(*h).len() == 6
                && map
                    .neighbours(*h)
                    .iter()
                    .all(|n| map.terrain_id_at(*n) == Some("clear"))
        })
        .expect("open ground on the map");
    (h, map.neighbours(h)[0])
}
