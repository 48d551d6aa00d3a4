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
