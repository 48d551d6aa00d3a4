//! Hook parameter problems in muster's words: unknown keys with the nearest real one,
//! type and range errors that say the field, what was expected and what was found.

use jsonschema::ValidationError;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;

use super::RegisteredHook;
use muster_db::load::schema::found;
use muster_db::place::Place;
use muster_db::suggest::did_you_mean;

/// A problem with a special rule's parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The place inside `params` (`bonus`; the root for the whole map).
    pub place: Place,
    /// Whether the place is the key at `place` rather than its value.
    pub at_key: bool,
    pub message: String,
    pub help: Option<String>,
}

impl Problem {
    pub fn at_value(place: Place, message: String) -> Self {
        Self {
            place,
            at_key: false,
            message,
            help: None,
        }
    }
}

/// One problem per key of `params` that is not a parameter of the hook.
pub fn unknown_keys(hook: &RegisteredHook, params: &Value) -> Vec<Problem> {
    let Some(map) = params.as_object() else {
        return Vec::new();
    };
    let names = hook.parameter_names();
    map.keys()
        .filter(|k| !names.contains(k))
        .map(|k| Problem {
            place: Place::root().key(k),
            at_key: true,
            message: format!("`{k}` is not a parameter of this hook"),
            help: did_you_mean(k, names.iter().map(String::as_str)).or_else(|| {
                Some(if names.is_empty() {
                    "this hook takes no parameter".to_string()
                } else {
                    format!("its parameters: {}", names.join(", "))
                })
            }),
        })
        .collect()
}

/// `counters/2` for `/counters/2`: the field as the author wrote it.
fn field(pointer: &str) -> String {
    pointer.trim_start_matches('/').to_string()
}

fn expected(kind: &TypeKind) -> String {
    let one = |t: String| match t.as_str() {
        "integer" => "an integer".to_string(),
        "number" => "a number".to_string(),
        "string" => "a string".to_string(),
        "boolean" => "`true` or `false`".to_string(),
        "array" => "a list".to_string(),
        "object" => "a map `{...}`".to_string(),
        "null" => "nothing".to_string(),
        other => other.to_string(),
    };
    match kind {
        TypeKind::Single(t) => one(t.to_string()),
        TypeKind::Multiple(set) => set
            .iter()
            .map(|t| t.to_string())
            .filter(|t| t != "null")
            .map(one)
            .collect::<Vec<_>>()
            .join(" or "),
    }
}

/// A schema error in muster's words; `None` for unknown keys (see [`unknown_keys`]).
pub fn problem(e: &ValidationError) -> Option<Problem> {
    let pointer = e.instance_path().to_string();
    let what = if pointer.is_empty() {
        "the parameters".to_string()
    } else {
        format!("`{}`", field(&pointer))
    };
    let instance = e.instance();
    let message = match e.kind() {
        ValidationErrorKind::AdditionalProperties { .. } => return None,
        ValidationErrorKind::Type { kind } => {
            format!(
                "{what} must be {}, found {}",
                expected(kind),
                found(instance)
            )
        }
        ValidationErrorKind::Required { property } => {
            let name = property
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| property.to_string());
            format!("missing parameter `{name}`")
        }
        ValidationErrorKind::Minimum { limit } => {
            format!("{what} must be at least {limit}, found {}", found(instance))
        }
        ValidationErrorKind::Maximum { limit } => {
            format!("{what} must be at most {limit}, found {}", found(instance))
        }
        _ => format!("{what}: {e}"),
    };
    Some(Problem::at_value(Place::from_pointer(&pointer), message))
}

/// A required parameter that an unknown key's suggestion already names is reported
/// once, at the misspelt key (`roll_atleast`: did you mean `roll_at_least`?).
pub fn drop_missing_suggested(problems: &mut Vec<Problem>) {
    let suggested: Vec<String> = problems
        .iter()
        .filter(|p| p.at_key)
        .filter_map(|p| p.help.as_deref())
        .filter_map(|h| h.strip_prefix("did you mean `")?.strip_suffix("`?"))
        .map(|n| format!("missing parameter `{n}`"))
        .collect();
    problems.retain(|p| p.at_key || !suggested.contains(&p.message));
}
