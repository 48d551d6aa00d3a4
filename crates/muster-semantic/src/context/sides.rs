//! The sides of a scenario as the semantic layer reads them: each side's groups and
//! reinforcements by index, found without reading the others', and the sides whose
//! forces are zoned or on a table.

use muster_db::place::Place;
use muster_model::scenario::Forces;

use super::{GroupCx, ScenarioCx};

/// A side whose forces are counts by type in zones.
pub struct ZonedSide<'a> {
    pub index: usize,
    pub forces: &'a muster_model::scenario::ZonedForces,
    /// Place of the forces ([`Place::zoned_forces`]).
    pub place: Place,
}

/// A side whose forces stand on an open table.
pub struct TableSide<'a> {
    pub index: usize,
    pub forces: &'a muster_model::scenario::TableForces,
    /// Place of the forces ([`Place::table_forces`]).
    pub place: Place,
}

impl<'a> ScenarioCx<'a> {
    /// The sides whose forces are counts by type in zones, with their places.
    pub fn zoned_sides(&self) -> &[ZonedSide<'a>] {
        &self.zoned
    }

    pub(super) fn lay_out_zoned_sides(&self) -> Vec<ZonedSide<'a>> {
        (0..self.scenario.sides.len())
            .filter_map(|index| match &self.scenario.sides[index].forces {
                Forces::Zoned(forces) => Some(ZonedSide {
                    index,
                    forces,
                    place: Place::zoned_forces(index),
                }),
                Forces::Placed { .. } | Forces::Table(_) => None,
            })
            .collect()
    }

    /// The zoned side at index `index`, if its forces are zoned.
    pub fn zoned_side(&self, index: usize) -> Option<&ZonedSide<'a>> {
        let at = self.zoned.binary_search_by_key(&index, |s| s.index).ok()?;
        self.zoned.get(at)
    }

    /// The side at index `index` as a table side, if its forces are on a table.
    pub fn table_side(&self, index: usize) -> Option<TableSide<'a>> {
        match &self.scenario.sides.get(index)?.forces {
            Forces::Table(forces) => Some(TableSide {
                index,
                forces,
                place: Place::table_forces(index),
            }),
            Forces::Placed { .. } | Forces::Zoned(_) => None,
        }
    }

    /// The sides whose forces stand on an open table ([`ScenarioCx::table_side`] of each).
    pub fn table_sides(&self) -> Vec<TableSide<'a>> {
        (0..self.scenario.sides.len())
            .filter_map(|index| self.table_side(index))
            .collect()
    }

    /// Every set-up group: each side's placed groups and the neutrals. Each call counts
    /// as one scan of them all ([`ScenarioCx::group_scans`]); for one side's groups ask
    /// [`ScenarioCx::side_groups`], which reads only those.
    pub fn groups(&self) -> &[GroupCx<'a>] {
        self.group_work
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        &self.groups
    }

    /// How many times every group has been read ([`ScenarioCx::groups`]): a question
    /// asked once per side reads that side's groups, so the count does not grow with
    /// the number of sides.
    pub fn group_scans(&self) -> usize {
        self.group_work.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The set-up groups of side `side` (by index), in the order of [`ScenarioCx::groups`].
    pub fn side_groups(&self, side: usize) -> impl Iterator<Item = &GroupCx<'a>> {
        let list = self.by_side.get(side).map_or(&[][..], Vec::as_slice);
        list.iter().map(|&k| &self.groups[k])
    }

    /// The index of the first side with id `id`.
    pub fn side_of(&self, id: &str) -> Option<usize> {
        self.side_ids.get(id).copied()
    }

    /// The reinforcements naming side `side`'s id, in the scenario's order.
    pub fn side_reinforcements(
        &self,
        side: usize,
    ) -> impl Iterator<Item = &'a muster_model::scenario::Reinforcement> + use<'_, 'a> {
        let all = &self.scenario.reinforcements;
        let list = self
            .scenario
            .sides
            .get(side)
            .and_then(|s| self.arrivals.get(s.id.as_str()))
            .map_or(&[][..], Vec::as_slice);
        list.iter().map(move |&k| &all[k])
    }
}
