//! The owner's choices of a set-up: the groups whose counters the owner places (one per
//! named hex with the owner assigning them, more hexes than units, a spaced run, on a
//! friendly unit, `choose: N` of the units listed). A predefined set-up puts them in the
//! "To place" window, not on a hex, each group in a box that names the rule and the hexes
//! it may go to.

use muster_hex::{HexGrid, HexId};
use muster_model::scenario::Placement;
use muster_semantic::board::{Board, Piece, PieceState};
use muster_semantic::{GroupCx, ScenarioCx};

/// One owner's-choice group of a set-up.
#[derive(Debug, Clone)]
pub struct ChoiceGroup {
    /// Index of the side on the board, `None` for neutrals.
    pub side: Option<usize>,
    /// How the owner places them, in words (`one on each hex`, `stacked on a cavalry unit`).
    pub rule: String,
    /// The hexes they may go to.
    pub hexes: Vec<HexId>,
    /// Indexes of the group's pieces in the board's pieces.
    pub pieces: Vec<usize>,
    /// The counters of a group the owner sets up only some of (`choose`) that the board
    /// leaves off its hexes: each an index in the board's `unplaced`, with the piece the
    /// board would draw for it.
    pub spare: Vec<(usize, Piece)>,
}

impl ChoiceGroup {
    /// Every counter of the group, its pieces on `board` first, then its spare ones.
    pub fn members<'a>(&'a self, board: &'a Board) -> impl Iterator<Item = &'a Piece> {
        self.pieces
            .iter()
            .map(|&i| &board.pieces[i])
            .chain(self.spare.iter().map(|(_, p)| p))
    }

    /// How many counters the group holds.
    pub fn len(&self) -> usize {
        self.pieces.len() + self.spare.len()
    }

    /// Whether the group holds no counter.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How many of its units a group's owner sets up, when that is fewer than it lists
/// (`choose: N` within range; `setup::choose-out-of-range` reports the others).
fn picked(group: &GroupCx<'_>) -> Option<usize> {
    group
        .choose
        .map(usize::from)
        .filter(|&n| n >= 1 && n < group.units.len())
}

/// The rule of `group` in words, with the hexes its counters may go to (those of the
/// scenario's map, when it has one), or `None` for units in a holding box.
fn rule(
    cx: &ScenarioCx<'_>,
    board: &Board,
    group: &GroupCx<'_>,
    own: &[usize],
) -> Option<(String, Vec<HexId>)> {
    let listed: Vec<HexId> = group
        .hexes
        .iter()
        .map(|(h, _)| *h)
        .filter(|h| cx.map.is_none_or(|m| m.grid().contains(*h)))
        .collect();
    let units = picked(group).unwrap_or(group.units.len());
    let (rule, hexes) = match group.at {
        Placement::Hexes(_) | Placement::Range(..) if group.hexes.len() == units => {
            let rule = if picked(group).is_some() {
                "one on each hex of"
            } else {
                "one on each hex, the owner assigns them"
            };
            (rule.to_string(), listed)
        }
        Placement::Hexes(_) | Placement::Range(..) => {
            ("on hexes of the owner's choice among".to_string(), listed)
        }
        Placement::Spaced { from, to, min_gap } => (
            format!("along the run, at least {min_gap} hexes apart"),
            match (HexId::parse(from), HexId::parse(to)) {
                (Ok(a), Ok(b)) => HexGrid::straight_range(a, b).unwrap_or_default(),
                _ => Vec::new(),
            },
        ),
        Placement::OnUnit { kind, counter } => {
            let what = counter.as_deref().or(kind.as_deref()).unwrap_or("friendly");
            (
                format!("stacked on a {what} unit, at"),
                hosts(board, group, own),
            )
        }
        Placement::Box(_) => return None,
    };
    Some(match picked(group) {
        Some(n) => (
            format!("choose {n} of these {}, {rule}", group.units.len()),
            hexes,
        ),
        None => (rule, hexes),
    })
}

/// The hexes of the units a group placed "on a unit" may stack on, as the set-up places
/// them (`own`: the group's own pieces, which are no hosts).
fn hosts(board: &Board, group: &GroupCx<'_>, own: &[usize]) -> Vec<HexId> {
    let Placement::OnUnit { kind, counter } = group.at else {
        return Vec::new();
    };
    let mut hexes: Vec<HexId> = board
        .pieces
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            p.side == group.side
                && !own.contains(i)
                && !matches!(p.state, PieceState::Arrived { .. })
                && kind.as_ref().is_none_or(|k| *k == p.kind)
                && counter.as_ref().is_none_or(|c| *c == p.counter)
        })
        .map(|(_, p)| p.hex)
        .collect();
    hexes.sort();
    hexes.dedup();
    hexes
}

fn is_choice(state: PieceState) -> bool {
    matches!(state, PieceState::Chosen | PieceState::Choice)
}

/// The owner's-choice groups of `board` (the set-up board of `cx`), in the order the
/// scenario writes them. A piece the board marks as the owner's choice but that no
/// group of the scenario claims is a group of its own, on the hex the board gave it.
/// The board's other unplaced counters (a hex off the map, too few hexes, no unit to
/// stack on) are errors in the scenario, in no group.
pub fn groups(cx: &ScenarioCx<'_>, board: &Board) -> Vec<ChoiceGroup> {
    let span_of = |place| {
        cx.file
            .loaded
            .file
            .find(place)
            .map(|found| found.node.range())
    };
    let mut claimed = vec![false; board.pieces.len()];
    let mut spared = vec![false; board.unplaced.len()];
    let mut out = Vec::new();
    for group in cx.groups() {
        let spans: Vec<_> = group
            .units
            .iter()
            .filter_map(|u| span_of(&u.place))
            .collect();
        let pieces: Vec<usize> = board
            .pieces
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                !claimed[*i]
                    && p.side == group.side
                    && is_choice(p.state)
                    && spans.contains(&p.span)
            })
            .map(|(i, _)| i)
            .collect();
        // The counters the owner may leave out: every one the board could not place.
        let spare: Vec<usize> = match picked(group) {
            Some(_) => board
                .unplaced
                .iter()
                .enumerate()
                .filter(|(j, u)| !spared[*j] && u.side == group.side && spans.contains(&u.span))
                .map(|(j, _)| j)
                .collect(),
            None => Vec::new(),
        };
        if pieces.is_empty() && spare.is_empty() {
            continue;
        }
        let Some((rule, hexes)) = rule(cx, board, group, &pieces) else {
            continue;
        };
        for &i in &pieces {
            claimed[i] = true;
        }
        let spare = spare
            .into_iter()
            .map(|j| {
                spared[j] = true;
                (j, spare_piece(cx, board, group, j, &hexes))
            })
            .collect();
        out.push(ChoiceGroup {
            side: group.side,
            rule,
            hexes,
            pieces,
            spare,
        });
    }
    for (i, p) in board.pieces.iter().enumerate() {
        if is_choice(p.state) && !claimed[i] {
            out.push(ChoiceGroup {
                side: p.side,
                rule: "on a hex of the owner's choice, such as".to_string(),
                hexes: vec![p.hex],
                pieces: vec![i],
                spare: Vec::new(),
            });
        }
    }
    out
}

/// The piece the board would draw for its unplaced counter `j` of `group`, on the first
/// of `hexes` (it stands on none: the owner picks).
fn spare_piece(
    cx: &ScenarioCx<'_>,
    board: &Board,
    group: &GroupCx<'_>,
    j: usize,
    hexes: &[HexId],
) -> Piece {
    let u = &board.unplaced[j];
    let (name, kind, role, strength) = cx.piece_of_counter(group.army, &u.what);
    Piece {
        counter: u.what.clone(),
        name,
        kind,
        role,
        side: u.side,
        strength,
        hex: hexes.first().copied().unwrap_or(HexId { col: 1, row: 1 }),
        state: PieceState::Chosen,
        status: group
            .units
            .iter()
            .find(|s| s.counter_id == u.what)
            .and_then(|s| s.status)
            .map(str::to_string),
        count: 1,
        aboard: Vec::new(),
        carried: Vec::new(),
        span: u.span.clone(),
        hex_span: None,
    }
}
