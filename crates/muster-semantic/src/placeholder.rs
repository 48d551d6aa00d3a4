//! Placeholder marks: the `// muster: placeholder` comments that `muster new` writes
//! after every value it guessed, and the line each applies to. `setup::placeholder`
//! reports the marked setup lines of a scenario, `template::placeholder` every other
//! marked line.

use std::ops::Range;

use muster_db::source::SourceFile;
use muster_syntax::TokenKind;

/// The comment a guessed value carries until the author replaces it: written by
/// `muster new` (`muster-ide`'s templates), reported by `setup::placeholder` and
/// `template::placeholder`.
pub const PLACEHOLDER_MARK: &str = "muster: placeholder";

/// A placeholder mark in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// The comment's byte span.
    pub span: Range<usize>,
    /// The 1-based line the mark applies to: its own line when data comes before it,
    /// else the next line with data (like `// muster: allow(...)`).
    pub line: usize,
}

/// The marks of a file, in order. A comment is a mark when its text starts with
/// [`PLACEHOLDER_MARK`]; prose that mentions the mark is not one. One pass over the
/// tokens: a mark on a line of its own waits for the next token with data.
pub fn marks(file: &SourceFile) -> Vec<Mark> {
    let text = &file.text;
    let mut out = Vec::new();
    // Most files hold no mark: a plain search spares them the syntax tree.
    if !text.contains(PLACEHOLDER_MARK) {
        return out;
    }
    // Marks on lines of their own, waiting for the next data.
    let mut waiting: Vec<Range<usize>> = Vec::new();
    for token in file.tree().tokens() {
        let span = token.range.0..token.range.1;
        if !matches!(token.kind, TokenKind::LineComment | TokenKind::BlockComment) {
            if !token.kind.is_trivia() && !waiting.is_empty() {
                let line = file.line_col(span.start).line;
                out.extend(waiting.drain(..).map(|span| Mark { span, line }));
            }
            continue;
        }
        let body = token
            .text
            .trim_start_matches('/')
            .trim_start_matches('*')
            .trim_end_matches("*/")
            .trim();
        if !body.starts_with(PLACEHOLDER_MARK) {
            continue;
        }
        let line = file.line_col(span.start).line;
        let line_start = file.offset_of(line, 1);
        if text[line_start..span.start].trim().is_empty() {
            waiting.push(span);
        } else {
            out.push(Mark { span, line });
        }
    }
    let end = file.line_col(text.len()).line;
    out.extend(waiting.into_iter().map(|span| Mark { span, line: end }));
    out.sort_by_key(|m| m.span.start);
    out
}
