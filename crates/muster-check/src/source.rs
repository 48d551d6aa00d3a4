//! A source file held in memory, with the line table used to turn byte offsets into
//! the line and column (in characters) that editors show.

use std::path::{Path, PathBuf};

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

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
    pub text: String,
    line_starts: Vec<usize>,
}

/// A 1-based line and column; the column counts characters, not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(path: impl Into<PathBuf>, name: impl Into<String>, text: String) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self {
            path: path.into(),
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// Line and column of a byte offset (clamped to the text, snapped to a char boundary).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let column = self.text[self.line_starts[line]..offset].chars().count() + 1;
        LineCol {
            line: line + 1,
            column,
        }
    }

    /// Byte offset of a 1-based line and character column, clamped to the text.
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return self.text.len();
        };
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |e| e.saturating_sub(1));
        self.text[start..end.max(start)]
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(end.max(start), |(i, _)| start + i)
    }

    /// The first offset at or after `offset` that is not whitespace or a comment, so
    /// that an empty span lands on the next token rather than on blank space.
    pub fn next_token(&self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut i = offset.min(bytes.len());
        loop {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if bytes[i..].starts_with(b"//") {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            } else if bytes[i..].starts_with(b"/*") {
                match self.text[i + 2..].find("*/") {
                    Some(end) => i += end + 4,
                    None => return bytes.len(),
                }
            } else {
                return i;
            }
        }
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
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
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

    #[test]
    fn next_token_skips_blanks_and_comments() {
        let f = SourceFile::new("a", "a", "a  // c\n /* d */ b".to_string());
        assert_eq!(&f.text[f.next_token(1)..], "b");
        let g = SourceFile::new("a", "a", "a /* open".to_string());
        assert_eq!(g.next_token(1), g.text.len());
    }
}
