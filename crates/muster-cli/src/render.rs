//! Rendering diagnostics for people: miette's graphical report, colour only on a
//! terminal and never with `NO_COLOR` set.

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
    out
}

/// `checked 9 files: 0 errors, 1 warning`.
pub fn summary_line(files: usize, diagnostics: &[Diagnostic]) -> String {
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics.len() - errors;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!(
        "checked {}: {}, {}",
        plural(files, "file"),
        plural(errors, "error"),
        plural(warnings, "warning")
    )
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
    use super::*;

    #[test]
    fn github_escapes() {
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
        assert_eq!(escape_data("x\ny"), "x%0Ay");
    }
}
