//! Where values come from. Values a rulebook does not print are marked in the data: in
//! a record's `assumed` map, or, where a record has none, in a `// assumed: reason`
//! comment. This module reads the comment form, which `muster summary --assumed` lists,
//! and finds comments that speak of an assumption in any other form (a test keeps the
//! bundled data free of those, so that every assumption is counted).

use muster_db::source::SourceFile;

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

/// Whether the comment at `span` continues the one ending at `previous_end`: it is on
/// the next line, with nothing but blanks between.
fn continues(file: &SourceFile, previous_end: Option<usize>, start: usize) -> bool {
    previous_end.is_some_and(|end| {
        let between = &file.text[end..start];
        between.trim().is_empty() && between.matches('\n').count() == 1
    })
}

/// Whether only blanks stand before `at` on its line.
fn starts_its_line(file: &SourceFile, at: usize) -> bool {
    let line_start = file.text[..at].rfind('\n').map_or(0, |i| i + 1);
    file.text[line_start..at].trim().is_empty()
}

/// The `// assumed: reason` comments of a file, in order. The reason is the text after
/// the marker with the comment lines right below that continue it (the next lines,
/// each holding only a comment that is not a marker of its own; below a marker written
/// after a value, only comments in the marker's column).
pub fn assumed_comments(file: &SourceFile) -> Vec<AssumedComment> {
    let mut out: Vec<AssumedComment> = Vec::new();
    // The open comment: its column when it follows a value on its line.
    let mut open: Option<Option<usize>> = None;
    let mut previous_end: Option<usize> = None;
    for span in muster_check::suppress::comments(file) {
        let b = body(&file.text[span.clone()]);
        let next_line = continues(file, previous_end, span.start);
        previous_end = Some(span.end);
        if let Some(reason) = b.strip_prefix(MARK) {
            let at = file.line_col(span.start);
            open = Some((!starts_its_line(file, span.start)).then_some(at.column));
            out.push(AssumedComment {
                line: at.line,
                reason: reason.trim().to_string(),
            });
            continue;
        }
        let column_fits =
            |col: Option<usize>| col.is_none_or(|c| file.line_col(span.start).column == c);
        match open {
            Some(col) if next_line && column_fits(col) && !b.is_empty() => {
                if let Some(last) = out.last_mut() {
                    if !last.reason.is_empty() {
                        last.reason.push(' ');
                    }
                    last.reason.push_str(b);
                }
            }
            _ => open = None,
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
    for span in muster_check::suppress::comments(file) {
        let text = &file.text[span.clone()];
        let b = body(text);
        // A comment on the next line with nothing but blanks between continues the one
        // before it.
        let continues = continues(file, previous_end, span.start);
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
        assert_eq!(
            marked[0].reason,
            "twelve turns as the rules set none (assumed)"
        );
        let stray = stray_assumptions(&f);
        assert_eq!(stray.len(), 1, "{stray:?}");
        assert_eq!(stray[0].line, 4);
    }

    /// A reason written over two lines is read whole; the comment after a blank line, a
    /// value, or a new marker is not part of it.
    #[test]
    fn a_reason_goes_on_over_the_comment_lines_below() {
        let f = file(
            "Scenario(\n    // assumed: the scenario does not say who deploys first; the side\n    //   playing second is taken to deploy first.\n    deploys_first: \"a\",\n    // A note of its own.\n\n    // assumed: one\n    // assumed: two\n    turns: 4, // assumed: four turns,\n              // as the others.\n    // Not part of it.\n)\n",
        );
        let marked = assumed_comments(&f);
        let reasons: Vec<&str> = marked.iter().map(|c| c.reason.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "the scenario does not say who deploys first; the side playing second is taken to deploy first.",
                "one",
                "two",
                "four turns, as the others.",
            ]
        );
        assert_eq!(marked[0].line, 2);
        assert_eq!(marked[3].line, 9);
    }
}
