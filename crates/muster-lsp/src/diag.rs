//! muster's diagnostics as LSP diagnostics: the same code, message, help, note and
//! related places as the CLI, with what a quick fix needs carried in `data`.

use std::collections::HashMap;
use std::ops::Range;

use lsp_types::{DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri};
use muster_db::{Diagnostic, Severity};
use serde_json::json;

use crate::pos::Lines;

/// The replacement a help text suggests (`did you mean `saxe`?`), as muster phrases it
/// (`muster_db::suggest::did_you_mean`).
pub fn suggested(help: &str) -> Option<&str> {
    let rest = help.strip_prefix("did you mean `")?;
    let end = rest.find("`?")?;
    let found = &rest[..end];
    (!found.is_empty() && !found.contains('`')).then_some(found)
}

/// The text that replaces the span: quoted when the span is a string literal.
fn replacement(written: &str, suggestion: &str) -> String {
    if written.starts_with('"') && written.ends_with('"') && written.len() >= 2 {
        serde_json::to_string(suggestion).unwrap_or_else(|_| format!("\"{suggestion}\""))
    } else {
        suggestion.to_string()
    }
}

pub fn to_lsp(
    d: &Diagnostic,
    lines: &Lines,
    uri: &Uri,
    free_hexes: &HashMap<Range<usize>, Vec<(String, String)>>,
) -> lsp_types::Diagnostic {
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    if let Some(note) = &d.note {
        message.push_str("\nnote: ");
        message.push_str(note);
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .map(|l| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), lines.range(&l.span)),
            message: l.text.clone(),
        })
        .collect();
    let mut data = serde_json::Map::new();
    let written = d.file.text.get(d.span.clone()).unwrap_or("");
    if let Some(s) = d.help.as_deref().and_then(suggested) {
        data.insert("replace".into(), json!(replacement(written, s)));
        data.insert("suggestion".into(), json!(s));
    }
    if let Some(free) = free_hexes.get(&d.span) {
        let quoted = written.starts_with('"');
        let hexes: Vec<serde_json::Value> = free
            .iter()
            .map(|(hex, terrain)| {
                let text = if quoted {
                    format!("\"{hex}\"")
                } else {
                    hex.clone()
                };
                json!({"hex": hex, "terrain": terrain, "replace": text})
            })
            .collect();
        data.insert("free_hexes".into(), json!(hexes));
    }
    lsp_types::Diagnostic {
        range: lines.range(&d.span),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        code_description: None,
        source: Some("muster".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: (!data.is_empty()).then(|| serde_json::Value::Object(data)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_suggestion_of_a_help_text() {
        assert_eq!(suggested("did you mean `saxe`?"), Some("saxe"));
        assert_eq!(
            suggested(&muster_db::suggest::did_you_mean("saxx", ["saxe"]).unwrap()),
            Some("saxe")
        );
        assert_eq!(suggested("move one of them"), None);
        assert_eq!(replacement("\"saxx\"", "saxe"), "\"saxe\"");
        assert_eq!(replacement("Hexs", "Hexes"), "Hexes");
    }
}
