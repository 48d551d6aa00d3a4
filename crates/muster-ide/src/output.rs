//! Machine-readable reports: the JSON document `muster validate --format json` prints.
//! Its schema is generated into `schema/report.schema.json`.

use schemars::JsonSchema;
use serde::Serialize;

use muster_db::{Diagnostic, Severity};

/// The whole report of one validation run.
#[derive(Debug, Serialize, JsonSchema)]
pub struct JsonReport {
    /// Version of this report format.
    pub version: u32,
    /// The data files checked (rules systems, counter sheets, maps, scenarios). The
    /// project file `muster.toml` is not counted, though its own diagnostics are listed.
    pub files_checked: usize,
    pub errors: usize,
    pub warnings: usize,
    pub diagnostics: Vec<JsonDiagnostic>,
}

/// One diagnostic; lines and columns are 1-based, columns count characters, offsets
/// are bytes from the start of the file.
#[derive(Debug, Serialize, JsonSchema)]
pub struct JsonDiagnostic {
    /// The file, named as every format names it: control characters, bidirectional
    /// controls and non-characters escaped (`\n`, `\u{1b}`), bytes that are not UTF-8
    /// as `\xNN`.
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
    Info,
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
                Severity::Info => JsonSeverity::Info,
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
            warnings: diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Warning)
                .count(),
            diagnostics: diagnostics
                .iter()
                .map(JsonDiagnostic::from_diagnostic)
                .collect(),
        }
    }
}

/// SARIF 2.1.0 (the subset GitHub code scanning reads): one run, the rules with their
/// documentation, one result per diagnostic with its region. Columns count Unicode
/// code points, as muster's do.
pub mod sarif {
    use serde::Serialize;

    use muster_check::registry::REGISTRY;
    use muster_db::{Diagnostic, Severity};

    #[derive(Serialize)]
    pub struct Log {
        #[serde(rename = "$schema")]
        schema: &'static str,
        version: &'static str,
        runs: Vec<Run>,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Run {
        tool: Tool,
        results: Vec<ResultItem>,
        column_kind: &'static str,
    }

    #[derive(Serialize)]
    struct Tool {
        driver: Driver,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Driver {
        name: &'static str,
        version: &'static str,
        rules: Vec<Rule>,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Rule {
        id: &'static str,
        short_description: Text,
        full_description: Text,
        help: Help,
        default_configuration: Configuration,
    }

    #[derive(Serialize)]
    struct Text {
        text: String,
    }

    #[derive(Serialize)]
    struct Help {
        text: String,
        markdown: String,
    }

    #[derive(Serialize)]
    struct Configuration {
        level: &'static str,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct ResultItem {
        rule_id: &'static str,
        rule_index: usize,
        level: &'static str,
        message: Text,
        locations: Vec<Location>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        related_locations: Vec<Location>,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Location {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<usize>,
        physical_location: PhysicalLocation,
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<Text>,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct PhysicalLocation {
        artifact_location: ArtifactLocation,
        region: Region,
    }

    #[derive(Serialize)]
    struct ArtifactLocation {
        uri: String,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Region {
        start_line: usize,
        start_column: usize,
        end_line: usize,
        end_column: usize,
    }

    fn level(severity: Severity) -> &'static str {
        match severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "note",
        }
    }

    fn location(
        d: &Diagnostic,
        span: &std::ops::Range<usize>,
        id: Option<usize>,
        message: Option<String>,
    ) -> Location {
        let (s, e) = (d.file.line_col(span.start), d.file.line_col(span.end));
        Location {
            id,
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation {
                    // The shown name (`text::path`), so it may hold `\xNN`: only Windows'
                    // separators are turned into slashes.
                    uri: if std::path::MAIN_SEPARATOR == '\\' {
                        d.file.name.replace('\\', "/")
                    } else {
                        d.file.name.clone()
                    },
                },
                region: Region {
                    start_line: s.line,
                    start_column: s.column,
                    end_line: e.line,
                    // SARIF end columns are exclusive and at least the start column + 1.
                    end_column: if e.line == s.line {
                        e.column.max(s.column + 1)
                    } else {
                        e.column
                    },
                },
            },
            message: message.map(|text| Text { text }),
        }
    }

    pub fn log(diagnostics: &[Diagnostic]) -> Log {
        let rules = REGISTRY
            .iter()
            .map(|c| Rule {
                id: c.meta.code,
                short_description: Text {
                    text: c.meta.summary.to_string(),
                },
                full_description: Text {
                    text: c
                        .meta
                        .doc()
                        .lines()
                        .nth(1)
                        .unwrap_or(c.meta.summary)
                        .to_string(),
                },
                help: Help {
                    text: c.meta.doc(),
                    markdown: c.meta.doc(),
                },
                default_configuration: Configuration {
                    level: level(c.meta.severity),
                },
            })
            .collect();
        let results = diagnostics
            .iter()
            .map(|d| {
                let mut message = d.message.clone();
                if let Some(help) = &d.help {
                    message.push_str(&format!("\nhelp: {help}"));
                }
                ResultItem {
                    rule_id: d.code,
                    rule_index: REGISTRY
                        .iter()
                        .position(|c| c.meta.code == d.code)
                        .unwrap_or(0),
                    level: level(d.severity),
                    message: Text { text: message },
                    locations: vec![location(d, &d.span, None, None)],
                    related_locations: d
                        .labels
                        .iter()
                        .enumerate()
                        .map(|(i, l)| location(d, &l.span, Some(i + 1), Some(l.text.clone())))
                        .collect(),
                }
            })
            .collect();
        Log {
            schema: "https://json.schemastore.org/sarif-2.1.0.json",
            version: "2.1.0",
            runs: vec![Run {
                tool: Tool {
                    driver: Driver {
                        name: "muster",
                        version: env!("CARGO_PKG_VERSION"),
                        rules,
                    },
                },
                results,
                column_kind: "unicodeCodePoints",
            }],
        }
    }
}
