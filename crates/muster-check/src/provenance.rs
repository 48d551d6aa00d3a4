//! Where values come from. Values a rulebook does not print are marked in the data: in
//! a record's `assumed` map, or, where a record has none, in a `// assumed: reason`
//! comment. This module reads the comment form, which `muster summary --assumed` lists,
//! and finds comments that speak of an assumption in any other form (a test keeps the
//! bundled data free of those, so that every assumption is counted).

use crate::source::SourceFile;

/// An `// assumed: reason` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssumedComment {
    /// 1-based line of the comment.
    pub line: usize,
    pub reason: String,
}

/// A comment that mentions an assumption outside the recognised forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrayMention {
    pub line: usize,
    pub text: String,
}

const MARK: &str = "assumed:";

/// The body of a comment token: without its `//` or `/* */` and surrounding blanks.
fn body(text: &str) -> &str {
    let t = text.trim();
    let t = t
        .strip_prefix("/*")
        .map_or(t, |b| b.strip_suffix("*/").unwrap_or(b));
    t.trim_start_matches('/').trim()
}

/// The `// assumed: reason` comments of a file, in order (the reason is the text after
/// the marker on the comment's first line).
pub fn assumed_comments(file: &SourceFile) -> Vec<AssumedComment> {
    let mut out = Vec::new();
    for span in crate::suppress::comments(file) {
        if let Some(reason) = body(&file.text[span.clone()]).strip_prefix(MARK) {
            out.push(AssumedComment {
                line: file.line_col(span.start).line,
                reason: reason.trim().to_string(),
            });
        }
    }
    out
}

/// Comments that mention an assumption ("assume", "assumed", in any case) but are none
/// of: an `// assumed: reason` comment, a line continuing one (the comment lines right
/// below it), a reference to an `assumed` map (the word in backticks).
pub fn stray_assumptions(file: &SourceFile) -> Vec<StrayMention> {
    let mut out = Vec::new();
    let mut in_assumed = false;
    let mut previous_end: Option<usize> = None;
    for span in crate::suppress::comments(file) {
        let text = &file.text[span.clone()];
        let b = body(text);
        // A comment on the next line with nothing but blanks between continues the one
        // before it.
        let continues = previous_end.is_some_and(|end| {
            let between = &file.text[end..span.start];
            between.trim().is_empty() && between.matches('\n').count() == 1
        });
        previous_end = Some(span.end);
        if b.starts_with(MARK) {
            in_assumed = true;
            continue;
        }
        in_assumed = in_assumed && continues;
        if in_assumed {
            continue;
        }
        if b.to_lowercase().replace("`assumed`", "").contains("assum") {
            out.push(StrayMention {
                line: file.line_col(span.start).line,
                text: b.to_string(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("x.scenario.ron", "x.scenario.ron", text.to_string())
    }

    #[test]
    fn reads_the_marked_form_and_finds_the_others() {
        let f = file(
            "// assumed: twelve turns\n// as the rules set none (assumed)\nScenario(\n    // taken as 4 (assumed)\n    turns: 4, // see `assumed`\n)\n",
        );
        let marked = assumed_comments(&f);
        assert_eq!(marked.len(), 1);
        assert_eq!(marked[0].reason, "twelve turns");
        let stray = stray_assumptions(&f);
        assert_eq!(stray.len(), 1, "{stray:?}");
        assert_eq!(stray[0].line, 4);
    }
}
