//! The owner's choices of a set-up: the groups whose counters the owner places (one per
//! named hex with the owner assigning them, more hexes than units, a spaced run, on a
//! friendly unit). A predefined set-up puts them in the "To place" window, not on a hex,
//! each group in a box that names the hexes it may go to.

use muster_hex::{HexGrid, HexId};
use muster_model::scenario::Placement;
use muster_semantic::ScenarioCx;
use muster_semantic::board::{Board, PieceState};

/// One owner's-choice group of a set-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceGroup {
    /// Index of the side on the board, `None` for neutrals.
    pub side: Option<usize>,
    /// How the owner places them, in words (`one on each hex`, `stacked on a cavalry unit`).
    pub rule: String,
    /// The hexes they may go to.
    pub hexes: Vec<HexId>,
    /// Indexes of the group's pieces in the board's pieces.
    pub pieces: Vec<usize>,
}

fn is_choice(state: PieceState) -> bool {
    matches!(state, PieceState::Chosen | PieceState::Choice)
}

/// The owner's-choice groups of `board` (the set-up board of `cx`), in the order the
/// scenario writes them. A piece the board marks as the owner's choice but that no
/// group of the scenario claims is a group of its own, on the hex the board gave it.
pub fn groups(cx: &ScenarioCx<'_>, board: &Board) -> Vec<ChoiceGroup> {
    let span_of = |place| {
        cx.file
            .loaded
            .file
            .find(place)
            .map(|found| found.node.range())
    };
    let mut claimed = vec![false; board.pieces.len()];
    let mut out = Vec::new();
    for group in &cx.groups {
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
        if pieces.is_empty() {
            continue;
        }
        let (rule, hexes) = match group.at {
            Placement::Hexes(_) | Placement::Range(..)
                if group.hexes.len() == group.units.len() =>
            {
                (
                    "one on each hex, the owner assigns them".to_string(),
                    group.hexes.iter().map(|(h, _)| *h).collect(),
                )
            }
            Placement::Hexes(_) | Placement::Range(..) => (
                "on hexes of the owner's choice among".to_string(),
                group.hexes.iter().map(|(h, _)| *h).collect(),
            ),
            Placement::Spaced { from, to, min_gap } => (
                format!("along the run, at least {min_gap} hexes apart"),
                match (HexId::parse(from), HexId::parse(to)) {
                    (Ok(a), Ok(b)) => HexGrid::straight_range(a, b).unwrap_or_default(),
                    _ => Vec::new(),
                },
            ),
            Placement::OnUnit { kind, counter } => {
                let what = counter.as_deref().or(kind.as_deref()).unwrap_or("friendly");
                // The hexes of the units it may stack on, as the set-up places them.
                let mut hexes: Vec<HexId> = board
                    .pieces
                    .iter()
                    .enumerate()
                    .filter(|(i, p)| {
                        p.side == group.side
                            && !pieces.contains(i)
                            && !matches!(p.state, PieceState::Arrived { .. })
                            && kind.as_ref().is_none_or(|k| *k == p.kind)
                            && counter.as_ref().is_none_or(|c| *c == p.counter)
                    })
                    .map(|(_, p)| p.hex)
                    .collect();
                hexes.sort();
                hexes.dedup();
                (format!("stacked on a {what} unit, at"), hexes)
            }
            Placement::Box(_) => continue,
        };
        for &i in &pieces {
            claimed[i] = true;
        }
        out.push(ChoiceGroup {
            side: group.side,
            rule,
            hexes,
            pieces,
        });
    }
    for (i, p) in board.pieces.iter().enumerate() {
        if is_choice(p.state) && !claimed[i] {
            out.push(ChoiceGroup {
                side: p.side,
                rule: "on a hex of the owner's choice, such as".to_string(),
                hexes: vec![p.hex],
                pieces: vec![i],
            });
        }
    }
    out
}
