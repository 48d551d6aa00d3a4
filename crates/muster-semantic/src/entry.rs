//! Where a unit kind may stand on a scenario's map: the hex's own terrain and the
//! features added to it, against the system's terrain types (their prohibitions, and
//! impassable terrain by the combine rule). One table per kind and scenario, then one
//! index per hex ([`ScenarioCx::entry`]).

use muster_hex::HexId;

use crate::context::ScenarioCx;

/// Per entry of the map's terrain list ([`muster_map::TerrainMap::terrain_index_at`]),
/// whether a unit kind may stand there: `Some` from the system's terrain type of that
/// id, `None` where the system has none (the map's own entry decides).
pub(crate) type EntryTable = std::sync::Arc<[Option<bool>]>;

/// Where one unit kind may stand on a scenario's map ([`ScenarioCx::entry`]).
pub struct Entry<'c> {
    cx: &'c ScenarioCx<'c>,
    kind: &'c str,
    table: Option<EntryTable>,
}

impl<'c> Entry<'c> {
    /// Whether a unit of this kind may stand in `hex` (map terrain, the features added
    /// to the hex and the system's prohibitions).
    pub fn may_enter(&self, hex: HexId) -> bool {
        self.may_enter_at(hex, self.cx.map.and_then(|m| m.terrain_index_at(hex)))
    }

    /// [`Entry::may_enter`], given the hex's [`muster_map::TerrainMap::terrain_index_at`]
    /// (looked up once per hex when many kinds ask about the same hexes).
    pub fn may_enter_at(&self, hex: HexId, terrain: Option<usize>) -> bool {
        self.admits_own_terrain(hex, terrain) && self.barring_feature(hex).is_none()
    }

    /// The feature added to `hex` that keeps this kind out, if any: one whose terrain
    /// type prohibits the kind, or an impassable one that leaves the hex impassable by
    /// the system's combine rule ([`muster_map::TerrainMap::is_enterable`]).
    pub fn barring_feature(&self, hex: HexId) -> Option<&'c str> {
        let map = self.cx.map?;
        map.feature_indices_at(hex).iter().find_map(|&i| {
            let entry = map.table().terrain.get(i)?;
            let keeps_out = match entry.move_cost {
                None => !map.is_enterable(hex),
                Some(_) => self
                    .table
                    .as_ref()
                    .and_then(|t| t.get(i).copied().flatten())
                    .is_some_and(|admits| !admits),
            };
            keeps_out.then_some(entry.id.as_str())
        })
    }

    /// The terrain of `hex` that keeps this kind out: its own when that does, else the
    /// feature that does ([`Entry::barring_feature`]); `None` where it may stand.
    pub fn barring_terrain(&self, hex: HexId) -> Option<&'c str> {
        let map = self.cx.map?;
        if !self.admits_own_terrain(hex, map.terrain_index_at(hex)) {
            return Some(map.terrain_id_at(hex).unwrap_or("?"));
        }
        self.barring_feature(hex)
    }

    /// Whether the hex's own terrain (its
    /// [`muster_map::TerrainMap::terrain_index_at`]) lets this kind stand there, whatever
    /// the features added to it.
    pub fn admits_own_terrain(&self, hex: HexId, terrain: Option<usize>) -> bool {
        let (Some(map), Some(system), Some(table)) = (self.cx.map, self.cx.system, &self.table)
        else {
            return true;
        };
        match terrain {
            Some(i) => table
                .get(i)
                .copied()
                .flatten()
                .unwrap_or_else(|| map.is_enterable(hex)),
            // A terrain the table has no entry for: by its id, as written on the hex.
            None => {
                let Some(terrain) = map.terrain_id_at(hex) else {
                    return false;
                };
                match system.terrain.iter().find(|t| t.id == terrain) {
                    Some(t) => t.admits(self.kind, self.cx.class_of(self.kind)),
                    None => map.is_enterable(hex),
                }
            }
        }
    }
}

impl<'a> ScenarioCx<'a> {
    /// Whether a unit of `kind` may stand in `hex` (map terrain and the system's
    /// prohibitions). [`ScenarioCx::entry`] answers for many hexes at once.
    pub fn may_enter(&self, hex: HexId, kind: &str) -> bool {
        self.entry(kind).may_enter(hex)
    }

    /// Where a unit of `kind` may stand: the system's terrain types are looked up once
    /// per kind and scenario, then each hex is one index.
    pub fn entry<'c>(&'c self, kind: &'c str) -> Entry<'c> {
        self.entry_work
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let table = match (self.map, self.system) {
            (Some(map), Some(system)) => {
                let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
                if let Some(table) = entries.get(kind) {
                    Some(std::sync::Arc::clone(table))
                } else {
                    let class = self.class_of(kind);
                    let table: EntryTable = map
                        .table()
                        .terrain
                        .iter()
                        .map(|entry| {
                            system
                                .terrain
                                .iter()
                                .find(|t| t.id == entry.id)
                                .map(|t| t.admits(kind, class))
                        })
                        .collect();
                    entries.insert(kind.to_string(), std::sync::Arc::clone(&table));
                    Some(table)
                }
            }
            _ => None,
        };
        Entry {
            cx: self,
            kind,
            table,
        }
    }
}
