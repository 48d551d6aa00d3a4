//! The schema step of loading: after the typed parse, the document is validated
//! against its kind's generated JSON Schema to catch what the Rust types cannot say
//! (counts of at least one, turns from 1). Each kind's validator is built once, the
//! first time a file of that kind is checked.

use std::sync::OnceLock;

use jsonschema::Validator;
use muster_model::FileKind;
use serde_json::Value;

use super::structure;
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
        for (pointer, message, rule) in leaf_errors(&error) {
            sink.push(
                Report::new(
                    &structure::SCHEMA_VIOLATION,
                    pointer.clone(),
                    format!("value at `{pointer}` is not allowed: {message}"),
                )
                .note(format!("schema rule: {rule}")),
            );
        }
    }
}

/// The errors that say what is wrong. For `oneOf`/`anyOf` (how enums appear in the
/// schema) the branch that got deepest into the value is the one the author meant; its
/// errors are reported instead of "not valid under any of the schemas".
fn leaf_errors(error: &jsonschema::ValidationError) -> Vec<(String, String, String)> {
    use jsonschema::error::ValidationErrorKind;
    let context = match error.kind() {
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            context
        }
        _ => {
            return vec![(
                error.instance_path().to_string(),
                error.to_string(),
                error.schema_path().to_string(),
            )];
        }
    };
    let depth = |branch: &Vec<jsonschema::ValidationError>| {
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
        _ => vec![(
            error.instance_path().to_string(),
            error.to_string(),
            error.schema_path().to_string(),
        )],
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
