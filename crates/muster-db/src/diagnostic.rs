//! Diagnostics: what is wrong (message), where (a span in the file, plus secondary
//! labels), why (note) and what to do (help). They implement `miette::Diagnostic` so
//! the CLI can render them; this crate itself never prints.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use miette::{LabeledSpan, SourceCode};
use serde::Serialize;

use crate::source::{LineCol, SourceFile};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    /// Something the author should know that is not a problem in itself (a check that
    /// could not run); never changes the exit code.
    Info,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        })
    }
}

/// A secondary place involved in a diagnostic ("first placed here").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Range<usize>,
    pub text: String,
}

#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// Stable code, `group::name`.
    pub code: &'static str,
    pub severity: Severity,
    /// What is wrong: short, lowercase, identifiers in backticks.
    pub message: String,
    pub file: Arc<SourceFile>,
    /// Byte span of the offending value.
    pub span: Range<usize>,
    /// Text under the primary span, if any.
    pub label: Option<String>,
    pub labels: Vec<Label>,
    /// What to do about it.
    pub help: Option<String>,
    /// Why it matters or what else is involved (other files).
    pub note: Option<String>,
}

impl Diagnostic {
    pub fn start(&self) -> LineCol {
        self.file.line_col(self.span.start)
    }

    pub fn end(&self) -> LineCol {
        self.file.line_col(self.span.end)
    }

    /// Sort key: file, then position, then code.
    pub fn sort_key(&self) -> (String, usize, &'static str) {
        (self.file.name.clone(), self.span.start, self.code)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    /// The help alone: the note is a line of its own, which the renderer adds (miette
    /// has no slot for it).
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display + 'a>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&*self.file)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary = LabeledSpan::new_primary_with_span(self.label.clone(), self.span.clone());
        let others = self
            .labels
            .iter()
            .map(|l| LabeledSpan::new_with_span(Some(l.text.clone()), l.span.clone()));
        Some(Box::new(std::iter::once(primary).chain(others)))
    }
}
