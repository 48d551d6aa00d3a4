//! The schema step of loading: after the typed parse, the document is validated
//! against its kind's generated JSON Schema to catch what the Rust types cannot say
//! (counts of at least one, turns from 1). Each kind's validator is built once, the
//! first time a file of that kind needs it.
//!
//! **Invariant:** a document that the typed parse accepted can break its schema only
//! through the schema's numeric bounds that its types do not already imply (a `u8`'s
//! 0 to 255 is implied; `#[schemars(range(min = 1))]` is not). [`Bounds`] reads those
//! from the generated schema itself, and a file whose every number lies within all of
//! them skips the JSON copy and the validator ([`may_break`]). A schema keyword outside
//! what `Bounds` understands turns the shortcut off for that kind. The test
//! `schema_shortcut` holds the invariant over every bundled file, every fixture and
//! mutants of their numbers.

use std::sync::OnceLock;

use jsonschema::{ValidationError, Validator};
use muster_model::FileKind;
use muster_syntax::{TokenKind, Tree};
use serde_json::Value;

use super::structure;
use crate::place::Place;
use crate::report::{Report, Sink};
use crate::schema::schema_of;

fn position(kind: FileKind) -> Option<usize> {
    FileKind::ALL.iter().position(|k| *k == kind)
}

/// The validator of a kind for documents the typed parse accepted (see
/// [`for_typed_documents`]).
fn validator(kind: FileKind) -> Option<&'static Validator> {
    static VALIDATORS: [OnceLock<Option<Validator>>; 4] = [const { OnceLock::new() }; 4];
    VALIDATORS
        .get(position(kind)?)?
        .get_or_init(|| jsonschema::validator_for(&for_typed_documents(schema_of(kind))).ok())
        .as_ref()
}

/// The validator of a kind's schema as written, with every `oneOf` and `anyOf`.
fn validator_as_written(kind: FileKind) -> Option<&'static Validator> {
    static VALIDATORS: [OnceLock<Option<Validator>>; 4] = [const { OnceLock::new() }; 4];
    VALIDATORS
        .get(position(kind)?)?
        .get_or_init(|| jsonschema::validator_for(&schema_of(kind)).ok())
        .as_ref()
}

/// A kind's schema rewritten for documents the typed parse has already accepted, with
/// the same findings on them and without the alternatives' cost.
///
/// Every `oneOf` of an enum's variants (objects of one required key, and strings) becomes
/// `properties` keyed by variant, and every `anyOf` of a value or null becomes `if null
/// else` the value. The typed parse has chosen each enum's variant and each option
/// already, so on such a document the alternatives add nothing but their price: when a
/// variant's contents break a bound, the validator records every other variant's
/// failure too, each holding a copy of the value (`ValidationError::to_owned`), which
/// for a sample of 300,000 lines cost 0.5 s and 400 MB. A node of any other shape is
/// left as written. The test `schema_shortcut` holds the findings of both equal over
/// every bundled file, fixture and mutant.
fn for_typed_documents(mut schema: Value) -> Value {
    rewrite_alternatives(&mut schema);
    schema
}

fn rewrite_alternatives(node: &mut Value) {
    match node {
        Value::Array(items) => items.iter_mut().for_each(rewrite_alternatives),
        Value::Object(map) => {
            map.values_mut().for_each(rewrite_alternatives);
            if !map.contains_key("properties")
                && let Some(Value::Array(branches)) = map.get("oneOf")
                && let Some(variants) = variants_by_key(branches)
            {
                map.remove("oneOf");
                map.insert("properties".to_string(), Value::Object(variants));
            }
            if !map.contains_key("if")
                && let Some(Value::Array(branches)) = map.get("anyOf")
                && let Some(value) = value_or_null(branches)
            {
                map.remove("anyOf");
                map.insert("if".to_string(), serde_json::json!({"type": "null"}));
                map.insert("else".to_string(), value);
            }
        }
        _ => {}
    }
}

/// The schemas of an enum's data variants by key, when every branch is a variant: an
/// object of exactly one required key, or a string variant (which holds no number).
fn variants_by_key(branches: &[Value]) -> Option<serde_json::Map<String, Value>> {
    let mut variants = serde_json::Map::new();
    for branch in branches {
        let branch = branch.as_object()?;
        let is = |key: &str, value: &str| branch.get(key).and_then(Value::as_str) == Some(value);
        let plain = |allowed: &[&str]| {
            branch
                .keys()
                .all(|k| allowed.contains(&k.as_str()) || k == "description" || k == "title")
        };
        if is("type", "string") && plain(&["type", "enum", "const"]) {
            continue;
        }
        let required = branch.get("required")?.as_array()?;
        let properties = branch.get("properties")?.as_object()?;
        let [Value::String(key)] = required.as_slice() else {
            return None;
        };
        if !is("type", "object")
            || properties.len() != 1
            || branch.get("additionalProperties") != Some(&Value::Bool(false))
            || !plain(&["type", "required", "properties", "additionalProperties"])
        {
            return None;
        }
        variants.insert(key.clone(), properties.get(key)?.clone());
    }
    Some(variants)
}

/// The value's schema of an option (`anyOf` a value and null).
fn value_or_null(branches: &[Value]) -> Option<Value> {
    let [a, b] = branches else {
        return None;
    };
    let null = serde_json::json!({"type": "null"});
    match (a == &null, b == &null) {
        (false, true) => Some(a.clone()),
        (true, false) => Some(b.clone()),
        _ => None,
    }
}

/// The numbers a kind's schema accepts wherever a number may stand, beyond what the
/// Rust types already enforce: from the largest explicit minimum to the smallest
/// explicit maximum. `None` when the schema says something else that the types do not
/// (a pattern, a length, a list size other than a tuple's): then every file of the kind
/// is validated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    pub min: f64,
    pub max: f64,
}

impl Bounds {
    /// The bounds of `schema` (a generated schema as JSON).
    pub fn of(schema: &Value) -> Option<Bounds> {
        let mut bounds = Bounds {
            min: f64::NEG_INFINITY,
            max: f64::INFINITY,
        };
        bounds.visit(schema).then_some(bounds)
    }

    /// Whether `n` is a finite number within the bounds.
    pub fn contains(&self, n: f64) -> bool {
        n.is_finite() && self.min <= n && n <= self.max
    }

    /// Walks one schema node; false on a keyword the shortcut cannot vouch for.
    fn visit(&mut self, node: &Value) -> bool {
        let Value::Object(keywords) = node else {
            // `true`/`false` schemas.
            return node.is_boolean();
        };
        let implied = integer_range(keywords.get("format").and_then(Value::as_str));
        let tuple = keywords
            .get("prefixItems")
            .and_then(Value::as_array)
            .map(Vec::len);
        for (keyword, value) in keywords {
            let ok = match keyword.as_str() {
                "$schema" | "$id" | "$ref" | "$comment" | "title" | "description" | "default"
                | "examples" | "type" | "required" | "enum" | "const" | "format" | "deprecated"
                | "readOnly" | "writeOnly" => true,
                "properties" | "$defs" | "definitions" => value
                    .as_object()
                    .is_some_and(|m| m.values().all(|v| self.visit(v))),
                "items" | "additionalProperties" => self.visit(value),
                "prefixItems" | "oneOf" | "anyOf" | "allOf" => value
                    .as_array()
                    .is_some_and(|list| list.iter().all(|v| self.visit(v))),
                // A tuple's size, which the typed parse enforces.
                "minItems" | "maxItems" => value
                    .as_u64()
                    .is_some_and(|n| tuple.is_some_and(|len| len as u64 == n)),
                "minimum" => match value.as_f64() {
                    Some(n) if implied.is_some_and(|(lo, _)| lo == n) => true,
                    Some(n) => {
                        self.min = self.min.max(n);
                        true
                    }
                    None => false,
                },
                "maximum" => match value.as_f64() {
                    Some(n) if implied.is_some_and(|(_, hi)| hi == n) => true,
                    Some(n) => {
                        self.max = self.max.min(n);
                        true
                    }
                    None => false,
                },
                _ => false,
            };
            if !ok {
                return false;
            }
        }
        true
    }
}

/// The range a schema `format` of an integer type implies (schemars writes it with the
/// type's bounds as `minimum`/`maximum`).
fn integer_range(format: Option<&str>) -> Option<(f64, f64)> {
    Some(match format? {
        "uint8" => (0.0, f64::from(u8::MAX)),
        "uint16" => (0.0, f64::from(u16::MAX)),
        "uint32" => (0.0, f64::from(u32::MAX)),
        "uint64" | "uint" => (0.0, u64::MAX as f64),
        "int8" => (f64::from(i8::MIN), f64::from(i8::MAX)),
        "int16" => (f64::from(i16::MIN), f64::from(i16::MAX)),
        "int32" | "int" => (f64::from(i32::MIN), f64::from(i32::MAX)),
        "int64" => (i64::MIN as f64, i64::MAX as f64),
        _ => return None,
    })
}

/// Each kind's [`Bounds`], worked out from its committed schema (`schema/`) ahead of
/// time, since reading a schema costs more than checking a small file. The test
/// `bounds_are_the_committed_schemas_own` keeps them equal to [`Bounds::of`] of the
/// schema, which the `generated` test keeps equal to the model.
fn bounds(kind: FileKind) -> Option<Bounds> {
    Some(match kind {
        // Counts and turns of at least 1; every other number's range is its type's.
        FileKind::Scenario | FileKind::Counters => Bounds {
            min: 1.0,
            max: f64::INFINITY,
        },
        FileKind::Map => Bounds {
            min: f64::NEG_INFINITY,
            max: f64::INFINITY,
        },
        // Rates from 0 to 1 and factors from 2: no number satisfies both, so every
        // system file is validated.
        FileKind::System => Bounds { min: 2.0, max: 1.0 },
    })
}

/// Whether a file of `kind`, which the typed parse accepted, may break its schema: some
/// number in it lies outside the kind's [`Bounds`] or is not plain decimal, or some word
/// stands for a float that is not finite (`inf`, `NaN`). False means the schema step
/// would find nothing.
pub fn may_break(kind: FileKind, tree: &Tree) -> bool {
    let Some(bounds) = bounds(kind) else {
        return true;
    };
    tree.numbers_and_words().any(|(kind, text)| match kind {
        TokenKind::Number => {
            let n = match small_integer(text) {
                Some(n) => Ok(n),
                None if text.contains('_') => text.replace('_', "").parse::<f64>(),
                None => text.parse::<f64>(),
            };
            n.map_or(true, |n| !bounds.contains(n))
        }
        _ => {
            let word = text.trim_start_matches(['+', '-']);
            word.eq_ignore_ascii_case("inf") || word.eq_ignore_ascii_case("nan")
        }
    })
}

/// A number written as up to 15 decimal digits, exactly (most numbers in data files):
/// read without the float parser.
fn small_integer(text: &str) -> Option<f64> {
    let digits = text.as_bytes();
    if digits.is_empty() || digits.len() > 15 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits
        .iter()
        .fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    Some(n as f64)
}

pub fn check_document(value: &Value, kind: FileKind, sink: &mut Sink) {
    check_with(validator(kind), value, sink);
}

fn check_with(validator: Option<&Validator>, value: &Value, sink: &mut Sink) {
    let Some(validator) = validator else {
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

/// The schema step on its own, without the shortcut of [`may_break`]: what the JSON
/// Schema of its kind says about a loaded file (nothing when it did not parse).
pub fn schema_diagnostics(loaded: &super::Loaded) -> Vec<crate::Diagnostic> {
    let mut sink = Sink::new(&loaded.file);
    if let Some(doc) = &loaded.doc {
        check_document(&doc.to_json(), doc.kind(), &mut sink);
    }
    sink.finish()
}

/// [`schema_diagnostics`] with the kind's schema as written, every alternative tried:
/// what the rewritten schema must match (the test `schema_shortcut` holds them equal).
pub fn schema_diagnostics_as_written(loaded: &super::Loaded) -> Vec<crate::Diagnostic> {
    let mut sink = Sink::new(&loaded.file);
    if let Some(doc) = &loaded.doc {
        check_with(validator_as_written(doc.kind()), &doc.to_json(), &mut sink);
    }
    sink.finish()
}

/// A JSON value described for a message: `the string "one"`, `the number 2` (schema
/// errors of files and of hook parameters).
pub fn found(value: &Value) -> String {
    match value {
        Value::Null => "nothing (null)".to_string(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {}", Value::String(s.clone())),
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "a map".to_string(),
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
    let found = found(e.instance());
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
    fn small_integers_read_as_the_float_parser_reads_them() {
        for text in ["0", "1", "007", "255", "65536", "999999999999999"] {
            assert_eq!(small_integer(text), text.parse::<f64>().ok(), "{text}");
        }
        for text in [
            "",
            "1.5",
            "-1",
            "+1",
            "1e3",
            "0x10",
            "1_000",
            "1000000000000000",
        ] {
            assert_eq!(small_integer(text), None, "{text}");
        }
    }

    #[test]
    fn bounds_are_the_committed_schemas_own() {
        for kind in FileKind::ALL {
            assert_eq!(bounds(kind), Bounds::of(&schema_of(kind)), "{kind:?}");
        }
    }

    /// Every alternative of the committed schemas is one the rewrite knows, so the
    /// validator of typed documents tries none of them.
    #[test]
    fn typed_documents_are_validated_without_alternatives() {
        let mut alternatives = 0;
        for kind in FileKind::ALL {
            let written = schema_of(kind).to_string();
            let rewritten = for_typed_documents(schema_of(kind)).to_string();
            alternatives += written.matches("\"oneOf\"").count();
            alternatives += written.matches("\"anyOf\"").count();
            for keyword in ["\"oneOf\"", "\"anyOf\""] {
                assert!(!rewritten.contains(keyword), "{kind:?}: {keyword} is left");
            }
        }
        assert!(alternatives > 100, "alternatives written: {alternatives}");
        // A shape it does not know is left as written.
        let untagged = serde_json::json!({"oneOf": [{"type": "integer"}, {"type": "object"}]});
        assert_eq!(for_typed_documents(untagged.clone()), untagged);
    }

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
