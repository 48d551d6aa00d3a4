//! Positions: byte offsets (what muster's spans are) to and from LSP positions, whose
//! columns count UTF-16 code units (the protocol's default encoding), through
//! rust-analyzer's line table.

use std::ops::Range;

use line_index::{LineCol, LineIndex, TextSize, WideEncoding, WideLineCol};
use lsp_types::{Position, TextDocumentContentChangeEvent};

thread_local! {
    static BUILT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many line tables this thread has built: a work counter for tests (building one
/// reads its whole text, so a request must not build one per position it answers).
pub fn tables_built() -> usize {
    BUILT.with(|b| b.get())
}

/// The line table of one text.
pub struct Lines<'t> {
    text: &'t str,
    index: LineIndex,
}

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Self {
        BUILT.with(|b| b.set(b.get() + 1));
        Self {
            text,
            index: LineIndex::new(text),
        }
    }

    /// The LSP position of a byte offset (clamped to the text, moved back to a character
    /// boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let size = TextSize::from(u32::try_from(offset).unwrap_or(u32::MAX));
        let Some(utf8) = self.index.try_line_col(size) else {
            return Position::new(0, 0);
        };
        let col = self
            .index
            .to_wide(WideEncoding::Utf16, utf8)
            .map_or(utf8.col, |w| w.col);
        Position::new(utf8.line, col)
    }

    pub fn range(&self, span: &Range<usize>) -> lsp_types::Range {
        lsp_types::Range::new(self.position(span.start), self.position(span.end))
    }

    /// The byte offset of an LSP position. A line past the end is the end of the text; a
    /// column past the end of its line is the end of that line (before its line break); a
    /// column inside a character (half of a surrogate pair) is that character's start.
    pub fn offset(&self, position: Position) -> usize {
        let Some(line) = self.index.line(position.line) else {
            return self.text.len();
        };
        let (start, end) = (usize::from(line.start()), usize::from(line.end()));
        let body = self.text[start..end].trim_end_matches(['\n', '\r']);
        let utf8 = self
            .index
            .to_utf8(
                WideEncoding::Utf16,
                WideLineCol {
                    line: position.line,
                    col: position.character,
                },
            )
            .unwrap_or(LineCol {
                line: position.line,
                col: u32::MAX,
            });
        let mut offset = start + (utf8.col as usize).min(body.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }
}

/// Applies the changes of a `didChange` in order (a change without a range replaces the
/// whole text).
pub fn apply_changes(text: &mut String, changes: Vec<TextDocumentContentChangeEvent>) {
    for change in changes {
        match change.range {
            None => *text = change.text,
            Some(range) => {
                let lines = Lines::new(text);
                let start = lines.offset(range.start);
                let end = lines.offset(range.end).max(start);
                text.replace_range(start..end, &change.text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        // é is 2 bytes and 1 UTF-16 unit; 🐎 is 4 bytes and 2 UTF-16 units.
        let text = "a\né🐎 \"saxx\"\n";
        let lines = Lines::new(text);
        let quote = text.find('"').unwrap();
        assert_eq!(quote, 2 + 2 + 4 + 1);
        assert_eq!(lines.position(quote), Position::new(1, 4));
        assert_eq!(lines.offset(Position::new(1, 4)), quote);
        assert_eq!(lines.position(0), Position::new(0, 0));
        assert_eq!(lines.position(text.len()), Position::new(2, 0));
        // An offset inside a character is moved back to its start.
        assert_eq!(lines.position(3), Position::new(1, 0));
    }

    #[test]
    fn out_of_range_positions_are_clamped() {
        let text = "ab\ncd";
        let lines = Lines::new(text);
        assert_eq!(lines.offset(Position::new(0, 99)), 2);
        assert_eq!(lines.offset(Position::new(9, 0)), text.len());
        // Half of a surrogate pair: the emoji's start.
        let text = "🐎x";
        let lines = Lines::new(text);
        assert_eq!(lines.offset(Position::new(0, 1)), 0);
        assert_eq!(lines.offset(Position::new(0, 2)), 4);
    }

    #[test]
    fn incremental_changes_apply_in_utf16() {
        let mut text = "é \"saxx\"\n".to_string();
        let range = lsp_types::Range::new(Position::new(0, 3), Position::new(0, 7));
        apply_changes(
            &mut text,
            vec![TextDocumentContentChangeEvent {
                range: Some(range),
                range_length: None,
                text: "saxe".to_string(),
            }],
        );
        assert_eq!(text, "é \"saxe\"\n");
        apply_changes(
            &mut text,
            vec![TextDocumentContentChangeEvent {
                range: None,
                range_length: None,
                text: "new".to_string(),
            }],
        );
        assert_eq!(text, "new");
    }
}
