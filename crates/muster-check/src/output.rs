//! Machine-readable reports: the JSON document `muster validate --format json` prints.
//! Its schema is generated into `schema/report.schema.json`.

use schemars::JsonSchema;
use serde::Serialize;

use crate::{Diagnostic, Severity};

/// The whole report of one validation run.
#[derive(Debug, Serialize, JsonSchema)]
pub struct JsonReport {
    /// Version of this report format.
    pub version: u32,
    pub files_checked: usize,
    pub errors: usize,
    pub warnings: usize,
    pub diagnostics: Vec<JsonDiagnostic>,
}

/// One diagnostic; lines and columns are 1-based, columns count characters, offsets
/// are bytes from the start of the file.
#[derive(Debug, Serialize, JsonSchema)]
pub struct JsonDiagnostic {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub offset: usize,
    pub end_offset: usize,
    pub code: String,
    pub severity: JsonSeverity,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub labels: Vec<JsonLabel>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum JsonSeverity {
    Error,
    Warning,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct JsonLabel {
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub message: String,
}

impl JsonDiagnostic {
    pub fn from_diagnostic(d: &Diagnostic) -> Self {
        let (start, end) = (d.start(), d.end());
        Self {
            file: d.file.name.clone(),
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
            offset: d.span.start,
            end_offset: d.span.end,
            code: d.code.to_string(),
            severity: match d.severity {
                Severity::Error => JsonSeverity::Error,
                Severity::Warning => JsonSeverity::Warning,
            },
            message: d.message.clone(),
            help: d.help.clone(),
            note: d.note.clone(),
            labels: d
                .labels
                .iter()
                .map(|l| {
                    let (s, e) = (d.file.line_col(l.span.start), d.file.line_col(l.span.end));
                    JsonLabel {
                        line: s.line,
                        column: s.column,
                        end_line: e.line,
                        end_column: e.column,
                        message: l.text.clone(),
                    }
                })
                .collect(),
        }
    }
}

impl JsonReport {
    pub fn new(files_checked: usize, diagnostics: &[Diagnostic]) -> Self {
        let errors = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        Self {
            version: 1,
            files_checked,
            errors,
            warnings: diagnostics.len() - errors,
            diagnostics: diagnostics
                .iter()
                .map(JsonDiagnostic::from_diagnostic)
                .collect(),
        }
    }
}
