//! Where a diagnostic sits on the board: the hex its span names, the counter or unit
//! written at its span, or nowhere on the board (then it is only listed).

use std::ops::Range;
use std::sync::Arc;

use muster_db::Diagnostic;
use muster_db::source::SourceFile;
use muster_hex::HexId;
use muster_map::TerrainMap;
use muster_semantic::board::{Board, TableMark};

use crate::Files;

/// What a diagnostic is drawn on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkTarget {
    /// A hex of the map, outlined.
    Hex(HexId),
    /// A counter of the board (index into `Board::pieces`), outlined.
    Counter(usize),
    /// A unit of an open table (index into `Board::table`), outlined.
    TableUnit(usize),
    /// Not on the board: listed beside it.
    Nowhere,
}

/// A diagnostic (by its index in the list given to `render`) and where it is drawn.
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    pub diagnostic: usize,
    pub target: MarkTarget,
}

fn same_file(a: &Arc<SourceFile>, b: Option<&Arc<SourceFile>>) -> bool {
    b.is_some_and(|b| Arc::ptr_eq(a, b) || a.path == b.path)
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    if b.is_empty() {
        return false;
    }
    a.start < b.end && b.start < a.end || (a.is_empty() && b.contains(&a.start))
}

/// The hex id written at a span (quotes and spaces trimmed), if that is all it holds.
fn hex_at(d: &Diagnostic) -> Option<HexId> {
    let text = d.file.text.get(d.span.clone())?;
    HexId::parse(text.trim().trim_matches('"')).ok()
}

pub fn place_on_hexes(
    diagnostics: &[Diagnostic],
    files: &Files<'_>,
    board: Option<&Board>,
    map: &TerrainMap,
) -> Vec<Mark> {
    diagnostics
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let in_scenario = same_file(&d.file, files.scenario);
            let in_map = same_file(&d.file, files.map);
            let mut target = MarkTarget::Nowhere;
            if (in_scenario || in_map)
                && let Some(hex) = hex_at(d).filter(|h| map.contains(*h))
            {
                target = MarkTarget::Hex(hex);
            } else if in_scenario && let Some(board) = board {
                let piece = board.pieces.iter().position(|p| {
                    overlaps(&d.span, &p.span)
                        || p.hex_span.as_ref().is_some_and(|s| overlaps(&d.span, s))
                });
                if let Some(p) = piece {
                    target = MarkTarget::Counter(p);
                }
            }
            Mark {
                diagnostic: i,
                target,
            }
        })
        .collect()
}

pub fn place_on_table(
    diagnostics: &[Diagnostic],
    files: &Files<'_>,
    board: Option<&Board>,
) -> Vec<Mark> {
    diagnostics
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let mut target = MarkTarget::Nowhere;
            if same_file(&d.file, files.scenario)
                && let Some(board) = board
                && let Some(k) = board.table.iter().position(|m| match m {
                    TableMark::Unit { span, .. } | TableMark::Band { span, .. } => {
                        overlaps(&d.span, span)
                    }
                    TableMark::Area { .. } => false,
                })
            {
                target = MarkTarget::TableUnit(k);
            }
            Mark {
                diagnostic: i,
                target,
            }
        })
        .collect()
}
