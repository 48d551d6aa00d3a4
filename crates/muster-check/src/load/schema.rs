//! The schema step of loading: after the typed parse, the document is validated
//! against its kind's generated JSON Schema to catch what the Rust types cannot say
//! (counts of at least one, turns from 1). Each kind's validator is built once, the
//! first time a file of that kind is checked.

use std::sync::OnceLock;

use jsonschema::{ValidationError, Validator};
use muster_model::FileKind;
use serde_json::Value;

use super::structure;
use crate::place::Place;
use crate::report::{Report, Sink};
use crate::schema::schema_of;

fn validator(kind: FileKind) -> Option<&'static Validator> {
    static VALIDATORS: [OnceLock<Option<Validator>>; 4] = [const { OnceLock::new() }; 4];
    let pos = FileKind::ALL.iter().position(|k| *k == kind)?;
    VALIDATORS
        .get(pos)?
        .get_or_init(|| jsonschema::validator_for(&schema_of(kind)).ok())
        .as_ref()
}

/// Builds the validators of `kinds` now (a caller starts this on a thread of its own,
/// so that building them overlaps with reading the files that need them).
pub fn prepare(kinds: &[FileKind]) {
    for kind in kinds {
        let _ = validator(*kind);
    }
}

pub(crate) fn check_document(value: &Value, kind: FileKind, sink: &mut Sink) {
    let Some(validator) = validator(kind) else {
        return;
    };
    for error in validator.iter_errors(value) {
        for leaf in leaf_errors(&error) {
            let place = Place::from_pointer(leaf.instance_path().as_str());
            let (message, help) = in_words(leaf);
            sink.push(Report::new(&structure::SCHEMA_VIOLATION, place, message).help_opt(help));
        }
    }
}

/// The field a pointer ends at, as the author wrote it: `count` for
/// `/sides/0/forces/Placed/setup/1/units/0/count`, `entry[2]` for `/entry/2`.
fn field_of(pointer: &str) -> String {
    let steps: Vec<&str> = pointer.split('/').skip(1).collect();
    let mut out = String::new();
    for step in steps.iter().rev() {
        if step.parse::<usize>().is_ok() {
            out = format!("[{step}]{out}");
        } else {
            return format!("{}{out}", step.replace("~1", "/").replace("~0", "~"));
        }
    }
    if out.is_empty() {
        "the file".to_string()
    } else {
        out
    }
}

/// A schema error in muster's words: the field, the rule and what was found; no JSON
/// pointer and no schema path.
fn in_words(e: &ValidationError) -> (String, Option<String>) {
    use jsonschema::error::ValidationErrorKind as K;
    let field = field_of(&e.instance_path().to_string());
    let found = crate::hooks::found(e.instance());
    let plural = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match e.kind() {
        K::Minimum { limit } => (
            format!("`{field}` must be at least {limit}, found {found}"),
            Some(format!("use {limit} or more")),
        ),
        K::Maximum { limit } => (
            format!("`{field}` must be at most {limit}, found {found}"),
            Some(format!("use {limit} or less")),
        ),
        K::ExclusiveMinimum { limit } => (
            format!("`{field}` must be more than {limit}, found {found}"),
            None,
        ),
        K::ExclusiveMaximum { limit } => (
            format!("`{field}` must be less than {limit}, found {found}"),
            None,
        ),
        K::MinItems { limit } => (
            format!(
                "`{field}` must list at least {}, found {}",
                plural(*limit, "item"),
                e.instance().as_array().map_or(0, Vec::len)
            ),
            None,
        ),
        K::MaxItems { limit } => (
            format!(
                "`{field}` may list at most {}, found {}",
                plural(*limit, "item"),
                e.instance().as_array().map_or(0, Vec::len)
            ),
            None,
        ),
        K::MinLength { limit } if *limit == 1 => (format!("`{field}` must not be empty"), None),
        K::MinLength { limit } => (
            format!(
                "`{field}` must be at least {} long",
                plural(*limit, "character")
            ),
            None,
        ),
        K::MaxLength { limit } => (
            format!(
                "`{field}` must be at most {} long",
                plural(*limit, "character")
            ),
            None,
        ),
        K::Pattern { pattern } => (
            format!("`{field}` does not have the expected form, found {found}"),
            Some(format!("the form expected is the pattern `{pattern}`")),
        ),
        K::Type { .. } => (format!("`{field}` has the wrong type, found {found}"), None),
        _ => (
            format!("`{field}` is not allowed here, found {found}"),
            None,
        ),
    }
}

/// The errors that say what is wrong. For `oneOf`/`anyOf` (how enums appear in the
/// schema) the branch that got deepest into the value is the one the author meant; its
/// errors are reported instead of "not valid under any of the schemas".
fn leaf_errors<'e>(error: &'e ValidationError<'e>) -> Vec<&'e ValidationError<'e>> {
    use jsonschema::error::ValidationErrorKind;
    let context = match error.kind() {
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            context
        }
        _ => return vec![error],
    };
    let depth = |branch: &Vec<ValidationError>| {
        branch
            .iter()
            .map(|e| e.instance_path().to_string().matches('/').count())
            .max()
            .unwrap_or(0)
    };
    match context
        .iter()
        .filter(|b| !b.is_empty())
        .max_by_key(|b| depth(b))
    {
        Some(branch) if depth(branch) > error.instance_path().to_string().matches('/').count() => {
            branch.iter().flat_map(leaf_errors).collect()
        }
        _ => vec![error],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_validator() {
        for kind in FileKind::ALL {
            assert!(validator(kind).is_some(), "{kind:?}");
        }
    }
}

#[cfg(test)]
mod words {
    use super::field_of;

    #[test]
    fn fields_are_named_as_written() {
        assert_eq!(
            field_of("/sides/0/forces/Placed/setup/1/units/0/count"),
            "count"
        );
        assert_eq!(field_of("/reinforcements/0/entry/2"), "entry[2]");
        assert_eq!(field_of(""), "the file");
    }
}
