//! Rendering diagnostics for people: miette's graphical report, colour only on a
//! terminal and never with `NO_COLOR` set.

use std::borrow::Borrow;
use std::io::IsTerminal;

use miette::{GraphicalReportHandler, GraphicalTheme};
use muster_check::{Diagnostic, Severity};

pub fn use_colour() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

pub fn handler(colour: bool) -> GraphicalReportHandler {
    let theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false)
}

pub fn diagnostic(handler: &GraphicalReportHandler, d: &Diagnostic) -> String {
    let mut out = String::new();
    if handler.render_report(&mut out, d).is_err() {
        let at = d.start();
        out = format!(
            "{}:{}:{}: {}[{}]: {}\n",
            d.file.name, at.line, at.column, d.severity, d.code, d.message
        );
    }
    if let Some(note) = &d.note {
        out.push_str(&note_line(note));
    }
    out
}

/// The note of a diagnostic, on a line of its own under the help.
pub fn note_line(note: &str) -> String {
    format!("  note: {note}\n")
}

/// Diagnostics on one line beyond which the rest are listed one line each, without
/// their source: a generated file with thousands of problems on one line stays readable
/// and its output stays proportional to the number of problems.
pub const FULL_PER_LINE: usize = 5;

/// Every diagnostic for people, in order: the first [`FULL_PER_LINE`] of each source
/// line in full, the others of that line in the one-line `short` form after a heading.
pub fn human<D: Borrow<Diagnostic>>(handler: &GraphicalReportHandler, diagnostics: &[D]) -> String {
    let diagnostics: Vec<&Diagnostic> = diagnostics.iter().map(Borrow::borrow).collect();
    let mut out = String::new();
    let mut i = 0;
    while i < diagnostics.len() {
        let first = diagnostics[i];
        let line = first.start().line;
        let same = diagnostics[i..]
            .iter()
            .take_while(|d| d.file.name == first.file.name && d.start().line == line)
            .count();
        let group = &diagnostics[i..i + same];
        for d in group.iter().take(FULL_PER_LINE) {
            out.push_str(&diagnostic(handler, d));
            out.push('\n');
        }
        if same > FULL_PER_LINE {
            out.push_str(&format!(
                "{} more on {}:{line}:\n",
                same - FULL_PER_LINE,
                first.file.name
            ));
            for d in &group[FULL_PER_LINE..] {
                out.push_str("  ");
                out.push_str(&short(d));
                out.push('\n');
            }
            out.push('\n');
        }
        i += same;
    }
    out
}

/// `checked 9 files: 0 errors, 1 warning`.
pub fn summary_line(files: usize, diagnostics: &[Diagnostic]) -> String {
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let infos = diagnostics.len() - errors - warnings;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut line = format!(
        "checked {}: {}, {}",
        plural(files, "file"),
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    // Shown only when there are some, so that a clean run reads as before.
    if infos > 0 {
        line.push_str(&format!(", {}", plural(infos, "info")));
    }
    line
}

/// `file:line:col: severity[code]: message` for editor problem matchers and grep.
pub fn short(d: &Diagnostic) -> String {
    let at = d.start();
    format!(
        "{}:{}:{}: {}[{}]: {}",
        d.file.name, at.line, at.column, d.severity, d.code, d.message
    )
}

/// A GitHub Actions workflow command. Property values escape `%`, CR, LF, `:` and `,`;
/// the message escapes `%`, CR and LF.
pub fn github(d: &Diagnostic) -> String {
    let (start, end) = (d.start(), d.end());
    let command = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    format!(
        "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
        escape_property(&d.file.name),
        start.line,
        start.column,
        end.line,
        end.column,
        escape_property(d.code),
        escape_data(&message)
    )
}

fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use muster_check::source::SourceFile;

    use super::*;

    fn on_one_line(count: usize, text: &str) -> Vec<Diagnostic> {
        let file = Arc::new(SourceFile::new("a.ron", "a.ron", text.to_string()));
        (0..count)
            .map(|i| Diagnostic {
                code: "geometry::off-map",
                severity: Severity::Error,
                message: format!("problem {i}"),
                file: file.clone(),
                span: i * 2..i * 2 + 1,
                label: None,
                labels: Vec::new(),
                help: None,
                note: None,
            })
            .collect()
    }

    #[test]
    fn many_diagnostics_on_one_line_print_the_line_a_bounded_number_of_times() {
        let line = "x ".repeat(50_000);
        let diagnostics = on_one_line(1_000, &line);
        let out = human(&handler(false), &diagnostics);
        assert_eq!(
            out.matches("problem ").count(),
            1_000,
            "every one is listed"
        );
        assert!(out.contains("995 more on a.ron:1:"), "{}", &out[..2000]);
        // Five full reports, each showing at most a window of the 100,000-byte line.
        assert!(out.len() < 5 * 2_000 + 1_000 * 80, "{} bytes", out.len());
    }

    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_span() {
        let text = format!("{}ERR{}\n", "a".repeat(5_000), "b".repeat(5_000));
        let file = Arc::new(SourceFile::new("a.ron", "a.ron", text));
        let d = Diagnostic {
            code: "geometry::off-map",
            severity: Severity::Error,
            message: "here".to_string(),
            file,
            span: 5_000..5_003,
            label: None,
            labels: Vec::new(),
            help: None,
            note: None,
        };
        let out = diagnostic(&handler(false), &d);
        assert!(out.contains("a.ron:1:5001"), "{out}");
        assert!(out.contains("ERR"), "{out}");
        assert!(out.len() < 1_000, "{} bytes: {out}", out.len());
    }

    #[test]
    fn github_escapes() {
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
        assert_eq!(escape_data("x\ny"), "x%0Ay");
    }
}
