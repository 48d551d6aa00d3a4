//! Structure: the file must be readable text of a known kind that parses into the
//! model. These diagnostics come from the loader, not from a pass over the model.

mod missing_field;
mod not_text;
mod schema_violation;
mod syntax;
mod too_large;
mod unknown_field;
mod unknown_kind;
mod unknown_variant;
mod unreadable;
mod wrong_type;

pub use missing_field::MISSING_FIELD;
pub use not_text::NOT_TEXT;
pub use schema_violation::SCHEMA_VIOLATION;
pub use syntax::SYNTAX;
pub use too_large::TOO_LARGE;
pub use unknown_field::UNKNOWN_FIELD;
pub use unknown_kind::UNKNOWN_KIND;
pub use unknown_variant::UNKNOWN_VARIANT;
pub use unreadable::UNREADABLE;
pub use wrong_type::WRONG_TYPE;

use ron::error::{Error as RonError, SpannedError};

use crate::registry::CheckMeta;
use crate::report::{Loc, Report};
use crate::source::SourceFile;
use crate::suggest::did_you_mean;

/// Turns a `ron` error into a report. `ron` columns count characters; empty spans and
/// spans on blank space are moved to the next token.
pub(crate) fn from_ron_error(file: &SourceFile, err: &SpannedError) -> Report {
    let start = file.offset_of(err.span.start.line, err.span.start.col);
    let end = file.offset_of(err.span.end.line, err.span.end.col);
    let (start, end) = if end <= start || file.text[start..end].trim().is_empty() {
        let s = file.next_token(start);
        (s, token_end(&file.text, s))
    } else {
        (start, end)
    };
    let at = Loc::Span(start..end);
    // An error on the last token means the file was cut short, unless that token is
    // the closing bracket of a complete value (a missing field of the outermost struct).
    let closes_value = file.text[start..end].starts_with([')', ']', '}']);
    if !closes_value
        && file.next_token(start.max(end)) >= file.text.len()
        && !file.text.trim().is_empty()
    {
        return Report::new(
            &SYNTAX,
            Loc::Span(file.text.len()..file.text.len()),
            format!("the file ends early ({})", lower(&err.code.to_string())),
        )
        .help("the file looks truncated: close every open bracket");
    }
    let (meta, message, help): (&'static CheckMeta, String, Option<String>) = match &err.code {
        RonError::NoSuchStructField {
            expected,
            found,
            outer,
        } => (
            &UNKNOWN_FIELD,
            format!("unknown field `{found}`{}", in_outer(outer)),
            Some(
                did_you_mean(found, expected.iter().copied())
                    .unwrap_or_else(|| format!("known fields: {}", list(expected))),
            ),
        ),
        RonError::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => (
            &UNKNOWN_VARIANT,
            format!("unknown variant `{found}`{}", in_outer(outer)),
            Some(
                did_you_mean(found, expected.iter().copied())
                    .unwrap_or_else(|| format!("known variants: {}", list(expected))),
            ),
        ),
        RonError::MissingStructField { field, outer } => (
            &MISSING_FIELD,
            format!("missing field `{field}`{}", in_outer(outer)),
            Some(format!("add `{field}: ...`")),
        ),
        RonError::DuplicateStructField { field, outer } => (
            &SYNTAX,
            format!("field `{field}` is given twice{}", in_outer(outer)),
            Some("keep one of the two".to_string()),
        ),
        RonError::ExpectedDifferentStructName { expected, found } => (
            &WRONG_TYPE,
            format!("expected `{expected}(...)`, found `{found}(...)`"),
            None,
        ),
        RonError::InvalidValueForType { expected, found } => (
            &WRONG_TYPE,
            format!("expected {expected}, found {found}"),
            None,
        ),
        RonError::ExpectedDifferentLength { expected, found } => (
            &WRONG_TYPE,
            format!("expected {expected}, found {found} elements"),
            None,
        ),
        RonError::ExpectedInteger
        | RonError::ExpectedFloat
        | RonError::ExpectedString
        | RonError::ExpectedBoolean
        | RonError::ExpectedArray
        | RonError::ExpectedMap
        | RonError::ExpectedOption
        | RonError::ExpectedStructLike
        | RonError::ExpectedNamedStructLike(_)
        | RonError::ExpectedUnit
        | RonError::ExpectedChar
        | RonError::ExpectedIdentifier
        | RonError::IntegerOutOfBounds => (&WRONG_TYPE, lower(&err.code.to_string()), None),
        RonError::Message(msg) => (&WRONG_TYPE, lower(msg), None),
        other => (&SYNTAX, lower(&other.to_string()), None),
    };
    Report::new(meta, at, message).help_opt(help)
}

/// Turns a `serde_json` error into a report at its line and column.
pub(crate) fn from_json_error(file: &SourceFile, err: &serde_json::Error) -> Report {
    let start = file.offset_of(err.line(), err.column().max(1));
    let start = if file.text[start.min(file.text.len())..].trim().is_empty() {
        start
    } else {
        file.next_token(start)
    };
    let end = token_end(&file.text, start);
    let text = err.to_string();
    let message = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(m, _)| m)
        .to_string();
    let meta: &'static CheckMeta = if err.is_syntax() || err.is_eof() {
        &SYNTAX
    } else if message.starts_with("unknown field") {
        &UNKNOWN_FIELD
    } else if message.starts_with("unknown variant") {
        &UNKNOWN_VARIANT
    } else if message.starts_with("missing field") {
        &MISSING_FIELD
    } else {
        &WRONG_TYPE
    };
    Report::new(meta, Loc::Span(start..end), message)
}

fn in_outer(outer: &Option<String>) -> String {
    outer
        .as_ref()
        .map(|o| format!(" in `{o}`"))
        .unwrap_or_default()
}

fn list(items: &[&str]) -> String {
    items
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn lower(text: &str) -> String {
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_lowercase().to_string());
    let rest: String = chars.collect();
    first.unwrap_or_default() + rest.trim_end_matches('.')
}

/// End of the token starting at `start`: a quoted string, or a run of word characters.
fn token_end(text: &str, start: usize) -> usize {
    let rest = &text[start.min(text.len())..];
    let len = if let Some(body) = rest.strip_prefix('"') {
        body.find('"').map_or(rest.len(), |i| i + 2)
    } else {
        rest.char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '.' || *c == '-'))
            .map_or(rest.len(), |(i, _)| i)
    };
    start + len.max(rest.chars().next().map_or(0, char::len_utf8))
}
