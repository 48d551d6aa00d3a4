//! A source file held in memory, with the line table used to turn byte offsets into
//! the line and column (in characters) that editors show.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use line_index::{LineIndex, TextSize, WideEncoding};
use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use muster_syntax::{Dialect, Found, Spans, Tree};

use crate::place::Place;

/// Files larger than this are refused with `io::too-large` instead of being parsed.
/// Hand-written battle files are a few kilobytes; the largest bundled file is far below.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// One file's text and where it came from.
#[derive(Debug)]
pub struct SourceFile {
    /// Path as given or discovered (used to read and to resolve references).
    pub path: PathBuf,
    /// Name shown in diagnostics (relative to the current folder where possible).
    pub name: String,
    /// Shared with the syntax tree, which reads the same text.
    pub text: std::sync::Arc<String>,
    /// Where lines start and which characters are wider than one byte: every line and
    /// column in every output format comes from here (a binary search per position).
    /// Built on the first position asked for (a file without diagnostics never needs it).
    lines: OnceLock<LineIndex>,
    /// The lossless syntax tree of the text, parsed on first use (the loader's first
    /// step for data files): every token, comment and value with its byte range.
    tree: OnceLock<Tree>,
    /// Where every value of the typed document came from, recorded while the loader
    /// read the document from the tree.
    spans: OnceLock<Spans>,
}

/// A 1-based line and column; the column counts characters, not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// Longest source line (in bytes) the human renderer prints whole. Longer lines are cut
/// to a window around the span; context lines longer than this are left out.
pub const MAX_SHOWN_LINE: usize = 400;

/// Characters shown on either side of a span on a line longer than [`MAX_SHOWN_LINE`].
const WINDOW_CHARS: usize = 100;

impl SourceFile {
    /// The line index of the text, built on first use.
    fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }

    pub fn new(path: impl Into<PathBuf>, name: impl Into<String>, text: String) -> Self {
        Self {
            path: path.into(),
            name: name.into(),
            text: std::sync::Arc::new(text),
            lines: OnceLock::new(),
            tree: OnceLock::new(),
            spans: OnceLock::new(),
        }
    }

    /// The syntax tree of the text (JSON for `.json` files, RON otherwise).
    pub fn tree(&self) -> &Tree {
        self.tree.get_or_init(|| {
            muster_syntax::parse_shared(
                std::sync::Arc::clone(&self.text),
                Dialect::from_file_name(self.file_name()),
            )
        })
    }

    /// Records where the values of the typed document came from (the loader does this
    /// once, as it reads the document).
    pub fn set_spans(&self, spans: Spans) {
        let _ = self.spans.set(spans);
    }

    /// The node of the value at a place in the typed document, found step by step, or
    /// the nearest enclosing value the loader read (`exact: false`).
    pub fn find(&self, place: &Place) -> Option<Found<'_>> {
        let spans = self.spans.get()?;
        spans.find(self.tree(), place.span_keys())
    }

    /// The offset clamped to the text and moved back to a character boundary.
    fn floor(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    /// The offset clamped to the text and moved forward to a character boundary.
    fn ceil(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset += 1;
        }
        offset
    }

    fn size(offset: usize) -> TextSize {
        TextSize::from(u32::try_from(offset).unwrap_or(u32::MAX))
    }

    /// 0-based line of a byte offset on a character boundary.
    fn line_of(&self, offset: usize) -> u32 {
        self.lines()
            .try_line_col(Self::size(offset))
            .map_or(0, |lc| lc.line)
    }

    /// Byte range of a 0-based line, its line break included.
    fn line_range(&self, line: u32) -> std::ops::Range<usize> {
        self.lines()
            .line(line)
            .map_or(self.text.len()..self.text.len(), |r| {
                usize::from(r.start())..usize::from(r.end())
            })
    }

    /// Line and column of a byte offset (clamped to the text, snapped to a char boundary).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = self.floor(offset);
        let Some(utf8) = self.lines().try_line_col(Self::size(offset)) else {
            return LineCol { line: 1, column: 1 };
        };
        let column = self
            .lines()
            .to_wide(WideEncoding::Utf32, utf8)
            .map_or(utf8.col, |w| w.col);
        LineCol {
            line: utf8.line as usize + 1,
            column: column as usize + 1,
        }
    }

    /// Byte offset of a 1-based line and character column, clamped to the text.
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        let Ok(line) = u32::try_from(line.saturating_sub(1)) else {
            return self.text.len();
        };
        if self.lines().line(line).is_none() {
            return self.text.len();
        }
        let range = self.line_range(line);
        let body = self.text[range.clone()].trim_end_matches(['\n', '\r']);
        body.char_indices()
            .nth(column.saturating_sub(1))
            .map_or(range.start + body.len(), |(i, _)| range.start + i)
    }

    pub fn file_name(&self) -> &str {
        self.path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
    }

    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

impl SourceCode for SourceFile {
    /// The span with its context lines, found through the line index (no scan from the
    /// start of the file). Lines longer than [`MAX_SHOWN_LINE`] are not printed whole:
    /// context lines that long are left out, and a span on such a line is shown in a
    /// window of [`WINDOW_CHARS`] characters on either side.
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        if span.offset() > self.text.len() {
            return Err(MietteError::OutOfBounds);
        }
        let start = self.floor(span.offset());
        let end = self
            .ceil(span.offset().saturating_add(span.len()))
            .max(start);
        let first = self.line_of(start);
        let last = self.line_of(self.floor(end.saturating_sub(1)).max(start));
        let long = |line: u32| self.line_range(line).len() > MAX_SHOWN_LINE;
        let (from, to, line) = if context_lines_before == 0 && context_lines_after == 0 {
            (start, end, first)
        } else if first == last && long(first) {
            let range = self.line_range(first);
            let from = self.text[range.start..start]
                .char_indices()
                .rev()
                .nth(WINDOW_CHARS.saturating_sub(1))
                .map_or(range.start, |(i, _)| range.start + i);
            let to = self.text[end..range.end]
                .char_indices()
                .nth(WINDOW_CHARS)
                .map_or(range.end, |(i, _)| end + i);
            (from, to, first)
        } else {
            let mut top = first;
            while first - top < context_lines_before as u32 && top > 0 && !long(top - 1) {
                top -= 1;
            }
            let mut bottom = last;
            while bottom - last < context_lines_after as u32
                && self.lines().line(bottom + 1).is_some_and(|r| !r.is_empty())
                && !long(bottom + 1)
            {
                bottom += 1;
            }
            (self.line_range(top).start, self.line_range(bottom).end, top)
        };
        let column = self.line_col(from).column - 1;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            &self.text.as_bytes()[from..to],
            (from, to - from).into(),
            line as usize,
            column,
            // As miette's own readers count it (its renderer merges nearby snippets by
            // this figure): the line breaks from the start of the file to the end.
            self.line_of(to) as usize,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_characters() {
        let f = SourceFile::new("a", "a", "ab\n\"à\" x\n".to_string());
        assert_eq!(f.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(f.line_col(3), LineCol { line: 2, column: 1 });
        // `x` is after a two-byte character.
        let x = f.text.find('x').unwrap();
        assert_eq!(f.line_col(x), LineCol { line: 2, column: 5 });
        assert_eq!(f.offset_of(2, 5), x);
        assert_eq!(f.offset_of(9, 1), f.text.len());
    }
}
