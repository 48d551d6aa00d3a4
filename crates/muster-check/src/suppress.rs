//! In-file suppressions. An author silences one finding on one line with a comment:
//!
//! ```ron
//! // muster: allow(setup::impassable-terrain) reason: drakkars sail on the Meuse
//! (units: [(counter: "drakkar", count: 3)], at: Spaced(from: "0101", to: "0107")),
//! ```
//!
//! A comment on its own line applies to the next line holding data; a comment after
//! data on the same line applies to that line. Several codes may be listed,
//! comma-separated. The reason is required. Diagnostics that make a file unusable
//! (`structure::*`, unknown references, references outside the root) cannot be
//! silenced.

use std::ops::Range;

use muster_db::Diagnostic;
use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_db::source::SourceFile;

// The codes this module reports, declared where they are checked.

declare_check! {
    /// ## What it does
    /// Reports a `// muster: allow(...)` comment that does not say why the finding is silenced. The suppression does not apply until it does.
    ///
    /// ## Why is this bad?
    /// A silenced finding without a reason is indistinguishable from a hidden mistake; the next author cannot tell whether it still holds.
    ///
    /// ## Example
    /// ```ron
    /// // muster: allow(setup::impassable-terrain)
    /// (units: [(counter: "drakkar", count: 2)], at: Spaced(from: "0101", to: "0107", min_gap: 1)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// // muster: allow(setup::impassable-terrain) reason: drakkars sail on the river
    /// (units: [(counter: "drakkar", count: 2)], at: Spaced(from: "0101", to: "0107", min_gap: 1)),
    /// ```
    pub MISSING_REASON = ("suppression::missing-reason", Error, "a suppression comment without a reason");
}

declare_check! {
    /// ## What it does
    /// Reports a suppression naming a code that makes the file unusable: structure errors, unknown references, references outside the project root.
    ///
    /// ## Why is this bad?
    /// Such a file cannot be checked or loaded by an engine; the finding must be fixed, not hidden.
    ///
    /// ## Example
    /// ```ron
    /// map: "test-map", // muster: allow(references::unknown-file) reason: the map is being redrawn
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// map: "test-map",
    /// ```
    pub NOT_ALLOWED = ("suppression::not-allowed", Error, "a suppression of a finding that cannot be silenced");
}

declare_check! {
    /// ## What it does
    /// Reports a code in `allow(...)` that no check has, with the nearest known code.
    ///
    /// ## Why is this bad?
    /// A misspelt code silences nothing, and the finding it was meant for is still reported.
    ///
    /// ## Example
    /// ```ron
    /// // muster: allow(setup::impasable-terrain) reason: drakkars sail on the river
    /// (units: [(counter: "drakkar", count: 2)], at: Spaced(from: "0101", to: "0107", min_gap: 1)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// // muster: allow(setup::impassable-terrain) reason: drakkars sail on the river
    /// (units: [(counter: "drakkar", count: 2)], at: Spaced(from: "0101", to: "0107", min_gap: 1)),
    /// ```
    pub UNKNOWN_CODE = ("suppression::unknown-code", Error, "a suppression naming no known check");
}

declare_check! {
    /// ## What it does
    /// Warns when a suppression's code is not reported on the line it applies to. While the file has an error that stops it being checked (syntax, an unknown reference), suppressions are not judged. A second `allow` of a code for a line that an earlier one already silences is reported as the duplicate it is, with the `allow` that silences it.
    ///
    /// ## Why is this bad?
    /// Stale suppressions hide nothing today but would hide a new finding tomorrow; they also mislead readers.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])), // muster: allow(geometry::off-map) reason: old map
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    pub UNUSED = ("suppression::unused", Warning, "a suppression that silences nothing");
}

/// Whether findings of `code` may be silenced or relaxed by configuration.
pub fn suppressible(code: &str) -> bool {
    !(code.starts_with("structure::")
        || code.starts_with("references::unknown-")
        || code == "references::outside-root"
        || code.starts_with("suppression::")
        || code.starts_with("config::"))
}

/// A parsed `muster: allow(...)` comment.
#[derive(Debug, Clone, PartialEq)]
pub struct Suppression {
    /// Span of the whole comment.
    pub span: Range<usize>,
    /// Codes with the span of each inside the comment.
    pub codes: Vec<(String, Range<usize>)>,
    pub reason: Option<String>,
    /// 1-based line the suppression applies to.
    pub target_line: usize,
}

/// The comments of a data file, from its syntax tree (strings are tokens there, so
/// text inside them is never taken for a comment).
pub fn comments(file: &SourceFile) -> Vec<Range<usize>> {
    file.tree().comments().map(|c| c.range()).collect()
}

const MARKER: &str = "muster:";

thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn count_work(n: usize) {
    WORK.with(|w| w.set(w.get().saturating_add(n as u64)));
}

/// The work suppressions have cost on this thread so far: tokens read to find the lines
/// suppressions apply to, and lookups of a diagnostic's suppression. A measure that
/// does not depend on the machine, for tests that it grows with the file, not its square.
pub fn work() -> u64 {
    WORK.with(std::cell::Cell::get)
}

/// Finds the suppression comments of a file.
pub fn parse(file: &SourceFile) -> Vec<Suppression> {
    let text = &file.text;
    let mut out = Vec::new();
    // Where each token holding data starts, in order: the next data line after a
    // comment is one binary search, not a walk from the start of the file.
    let mut data_starts: Option<Vec<usize>> = None;
    for span in comments(file) {
        let body = &text[span.clone()];
        let Some(at) = body.find(MARKER) else {
            continue;
        };
        let rest_start = span.start + at + MARKER.len();
        let rest = &text[rest_start..span.end];
        let trimmed = rest.trim_start();
        let Some(args) = trimmed.strip_prefix("allow(") else {
            continue;
        };
        let args_start = rest_start + (rest.len() - trimmed.len()) + "allow(".len();
        let Some(close) = args.find(')') else {
            continue;
        };
        let mut codes = Vec::new();
        let mut offset = 0;
        for part in args[..close].split(',') {
            let lead = part.len() - part.trim_start().len();
            let code = part.trim();
            if !code.is_empty() {
                let s = args_start + offset + lead;
                codes.push((code.to_string(), s..s + code.len()));
            }
            offset += part.len() + 1;
        }
        let after = args[close + 1..].trim().trim_end_matches("*/").trim();
        let reason = after
            .strip_prefix("reason:")
            .or_else(|| after.strip_prefix("--"))
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string);
        let line = file.line_col(span.start).line;
        let line_start = file.offset_of(line, 1);
        // From the comment back to the last character that is not blank: the scan stops
        // there, so many comments on one line cost their length, not its square.
        let code_before = !text[line_start..span.start].trim_end().is_empty();
        let target_line = if code_before {
            line
        } else {
            let starts = data_starts.get_or_insert_with(|| data_token_starts(file));
            next_data_line(file, starts, span.end)
        };
        out.push(Suppression {
            span,
            codes,
            reason,
            target_line,
        });
    }
    out
}

/// Where the tokens that are not comments or blanks start, in the order of the file.
fn data_token_starts(file: &SourceFile) -> Vec<usize> {
    file.tree()
        .tokens()
        .inspect(|_| count_work(1))
        .filter(|t| !t.kind.is_trivia())
        .map(|t| t.range.0)
        .collect()
}

/// The line of the next token after `offset` (comments and blanks skipped), among the
/// data tokens' starts `starts`.
fn next_data_line(file: &SourceFile, starts: &[usize], offset: usize) -> usize {
    let next = starts
        .get(starts.partition_point(|&s| s < offset))
        .copied()
        .unwrap_or(file.text.len());
    file.line_col(next).line
}

/// Removes the diagnostics that suppressions silence and returns the suppressions'
/// own diagnostics (missing reason, unknown or unsilenceable code, unused). Unused
/// suppressions are only reported when no unsilenceable error stopped the checks, and
/// never for a code that was not checked (`not_run`: a check the project turns off).
pub fn apply(
    file: &SourceFile,
    diagnostics: &mut Vec<Diagnostic>,
    sink: &mut Sink,
    not_run: &dyn Fn(&str) -> bool,
) {
    let suppressions = parse(file);
    if suppressions.is_empty() {
        return;
    }
    // What each unknown code might have meant, worked out once per spelling: a file
    // may repeat one mistyped suppression thousands of times.
    let mut meant: muster_db::FastMap<&str, Option<String>> = muster_db::FastMap::default();
    for s in &suppressions {
        if s.reason.is_none() {
            sink.push(
                Report::new(
                    &MISSING_REASON,
                    Loc::Span(s.span.clone()),
                    "suppression without a reason",
                )
                .help("say why after the codes: `// muster: allow(code) reason: ...`"),
            );
        }
        for (code, span) in &s.codes {
            if crate::registry::find(code).is_none() {
                let help = meant
                    .entry(code.as_str())
                    .or_insert_with(|| {
                        let codes = crate::registry::REGISTRY.iter().map(|c| c.meta.code);
                        muster_db::suggest::did_you_mean(code, codes)
                    })
                    .clone();
                sink.push(
                    Report::new(
                        &UNKNOWN_CODE,
                        Loc::Span(span.clone()),
                        format!("no check `{code}` to silence"),
                    )
                    .help_opt(help),
                );
            } else if !suppressible(code) {
                sink.push(
                    Report::new(&NOT_ALLOWED, Loc::Span(span.clone()), format!("`{code}` cannot be silenced"))
                        .note("errors that make a file unusable (syntax, unknown references) must be fixed"),
                );
            }
        }
    }
    // A file with an error that stops it being checked (syntax, an unknown reference)
    // has not been through every check, so a suppression cannot be judged unused yet.
    let fully_checked = diagnostics.iter().all(|d| suppressible(d.code));
    let mut used = vec![vec![false; 0]; suppressions.len()];
    for (i, s) in suppressions.iter().enumerate() {
        used[i] = vec![false; s.codes.len()];
    }
    // Per line and code, the suppression that silences it: the first with a reason on
    // that line listing the code (its first listing of it). One lookup per diagnostic.
    let mut silencer: muster_db::FastMap<(usize, &str), (usize, usize)> =
        muster_db::FastMap::default();
    for (i, s) in suppressions.iter().enumerate() {
        if s.reason.is_none() {
            continue;
        }
        for (k, (code, _)) in s.codes.iter().enumerate() {
            silencer
                .entry((s.target_line, code.as_str()))
                .or_insert((i, k));
        }
    }
    diagnostics.retain(|d| {
        if !suppressible(d.code) {
            return true;
        }
        count_work(1);
        match silencer.get(&(d.start().line, d.code)) {
            Some(&(i, k)) => {
                used[i][k] = true;
                false
            }
            None => true,
        }
    });
    for (i, s) in suppressions.iter().enumerate() {
        if s.reason.is_none() || !fully_checked {
            continue;
        }
        for (k, (code, span)) in s.codes.iter().enumerate() {
            if !used[i][k]
                && crate::registry::find(code).is_some()
                && suppressible(code)
                && !not_run(code)
            {
                // Another `allow` of the same code for the same line took the finding.
                let earlier = suppressions.iter().enumerate().find_map(|(j, e)| {
                    let at = e.codes.iter().position(|(c, _)| c == code)?;
                    (e.target_line == s.target_line && used[j][at]).then_some((j, e, at))
                });
                if let Some((j, e, at)) = earlier {
                    let message = if j == i {
                        format!(
                            "`{code}` is listed twice in this `allow`; the first already silences it on line {}",
                            s.target_line
                        )
                    } else {
                        format!(
                            "`{code}` on line {} is already silenced by the `allow` on line {}",
                            s.target_line,
                            file.line_col(e.span.start).line
                        )
                    };
                    sink.push(
                        Report::new(&UNUSED, Loc::Span(span.clone()), message)
                            .primary("this one silences nothing")
                            .label(Loc::Span(e.codes[at].1.clone()), "this one silences it")
                            .help(format!("delete this duplicate suppression of `{code}`")),
                    );
                    continue;
                }
                sink.push(
                    Report::new(
                        &UNUSED,
                        Loc::Span(span.clone()),
                        format!(
                            "`{code}` is not reported on line {}, so this silences nothing",
                            s.target_line
                        ),
                    )
                    .help("remove the suppression, or move it to the line of the finding"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("x.scenario.ron", "x", text.to_string())
    }

    #[test]
    fn comments_skip_strings() {
        let text = "(a: \"// not a comment\", // yes\n/* block */ b: r#\"//\"#)";
        let f = file(text);
        let found: Vec<&str> = comments(&f).into_iter().map(|r| &text[r]).collect();
        assert_eq!(found, ["// yes", "/* block */"]);
    }

    #[test]
    fn parses_codes_reason_and_target() {
        let f = file(
            "(\n    // muster: allow(a::b, c::d) reason: because\n\n    x: 1,\n    y: 2, // muster: allow(e::f)\n)",
        );
        let s = parse(&f);
        assert_eq!(s.len(), 2);
        assert_eq!(
            s[0].codes.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(),
            ["a::b", "c::d"]
        );
        assert_eq!(s[0].reason.as_deref(), Some("because"));
        assert_eq!(s[0].target_line, 4);
        assert_eq!(&f.text[s[0].codes[1].1.clone()], "c::d");
        assert_eq!(s[1].target_line, 5);
        assert_eq!(s[1].reason, None);
    }

    #[test]
    fn many_suppressions_cost_the_file_not_its_square() {
        let n = 3_000;
        let mut text = String::from("(\n");
        for _ in 0..n {
            text.push_str("    // muster: allow(setup::impassable-terrain) reason: ships\n");
        }
        text.push_str("    x: 1,\n)");
        let loaded = muster_db::load::Loaded::plain(file(&text));
        let before = work();
        let found = parse(&loaded.file);
        assert_eq!(found.len(), n);
        assert!(found.iter().all(|s| s.target_line == n + 2));
        let mut diagnostics = Sink::new(&loaded.file).finish();
        let mut sink = Sink::new(&loaded.file);
        apply(&loaded.file, &mut diagnostics, &mut sink, &|_| false);
        // Each suppression is unused: the first thousand listed, the rest counted in one.
        let unused = sink.finish();
        let listed = muster_db::report::LISTED_PER_CODE;
        assert_eq!(unused.len(), listed + 1);
        let rest = format!("{} more `suppression::unused` findings", n - listed);
        assert!(
            unused[listed].message.starts_with(&rest),
            "{}",
            unused[listed].message
        );
        // Walking the tokens from the start for each comment reads n x tokens.
        let tokens = loaded.file.tree().tokens().count() as u64;
        let spent = work() - before;
        assert!(spent <= 2 * tokens, "{spent} steps for {tokens} tokens");
    }

    #[test]
    fn unused_only_once_the_file_could_be_checked() {
        let loaded = muster_db::load::Loaded::plain(file(
            "(\n    // muster: allow(setup::impassable-terrain) reason: ships\n    x: 1,\n)",
        ));
        let run = |broken: bool| {
            let mut found = Sink::new(&loaded.file);
            if broken {
                found.push(Report::new(
                    &muster_db::load::structure::SYNTAX,
                    Loc::Span(0..1),
                    "broken",
                ));
            }
            let mut diagnostics = found.finish();
            let mut sink = Sink::new(&loaded.file);
            apply(&loaded.file, &mut diagnostics, &mut sink, &|_| false);
            sink.finish()
                .into_iter()
                .map(|d| d.code)
                .collect::<Vec<_>>()
        };
        assert_eq!(run(false), ["suppression::unused"]);
        assert!(run(true).is_empty());
    }

    /// A second `allow` of a code for a line is reported as the duplicate it is, not as
    /// a code that is not reported there.
    #[test]
    fn a_duplicate_allow_names_the_one_that_silences() {
        let off_map = &crate::checks::geometry::off_map::META;
        let code = off_map.code;
        // The unused diagnostics of a file whose line 4 has one off-map finding.
        let run = |comments: &str| {
            let text = format!("(\n{comments}    x: 1,\n)");
            let loaded = muster_db::load::Loaded::plain(file(&text));
            let x = text.find("x:").unwrap();
            let mut found = Sink::new(&loaded.file);
            found.push(Report::new(off_map, Loc::Span(x..x + 1), "x"));
            let mut diagnostics = found.finish();
            let mut sink = Sink::new(&loaded.file);
            apply(&loaded.file, &mut diagnostics, &mut sink, &|_| false);
            assert!(
                diagnostics.is_empty(),
                "the first `allow` silences the finding"
            );
            (text, sink.finish())
        };
        let (text, out) = run(&format!(
            "    // muster: allow({code}) reason: r\n    // muster: allow({code}) reason: r\n"
        ));
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].message,
            format!("`{code}` on line 4 is already silenced by the `allow` on line 2")
        );
        // The span is on the duplicate, a label on the code that silences.
        let second = text.rfind(code).unwrap();
        assert_eq!(out[0].span, second..second + code.len());
        let first = text.find(code).unwrap();
        assert_eq!(out[0].labels[0].span, first..first + code.len());
        assert_eq!(
            out[0].help.as_deref(),
            Some(format!("delete this duplicate suppression of `{code}`").as_str())
        );

        let (text, out) = run(&format!("    // muster: allow({code}, {code}) reason: r\n"));
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].message,
            format!(
                "`{code}` is listed twice in this `allow`; the first already silences it on line 3"
            )
        );
        assert_eq!(out[0].span.start, text.rfind(code).unwrap());
    }
}
