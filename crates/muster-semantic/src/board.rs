//! The battle as it stands on the board at the start of a turn: every counter on its
//! hex, the reinforcements that have arrived by then at their entries, the ones still to
//! come as entry marks, deployment zones, objectives and exits. On an open table: the
//! units of bases with their facing, bands of figures, camps, traps and zones.
//!
//! This is what `muster render` draws and what the preview page shows. It holds places
//! and names only; how they look is the renderer's business. Where the scenario leaves a
//! choice to the owner (a leader stacked on "a cavalry unit", units spaced along a run,
//! more hexes than units), the board makes the first legal-looking choice and marks the
//! piece [`PieceState::Chosen`]; where a group of different units has one named hex per
//! unit and the owner assigns them, the board takes them in the order written and marks
//! the pieces [`PieceState::Choice`].

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use muster_hex::{Edge, HexGrid, HexId};
use muster_model::map::{Point, Shape};
use muster_model::scenario::{
    BandEntry, Deployment, ExitThrough, Forces, Goal, Placement, SourceAt, TypeCount,
    VictoryCondition, VictoryTest, Zone,
};
use muster_model::system::{KindStats, UnitRole};

use super::ScenarioCx;
use stacks::Stacks;

mod stacks;
use muster_db::place::Place;

/// What the board of a scenario holds.
#[derive(Debug, Clone, Default)]
pub struct Board {
    /// The turn the board stands at (`1`: the set-up).
    pub turn: u8,
    /// The scenario's last turn, optional turns included.
    pub last_turn: u8,
    pub sides: Vec<BoardSide>,
    /// Counters standing on hexes.
    pub pieces: Vec<Piece>,
    /// Units that have no hex on this board, with the reason.
    pub unplaced: Vec<Unplaced>,
    /// Reinforcements still to come, and edge arrivals of zoned forces.
    pub entries: Vec<EntryMark>,
    /// Deployment zones of zoned forces.
    pub zones: Vec<ZoneShade>,
    /// Hexes a side must hold or exit through.
    pub objectives: Vec<Objective>,
    /// Map edges units leave by to score.
    pub exit_edges: Vec<ExitEdge>,
    /// Open-table forces.
    pub table: Vec<TableMark>,
    /// Where each side traces supply to (the scenario's `supply_sources` on this map).
    pub supply: Vec<SupplyMark>,
    /// What the scenario's turn record gives for this turn.
    pub weather: TurnWeather,
}

impl Board {
    /// The id a rules engine gives each piece, in the order of [`Board::pieces`]: its
    /// counter id, then `id#2`, `id#3`... for further copies of the same counter.
    pub fn unit_ids(&self) -> Vec<String> {
        let mut copies: HashMap<&str, usize> = HashMap::new();
        self.pieces
            .iter()
            .map(|piece| {
                let seen = copies.entry(piece.counter.as_str()).or_insert(0);
                *seen += 1;
                match *seen {
                    1 => piece.counter.clone(),
                    n => format!("{}#{n}", piece.counter),
                }
            })
            .collect()
    }
}

/// A supply source on the board.
#[derive(Debug, Clone)]
pub struct SupplyMark {
    /// Index of the side; `None` when the scenario names a side it does not have.
    pub side: Option<usize>,
    pub at: SupplyAt,
}

/// Where a supply source stands.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SupplyAt {
    Hex(HexId),
    /// Every hex along a map edge, in order.
    Edge(Edge, Vec<HexId>),
    /// The hex of a map label, with the label.
    Label(String, HexId),
}

/// The weather (or ground) of the board's turn, from the scenario's turn record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum TurnWeather {
    /// The scenario has no turn record, so nothing to say.
    #[default]
    NoRecord,
    /// The record does not give this turn a weather.
    NotGiven,
    /// A weather kind: its id and the name the system prints for it (the id itself
    /// when the system has no such kind, which a check reports).
    Given { id: String, name: String },
}

#[derive(Debug, Clone)]
pub struct BoardSide {
    pub id: String,
    pub name: String,
    /// The colour of the side's army on the counter sheet (`#rrggbb`), if any.
    pub colour: Option<String>,
}

/// Whether a counter is where the scenario puts it or where the board chose for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PieceState {
    /// On a hex the scenario names for this unit.
    Placed,
    /// On one of the hexes the scenario leaves to the owner.
    Chosen,
    /// On one of its group's hexes, which the scenario names one per unit: which unit of
    /// the group stands on which of them is the owner's choice (the board takes them in
    /// the order written).
    Choice,
    /// A reinforcement that has arrived by the board's turn, at its entry hex.
    Arrived { turn: u8 },
}

/// How a counter is drawn apart from the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceRole {
    Combat,
    Commander,
    Baggage,
}

/// A side, and a kind and a counter when asked for: what a stacked unit's host is.
type HostKey = (Option<usize>, Option<String>, Option<String>);

/// A counter on a hex.
#[derive(Debug, Clone)]
pub struct Piece {
    /// The counter id (counter-sheet games) or unit kind (zoned forces).
    pub counter: String,
    /// The name printed on the counter, or the kind's name.
    pub name: String,
    pub kind: String,
    pub role: PieceRole,
    /// Index of the side; `None` for neutral units.
    pub side: Option<usize>,
    /// Strength as printed on the counter (`4`, `4-2` for two steps, `6-1-4` for a
    /// PRESTAGS type), if any.
    pub strength: Option<String>,
    pub hex: HexId,
    pub state: PieceState,
    /// The status level it starts at, where its unit line names one (`status`); `None`
    /// for the ladder's first level.
    pub status: Option<String>,
    /// How many identical units this piece stands for: 1, or the whole count of a
    /// sample line longer than [`MAX_DRAWN_COPIES`].
    pub count: u16,
    /// Units carried aboard this one (a fleet), as `count x kind`.
    pub aboard: Vec<String>,
    /// The same units by kind id, as the scenario lists them.
    pub carried: Vec<muster_model::scenario::TypeCount>,
    /// Where the piece is written in the scenario (its counter or kind value).
    pub span: Range<usize>,
    /// Where the hex it stands on is written, when the scenario names it.
    pub hex_span: Option<Range<usize>>,
}

/// Units of one line of a sample deployment are pieces of their own up to this many;
/// a longer line (a typing slip such as `count: 65535`) is one piece standing for all,
/// so the board stays as small as the file.
pub const MAX_DRAWN_COPIES: u16 = 64;

/// A unit the board cannot stand on a hex.
#[derive(Debug, Clone)]
pub struct Unplaced {
    pub side: Option<usize>,
    pub what: String,
    pub reason: String,
    pub span: Range<usize>,
}

/// Where reinforcements come on.
#[derive(Debug, Clone)]
pub struct EntryMark {
    pub side: usize,
    pub turn: u8,
    /// `1 x Provence, 2 x Cavalry 3`.
    pub units: String,
    pub at: EntryAt,
    pub span: Range<usize>,
}

#[derive(Debug, Clone)]
pub enum EntryAt {
    /// One of these hexes, with the map edge nearest to each.
    Hexes(Vec<(HexId, Edge)>),
    /// One of these hexes, wherever they lie: the units appear there instead of marching
    /// on from an edge (`arrive: Anywhere`).
    Inside(Vec<HexId>),
    /// Anywhere along a map edge.
    Edge(Edge),
    /// A named table edge.
    TableEdge(String),
}

/// The hexes of one deployment group.
#[derive(Debug, Clone)]
pub struct ZoneShade {
    pub side: usize,
    /// The group's name, or the zone in words (`within 5 of H`).
    pub label: String,
    pub hexes: Vec<HexId>,
}

/// A hex that matters to victory.
#[derive(Debug, Clone)]
pub struct Objective {
    pub side: Option<usize>,
    pub hex: HexId,
    pub text: String,
}

/// A map edge a side scores by leaving from.
#[derive(Debug, Clone)]
pub struct ExitEdge {
    pub side: usize,
    pub edge: Edge,
    /// The hexes of the edge units leave from: every hex of the edge, or those within
    /// the goal's radius of its label.
    pub hexes: Vec<HexId>,
    pub text: String,
}

/// Something on an open table.
#[derive(Debug, Clone)]
pub enum TableMark {
    /// A unit of bases: its front edge centred on `at`, facing `facing` degrees clockwise
    /// from north, `width` by `depth` inches in all.
    Unit {
        side: usize,
        id: String,
        name: String,
        troop: String,
        bases: u8,
        at: Point,
        facing: f64,
        width: f64,
        depth: f64,
        /// The battle (command) the unit belongs to.
        battle: Option<String>,
        span: Range<usize>,
    },
    /// A band of figures on the table at the start, in an area.
    Band {
        side: usize,
        id: String,
        name: String,
        figures: String,
        area: Shape,
        span: Range<usize>,
    },
    /// An area of a side: camp, trap, deployment zone.
    Area {
        side: usize,
        what: String,
        area: Shape,
    },
}

impl ScenarioCx<'_> {
    /// Where the scenario's span of a place lies (the empty span at the start when the
    /// file has no record of it).
    fn span_of(&self, place: &Place) -> Range<usize> {
        self.file
            .loaded
            .file
            .find(place)
            .map_or(0..0, |found| found.node.range())
    }

    /// The board at the start of `turn` (1 is the set-up).
    pub fn board(&self, turn: u8) -> Board {
        self.board_work
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let turn = turn.max(1);
        let mut board = Board {
            turn,
            last_turn: self.scenario.last_turn(),
            sides: self
                .scenario
                .sides
                .iter()
                .enumerate()
                .map(|(i, s)| BoardSide {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    colour: self.side_army(i).map(|a| a.colour.clone()),
                })
                .collect(),
            ..Board::default()
        };
        let mut stacks = Stacks::default();
        self.place_groups(&mut board, &mut stacks);
        self.place_reinforcements(&mut board, &mut stacks);
        // Counters placed group by group are laid out from `self.groups()` above; the
        // other kinds of forces are placed here, side by side.
        for (index, side) in self.scenario.sides.iter().enumerate() {
            match &side.forces {
                Forces::Placed { .. } => {}
                Forces::Zoned(forces) => self.place_zoned(
                    &mut board,
                    &mut stacks,
                    &super::ZonedSide {
                        index,
                        forces,
                        place: Place::zoned_forces(index),
                    },
                ),
                Forces::Table(forces) => self.place_table(
                    &mut board,
                    &super::TableSide {
                        index,
                        forces,
                        place: Place::table_forces(index),
                    },
                ),
            }
        }
        self.mark_objectives(&mut board);
        self.mark_supply(&mut board);
        board.weather = self.weather_of(turn);
        board
    }

    /// The weather the turn record gives `turn` (its first entry for the turn).
    pub fn weather_of(&self, turn: u8) -> TurnWeather {
        let record = &self.scenario.turn_record;
        if record.is_empty() {
            return TurnWeather::NoRecord;
        }
        let Some(id) = record
            .iter()
            .find(|t| t.turn == turn)
            .and_then(|t| t.weather.as_ref())
        else {
            return TurnWeather::NotGiven;
        };
        let name = self
            .system
            .and_then(|s| s.rules.weather.iter().find(|w| &w.id == id))
            .map_or_else(|| id.clone(), |w| w.name.clone());
        TurnWeather::Given {
            id: id.clone(),
            name,
        }
    }

    /// The scenario's supply sources that lie on the map, each once: a hex or label
    /// the map does not have is left out (a diagnostic of its own).
    fn mark_supply(&self, board: &mut Board) {
        let Some(map) = self.map else {
            return;
        };
        let grid = map.grid();
        let mut seen = HashSet::new();
        for source in &self.scenario.supply_sources {
            let at = match &source.at {
                SourceAt::Hex(h) => match HexId::parse(h) {
                    Ok(hex) if grid.contains(hex) => SupplyAt::Hex(hex),
                    _ => continue,
                },
                SourceAt::Edge(edge) => SupplyAt::Edge(*edge, grid.edge_hexes(*edge)),
                SourceAt::Label(label) => match map.label(label) {
                    Some(hex) => SupplyAt::Label(label.clone(), hex),
                    None => continue,
                },
            };
            let side = self.side_of(&source.side);
            if seen.insert((side, at.clone())) {
                board.supply.push(SupplyMark { side, at });
            }
        }
    }

    /// What the board draws for counter `counter_id` of `army`: its name, unit kind,
    /// role and printed strength (the id alone when the sheet has no such counter).
    pub fn piece_of_counter(
        &self,
        army: Option<&muster_model::counters::Army>,
        counter_id: &str,
    ) -> (String, String, PieceRole, Option<String>) {
        let counter = army.and_then(|a| self.counter(a, counter_id));
        let Some(counter) = counter else {
            return (
                counter_id.to_string(),
                String::new(),
                PieceRole::Combat,
                None,
            );
        };
        let role = self
            .unit_kind(&counter.kind)
            .map_or(PieceRole::Combat, |k| role_of(k.role));
        let strength = match counter.reduced {
            Some(r) => format!("{}-{r}", counter.strength),
            None => counter.strength.to_string(),
        };
        (
            counter.name.clone(),
            counter.kind.clone(),
            role,
            Some(strength),
        )
    }

    fn place_groups(&self, board: &mut Board, stacks: &mut Stacks) {
        let grid = self.map.map(|m| *m.grid());
        // Leaders and others stacked "on a unit" are placed once every group has hexes.
        let mut stacked = Vec::new();
        for group in self.groups() {
            let chosen_hexes: Vec<(HexId, Option<Place>)> = match group.at {
                Placement::Hexes(_) | Placement::Range(..) => group
                    .hexes
                    .iter()
                    .map(|(h, p)| (*h, Some(p.clone())))
                    .collect(),
                Placement::Spaced { from, to, min_gap } => spaced(from, to, *min_gap)
                    .into_iter()
                    .map(|h| (h, None))
                    .collect(),
                Placement::OnUnit { .. } => {
                    stacked.push(group);
                    continue;
                }
                // Units in a holding box stand on no hex of the board.
                Placement::Box(_) => continue,
            };
            let state = group_state(group.at, group.units.len(), chosen_hexes.len(), || {
                group
                    .units
                    .iter()
                    .any(|u| u.counter_id != group.units[0].counter_id)
            });
            for (k, slot) in group.units.iter().enumerate() {
                let span = self.span_of(&slot.place);
                let (name, kind, role, strength) =
                    self.piece_of_counter(group.army, slot.counter_id);
                let at = if chosen_hexes.len() == 1 {
                    chosen_hexes.first()
                } else {
                    chosen_hexes.get(k)
                };
                match at {
                    Some((hex, place)) if grid.is_none_or(|g| g.contains(*hex)) => stacks.push(
                        board,
                        Piece {
                            counter: slot.counter_id.to_string(),
                            name,
                            kind,
                            role,
                            side: group.side,
                            strength,
                            hex: *hex,
                            state,
                            status: slot.status.map(str::to_string),
                            count: 1,
                            aboard: Vec::new(),
                            carried: Vec::new(),
                            span,
                            hex_span: place.as_ref().map(|p| self.span_of(p)),
                        },
                    ),
                    Some((hex, _)) => board.unplaced.push(Unplaced {
                        side: group.side,
                        what: slot.counter_id.to_string(),
                        reason: format!("hex {hex} is not on the map"),
                        span,
                    }),
                    None => board.unplaced.push(Unplaced {
                        side: group.side,
                        what: slot.counter_id.to_string(),
                        reason: match group.choose {
                            Some(n) => format!(
                                "the owner sets up {n} of the {} units of its group",
                                group.units.len()
                            ),
                            None => "its group names fewer hexes than units".to_string(),
                        },
                        span,
                    }),
                }
            }
        }
        // The first piece of each side, of each side and kind, of each side and counter and
        // of each side, kind and counter: a unit stacked "on a cavalry unit" finds its host
        // in one lookup, not by a walk through every piece.
        let mut hosts: muster_db::FastMap<HostKey, HexId> = muster_db::FastMap::default();
        let note = |hosts: &mut muster_db::FastMap<HostKey, HexId>, p: &Piece| {
            for (k, c) in [
                (None, None),
                (Some(&p.kind), None),
                (None, Some(&p.counter)),
                (Some(&p.kind), Some(&p.counter)),
            ] {
                hosts
                    .entry((p.side, k.cloned(), c.cloned()))
                    .or_insert(p.hex);
            }
        };
        for p in &board.pieces {
            note(&mut hosts, p);
        }
        for group in stacked {
            let Placement::OnUnit { kind, counter } = group.at else {
                continue;
            };
            for slot in &group.units {
                let span = self.span_of(&slot.place);
                let host = hosts
                    .get(&(group.side, kind.clone(), counter.clone()))
                    .copied();
                let (name, kind_id, role, strength) =
                    self.piece_of_counter(group.army, slot.counter_id);
                match host {
                    Some(hex) => {
                        stacks.push(
                            board,
                            Piece {
                                counter: slot.counter_id.to_string(),
                                name,
                                kind: kind_id,
                                role,
                                side: group.side,
                                strength,
                                hex,
                                state: PieceState::Chosen,
                                status: slot.status.map(str::to_string),
                                count: 1,
                                aboard: Vec::new(),
                                carried: Vec::new(),
                                span,
                                hex_span: None,
                            },
                        );
                        if let Some(p) = board.pieces.last() {
                            note(&mut hosts, p);
                        }
                    }
                    None => board.unplaced.push(Unplaced {
                        side: group.side,
                        what: slot.counter_id.to_string(),
                        reason: "no unit of its side matches the one it stacks on".to_string(),
                        span,
                    }),
                }
            }
        }
    }

    fn place_reinforcements(&self, board: &mut Board, stacks: &mut Stacks) {
        let grid = self.map.map(|m| *m.grid());
        for (r, reinforcement) in self.scenario.reinforcements.iter().enumerate() {
            let Some(side) = self
                .scenario
                .sides
                .iter()
                .position(|s| s.id == reinforcement.side)
            else {
                continue;
            };
            let army = self.group_army(side, reinforcement.army.as_deref());
            let place = Place::reinforcement(r);
            let entries: Vec<(HexId, Place)> = reinforcement
                .entry
                .iter()
                .enumerate()
                .filter_map(|(k, h)| {
                    let hex = HexId::parse(h).ok()?;
                    grid.is_none_or(|g| g.contains(hex))
                        .then(|| (hex, place.field("entry").index(k)))
                })
                .collect();
            let span = self.span_of(&place);
            if reinforcement.turn <= board.turn {
                let mut n = 0;
                for (u, group) in reinforcement.units.iter().enumerate() {
                    let counter = place.field("units").index(u).field("counter");
                    for _ in 0..group.count {
                        let unit_span = self.span_of(&counter);
                        let (name, kind, role, strength) =
                            self.piece_of_counter(army, &group.counter);
                        match entries.get(n % entries.len().max(1)) {
                            Some((hex, p)) => stacks.push(
                                board,
                                Piece {
                                    counter: group.counter.clone(),
                                    name,
                                    kind,
                                    role,
                                    side: Some(side),
                                    strength,
                                    hex: *hex,
                                    state: PieceState::Arrived {
                                        turn: reinforcement.turn,
                                    },
                                    status: group.status.clone(),
                                    count: 1,
                                    aboard: Vec::new(),
                                    carried: Vec::new(),
                                    span: unit_span,
                                    hex_span: Some(self.span_of(p)),
                                },
                            ),
                            None => board.unplaced.push(Unplaced {
                                side: Some(side),
                                what: group.counter.clone(),
                                reason: "none of its entry hexes is on the map".to_string(),
                                span: unit_span,
                            }),
                        }
                        n += 1;
                    }
                }
                continue;
            }
            let units = reinforcement
                .units
                .iter()
                .map(|g| {
                    let name = army
                        .and_then(|a| self.counter(a, &g.counter))
                        .map_or(g.counter.as_str(), |c| c.name.as_str());
                    format!("{} x {name}", g.count)
                })
                .collect::<Vec<_>>()
                .join(", ");
            let at = match grid {
                Some(grid) => entries
                    .iter()
                    .map(|(h, _)| (*h, nearest_edge(&grid, *h)))
                    .collect(),
                None => Vec::new(),
            };
            let at = match reinforcement.arrive {
                muster_model::scenario::Arrive::Edge => EntryAt::Hexes(at),
                muster_model::scenario::Arrive::Anywhere => {
                    EntryAt::Inside(at.into_iter().map(|(h, _)| h).collect())
                }
            };
            board.entries.push(EntryMark {
                side,
                turn: reinforcement.turn,
                units,
                at,
                span,
            });
        }
    }

    fn kind_name(&self, kind: &str) -> String {
        self.unit_kind(kind)
            .map_or_else(|| kind.to_string(), |k| k.name.clone())
    }

    fn kind_strength(&self, kind: &str) -> Option<String> {
        match self.unit_kind(kind)?.stats.as_ref()? {
            KindStats::Counter {
                melee,
                fire,
                movement,
                ..
            } => Some(match fire {
                Some(f) => format!("{}-{f}-{movement}", melee.points()),
                None => format!("{}-{movement}", melee.points()),
            }),
            KindStats::Leader { level, .. } => Some(format!("L{level}")),
            _ => None,
        }
    }

    fn kind_role(&self, kind: &str) -> PieceRole {
        self.unit_kind(kind)
            .map_or(PieceRole::Combat, |k| role_of(k.role))
    }

    fn place_zoned(&self, board: &mut Board, stacks: &mut Stacks, side: &super::ZonedSide<'_>) {
        let grid = self.map.map(|m| *m.grid());
        let mut drawn = std::collections::HashSet::new();
        let whole = std::cell::OnceCell::new();
        for deployment in &side.forces.deploy {
            if let Some(zone) = &deployment.zone
                && let Ok(hexes) = self.zone_hexes(zone)
            {
                let label = deployment.id.clone().unwrap_or_else(|| zone_words(zone));
                // A group that shades the same hexes under the same name as one drawn
                // already adds nothing to the board: a scenario that repeats one zone
                // for thousands of groups is drawn with it once, not once per group.
                if drawn.insert((side.index, label.clone(), hexes.to_vec())) {
                    board.zones.push(ZoneShade {
                        side: side.index,
                        label,
                        hexes: hexes.to_vec(),
                    });
                }
            }
            if let Some(arrival) = &deployment.arrives {
                let span = self.span_of(&side.place);
                // A group that lists no units brings the whole force, written out once
                // for all such groups.
                let units = if deployment.units.is_empty() && deployment.id.is_none() {
                    whole
                        .get_or_init(|| {
                            deployment_units(deployment, &side.forces.units, |k| self.kind_name(k))
                        })
                        .clone()
                } else {
                    deployment_units(deployment, &side.forces.units, |k| self.kind_name(k))
                };
                board.entries.push(EntryMark {
                    side: side.index,
                    turn: arrival.turn,
                    units,
                    at: EntryAt::Edge(arrival.edge),
                    span,
                });
            }
        }
        for (k, stack) in side.forces.sample.iter().enumerate() {
            let base = side.place.field("sample").index(k);
            let hex = HexId::parse(&stack.hex)
                .ok()
                .filter(|h| grid.is_none_or(|g| g.contains(*h)));
            let aboard: Vec<String> = stack
                .aboard
                .iter()
                .map(|t| format!("{} x {}", t.count, self.kind_name(&t.kind)))
                .collect();
            let mut first = true;
            // Looked up once a line, and only for a line that adds a piece.
            let mut hex_span = None;
            for (u, unit) in stack.units.iter().enumerate() {
                let kind = base.field("units").index(u).field("kind");
                let (pieces, each) = if unit.count > MAX_DRAWN_COPIES {
                    (1, unit.count)
                } else {
                    (unit.count, 1)
                };
                let Some(hex) = hex else {
                    board.unplaced.push(Unplaced {
                        side: Some(side.index),
                        what: format!("{} x {}", unit.count, unit.kind),
                        reason: format!("sample hex `{}` is not on the map", stack.hex),
                        span: self.span_of(&kind),
                    });
                    continue;
                };
                let carrier = self
                    .system
                    .is_some_and(|s| s.carriers.iter().any(|c| c.kind == unit.kind));
                let key = stacks.key(
                    hex,
                    Some(side.index),
                    &unit.kind,
                    &unit.kind,
                    PieceState::Placed,
                );
                let mut made: Option<Piece> = None;
                for _ in 0..pieces {
                    let mut make = || {
                        made.get_or_insert_with(|| Piece {
                            counter: unit.kind.clone(),
                            name: self.kind_name(&unit.kind),
                            kind: unit.kind.clone(),
                            role: self.kind_role(&unit.kind),
                            side: Some(side.index),
                            strength: self.kind_strength(&unit.kind),
                            hex,
                            state: PieceState::Placed,
                            status: None,
                            count: each,
                            aboard: Vec::new(),
                            carried: Vec::new(),
                            span: self.span_of(&kind),
                            hex_span: Some(
                                hex_span
                                    .get_or_insert_with(|| self.span_of(&base.field("hex")))
                                    .clone(),
                            ),
                        })
                        .clone()
                    };
                    if carrier && first && !aboard.is_empty() {
                        let mut piece = make();
                        piece.aboard = aboard.clone();
                        piece.carried = stack.aboard.clone();
                        board.pieces.push(piece);
                    } else {
                        stacks.lay(board, key, each, make);
                    }
                    first &= !carrier;
                }
            }
        }
    }

    fn place_table(&self, board: &mut Board, side: &super::TableSide<'_>) {
        let forces = side.forces;
        for (u, unit) in forces.units.iter().enumerate() {
            let (base_width, base_depth) =
                match self.unit_kind(&unit.troop).and_then(|k| k.stats.as_ref()) {
                    Some(KindStats::Troop {
                        base_width,
                        base_depth,
                        ..
                    }) => (*base_width, *base_depth),
                    _ => (1.0, 1.0),
                };
            let bases = f64::from(unit.bases.max(1));
            use muster_model::scenario::Formation;
            let (width, depth) = match unit.formation {
                Formation::Line | Formation::Skirmish => (base_width * bases, base_depth),
                Formation::Column => (base_width, base_depth * bases),
                Formation::Wedge | Formation::Schiltron => {
                    let across = bases.sqrt().ceil();
                    (base_width * across, base_depth * (bases / across).ceil())
                }
            };
            let battle = forces
                .battles
                .iter()
                .find(|b| b.units.iter().any(|id| id == &unit.id))
                .map(|b| b.name.clone());
            board.table.push(TableMark::Unit {
                side: side.index,
                id: unit.id.clone(),
                name: unit.name.clone(),
                troop: unit.troop.clone(),
                bases: unit.bases,
                at: unit.at,
                facing: unit.facing,
                width,
                depth,
                battle,
                span: self.span_of(&side.place.field("units").index(u)),
            });
        }
        for (b, band) in forces.bands.iter().enumerate() {
            let figures = band
                .figures
                .iter()
                .map(|f| format!("{} {}", f.count, self.kind_name(&f.kind)))
                .collect::<Vec<_>>()
                .join(", ");
            let span = self.span_of(&side.place.field("bands").index(b));
            match &band.entry {
                BandEntry::OnTable(shape) => board.table.push(TableMark::Band {
                    side: side.index,
                    id: band.id.clone(),
                    name: band.name.clone(),
                    figures,
                    area: shape.clone(),
                    span,
                }),
                BandEntry::AtEdge { edge, turn } => board.entries.push(EntryMark {
                    side: side.index,
                    turn: turn.unwrap_or(0),
                    units: format!("{} ({figures})", band.name),
                    at: EntryAt::TableEdge(edge.clone()),
                    span,
                }),
                BandEntry::Rolled { edges } => {
                    // An edge named again is the same mark.
                    for (_, edge) in crate::victory::first_of_each(edges) {
                        board.entries.push(EntryMark {
                            side: side.index,
                            turn: 0,
                            units: format!("{} ({figures}), edge rolled", band.name),
                            at: EntryAt::TableEdge(edge.clone()),
                            span: span.clone(),
                        });
                    }
                }
            }
        }
        if let Some(camp) = &forces.camp {
            board.table.push(TableMark::Area {
                side: side.index,
                what: format!("camp, {} transport bases", camp.transport_bases),
                area: camp.area.clone(),
            });
        }
        for trap in &forces.traps {
            board.table.push(TableMark::Area {
                side: side.index,
                what: trap
                    .note
                    .as_ref()
                    .map_or_else(|| "trap".to_string(), |n| format!("trap: {n}")),
                area: trap.area.clone(),
            });
        }
        for zone in &forces.zones {
            board.table.push(TableMark::Area {
                side: side.index,
                what: format!("zone {}", zone.id),
                area: zone.area.clone(),
            });
        }
    }

    fn mark_objectives(&self, board: &mut Board) {
        let Some(map) = self.map else {
            return;
        };
        let grid = *map.grid();
        let side_of = |id: &str| self.side_of(id);
        for condition in &self.scenario.victory {
            match condition {
                VictoryCondition::ExitUnits {
                    side,
                    counter,
                    hexes,
                    ..
                } => {
                    if let Ok(list) = muster_map::resolve_area(&grid, hexes) {
                        for hex in list.into_iter().filter(|h| grid.contains(*h)) {
                            board.objectives.push(Objective {
                                side: side_of(side),
                                hex,
                                text: format!("exit for {counter}"),
                            });
                        }
                    }
                }
                VictoryCondition::Goals { side, any_of } => {
                    for goal in any_of.iter().flatten() {
                        self.mark_goal(board, side_of(side), goal);
                    }
                }
                VictoryCondition::ArmyMorale { .. }
                | VictoryCondition::FewestLosses { .. }
                | VictoryCondition::LargestMargin { .. }
                | VictoryCondition::Otherwise { .. }
                | VictoryCondition::ExtraTurns { .. }
                | VictoryCondition::ShiftOnEliminations { .. }
                | VictoryCondition::IfBoth(_)
                | VictoryCondition::WinsIfAllMet { .. }
                | VictoryCondition::IfNeither(_) => {}
                // Their tests are marked below, member by member.
                VictoryCondition::Achieves { .. } | VictoryCondition::FirstTo { .. } => {}
            }
        }
        for t in crate::victory::victory_tests(self.scenario) {
            self.mark_test(board, side_of(t.side), t.test);
        }
        // A goal written many times over is one mark: the board stays as small as the
        // hexes it marks, however long the list that names them.
        let mut seen = HashSet::new();
        board
            .objectives
            .retain(|o| seen.insert((o.side, o.hex, o.text.clone())));
        let mut seen = HashSet::new();
        board
            .exit_edges
            .retain(|e| seen.insert((e.side, e.edge, e.hexes.clone(), e.text.clone())));
    }

    /// The hexes a test of a composed victory condition names: labels to control, exit
    /// hexes and exit edges.
    fn mark_test(&self, board: &mut Board, side: Option<usize>, test: &VictoryTest) {
        let Some(map) = self.map else {
            return;
        };
        let grid = *map.grid();
        match test {
            VictoryTest::Controls(labels) => mark_control(board, map, side, labels),
            VictoryTest::Exited {
                units,
                count,
                through: Some(through),
            } => {
                let text = format!("exit {count} {} units", units.join("/"));
                match through {
                    ExitThrough::Hexes(area) => {
                        for hex in muster_map::resolve_area(&grid, area)
                            .unwrap_or_default()
                            .into_iter()
                            .filter(|h| grid.contains(*h))
                        {
                            board.objectives.push(Objective {
                                side,
                                hex,
                                text: text.clone(),
                            });
                        }
                    }
                    ExitThrough::Edge(edge) => {
                        if let Some(side) = side {
                            board.exit_edges.push(ExitEdge {
                                side,
                                edge: *edge,
                                hexes: grid.edge_hexes(*edge),
                                text,
                            });
                        }
                    }
                }
            }
            VictoryTest::Exited { through: None, .. }
            | VictoryTest::AllOf(_)
            | VictoryTest::AnyOf(_)
            | VictoryTest::Points(_)
            | VictoryTest::Eliminated { .. }
            | VictoryTest::EnemyDemoralised => {}
        }
    }

    fn mark_goal(&self, board: &mut Board, side: Option<usize>, goal: &Goal) {
        let Some(map) = self.map else {
            return;
        };
        match goal {
            Goal::Control { labels, .. } => mark_control(board, map, side, labels),
            Goal::ControlHex { hex } => {
                if let Ok(h) = HexId::parse(hex)
                    && map.contains(h)
                {
                    board.objectives.push(Objective {
                        side,
                        hex: h,
                        text: format!("control {hex}"),
                    });
                }
            }
            Goal::Exit {
                units, edge, near, ..
            } => {
                if let Some(side) = side {
                    let grid = map.grid();
                    // Near a label the map does not have: the whole edge (the label is
                    // a diagnostic of its own).
                    let centre = near
                        .as_ref()
                        .and_then(|(label, radius)| Some((map.label(label)?, *radius)));
                    let hexes = grid
                        .edge_hexes(*edge)
                        .into_iter()
                        .filter(|h| {
                            centre.is_none_or(|(c, r)| grid.distance(c, *h) <= u32::from(r))
                        })
                        .collect();
                    let mut text = format!("exit {units} units");
                    if let Some((label, radius)) = near {
                        text += &format!(" within {radius} hexes of {label}");
                    }
                    board.exit_edges.push(ExitEdge {
                        side,
                        edge: *edge,
                        hexes,
                        text,
                    });
                }
            }
            Goal::Level(_)
            | Goal::InSea { .. }
            | Goal::Eliminate { .. }
            | Goal::Escort { .. }
            | Goal::Prevent => {}
        }
    }
}

/// The labelled hexes a side must control, as objectives.
fn mark_control(
    board: &mut Board,
    map: &muster_map::TerrainMap,
    side: Option<usize>,
    labels: &[String],
) {
    for (_, label) in crate::victory::first_of_each(labels) {
        if let Some(hex) = map.label(label) {
            board.objectives.push(Objective {
                side,
                hex,
                text: format!("control {label}"),
            });
        }
    }
}

/// How the units of a setup group stand: on hexes the scenario names (one hex per unit
/// and all units alike, or a single unit on a single hex), on hexes the scenario names
/// with the owner assigning its different units to them, or on places the owner chooses
/// (more hexes than units, a spaced run).
fn group_state(
    at: &Placement,
    units: usize,
    hexes: usize,
    mixed: impl FnOnce() -> bool,
) -> PieceState {
    match at {
        Placement::Hexes(_) | Placement::Range(..) if units == hexes => {
            if units > 1 && mixed() {
                PieceState::Choice
            } else {
                PieceState::Placed
            }
        }
        _ if units == 1 && hexes == 1 => PieceState::Placed,
        _ => PieceState::Chosen,
    }
}

fn role_of(role: UnitRole) -> PieceRole {
    match role {
        UnitRole::Combat => PieceRole::Combat,
        UnitRole::Commander => PieceRole::Commander,
        UnitRole::Baggage => PieceRole::Baggage,
    }
}

/// Hexes along a straight run with `min_gap` empty hexes between two of them.
fn spaced(from: &str, to: &str, min_gap: u8) -> Vec<HexId> {
    let (Ok(a), Ok(b)) = (HexId::parse(from), HexId::parse(to)) else {
        return Vec::new();
    };
    HexGrid::straight_range(a, b)
        .unwrap_or_default()
        .into_iter()
        .step_by(usize::from(min_gap) + 1)
        .collect()
}

/// The map edge closest to a hex (ties: north, east, south, west).
pub fn nearest_edge(grid: &HexGrid, hex: HexId) -> Edge {
    let distances = [
        (hex.row.saturating_sub(1), Edge::North),
        (grid.columns.saturating_sub(hex.col), Edge::East),
        (grid.rows.saturating_sub(hex.row), Edge::South),
        (hex.col.saturating_sub(1), Edge::West),
    ];
    distances
        .into_iter()
        .min_by_key(|(d, _)| *d)
        .map_or(Edge::North, |(_, e)| e)
}

/// A zone in a few words, for the legend.
pub fn zone_words(zone: &Zone) -> String {
    match zone {
        Zone::Near { label, radius } => format!("{label}-{radius}"),
        Zone::AnyOf(zones) => zones
            .iter()
            .map(zone_words)
            .collect::<Vec<_>>()
            .join(" or "),
        Zone::Excluding { zone, .. } => format!("{} (part)", zone_words(zone)),
        Zone::AllSea => "all-sea hexes".to_string(),
        Zone::Hexes(_) => "listed hexes".to_string(),
    }
}

fn deployment_units(
    deployment: &Deployment,
    all: &[TypeCount],
    name: impl Fn(&str) -> String,
) -> String {
    // A group that lists nothing brings the whole force, a kind the force names on many
    // lines counted once.
    let listed = if deployment.units.is_empty() {
        let mut by_kind: Vec<(&str, u32)> = Vec::new();
        let mut at: HashMap<&str, usize> = HashMap::new();
        for t in all {
            let k = *at.entry(t.kind.as_str()).or_insert_with(|| {
                by_kind.push((t.kind.as_str(), 0));
                by_kind.len() - 1
            });
            by_kind[k].1 += u32::from(t.count);
        }
        by_kind
            .iter()
            .map(|(kind, count)| format!("{count} x {}", name(kind)))
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        deployment
            .units
            .iter()
            .map(|t| format!("{} x {}", t.count, name(&t.kind)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &deployment.id {
        Some(id) => format!("{id}: {listed}"),
        None => listed,
    }
}
