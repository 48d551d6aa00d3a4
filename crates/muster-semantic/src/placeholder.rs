//! Placeholder marks: the `// muster: placeholder` comments that `muster new` writes
//! after every value it guessed, and the line each applies to. `setup::placeholder`
//! reports the marked setup lines of a scenario, `template::placeholder` every other
//! marked line.

use std::ops::Range;

use muster_db::source::SourceFile;

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
/// [`PLACEHOLDER_MARK`]; prose that mentions the mark is not one.
pub fn marks(file: &SourceFile) -> Vec<Mark> {
    let text = &file.text;
    let mut out = Vec::new();
    for comment in file.tree().comments() {
        let span = comment.range();
        let body = text[span.clone()]
            .trim_start_matches('/')
            .trim_start_matches('*')
            .trim_end_matches("*/")
            .trim();
        if !body.starts_with(PLACEHOLDER_MARK) {
            continue;
        }
        let line = file.line_col(span.start).line;
        let line_start = file.offset_of(line, 1);
        let target = if text[line_start..span.start].trim().is_empty() {
            let next = file
                .tree()
                .tokens()
                .find(|t| t.range.0 >= span.end && !t.kind.is_trivia())
                .map_or(text.len(), |t| t.range.0);
            file.line_col(next).line
        } else {
            line
        };
        out.push(Mark { span, line: target });
    }
    out
}
