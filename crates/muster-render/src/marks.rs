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

thread_local! {
    static EXAMINED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many counter or table-unit spans this thread has compared with a diagnostic's
/// span to place it: a work counter for tests (placing D diagnostics on P counters must
/// not compare each with every counter).
pub fn spans_examined() -> usize {
    EXAMINED.with(|e| e.get())
}

fn examined(n: usize) {
    EXAMINED.with(|e| e.set(e.get() + n));
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

/// The spans of the counters (or table units) of a board, for finding the first one a
/// diagnostic's span overlaps without comparing it with every one: distinct spans sorted
/// by start, each with the lowest index that has it, and the furthest end reached so
/// far. The spans that can overlap `span` start before its end and lie after the last
/// place where the furthest end is still at or before its start; only those are
/// compared.
struct SpanIndex {
    spans: Vec<(usize, usize, usize)>,
    reach: Vec<usize>,
}

impl SpanIndex {
    fn new(spans: impl Iterator<Item = (Range<usize>, usize)>) -> SpanIndex {
        let mut spans: Vec<(usize, usize, usize)> = spans
            .filter(|(r, _)| !r.is_empty())
            .map(|(r, i)| (r.start, r.end, i))
            .collect();
        spans.sort_unstable();
        spans.dedup_by(|later, first| later.0 == first.0 && later.1 == first.1);
        let reach = spans
            .iter()
            .scan(0, |far, s| {
                *far = s.1.max(*far);
                Some(*far)
            })
            .collect();
        SpanIndex { spans, reach }
    }

    /// The lowest index whose span [`overlaps`] `span`.
    fn first_overlapping(&self, span: &Range<usize>) -> Option<usize> {
        let before = if span.is_empty() {
            span.start.saturating_add(1)
        } else {
            span.end
        };
        let end = self.spans.partition_point(|s| s.0 < before);
        let start = self.reach[..end].partition_point(|&far| far <= span.start);
        let candidates = &self.spans[start..end];
        examined(candidates.len());
        candidates
            .iter()
            .filter(|s| overlaps(span, &(s.0..s.1)))
            .map(|s| s.2)
            .min()
    }
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
    let pieces = board.map(|board| {
        SpanIndex::new(board.pieces.iter().enumerate().flat_map(|(i, p)| {
            std::iter::once((p.span.clone(), i)).chain(p.hex_span.clone().map(|s| (s, i)))
        }))
    });
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
            } else if in_scenario
                && let Some(pieces) = &pieces
                && let Some(p) = pieces.first_overlapping(&d.span)
            {
                target = MarkTarget::Counter(p);
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
    let units = board.map(|board| {
        SpanIndex::new(board.table.iter().enumerate().filter_map(|(k, m)| match m {
            TableMark::Unit { span, .. } | TableMark::Band { span, .. } => Some((span.clone(), k)),
            TableMark::Area { .. } => None,
        }))
    });
    diagnostics
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let mut target = MarkTarget::Nowhere;
            if same_file(&d.file, files.scenario)
                && let Some(units) = &units
                && let Some(k) = units.first_overlapping(&d.span)
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
