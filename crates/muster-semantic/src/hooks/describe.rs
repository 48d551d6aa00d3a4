//! A hook described for people (`muster explain HOOK`): its parameters in words, and
//! what the parameters of its example name.

use serde_json::Value;

use super::{RefKind, RegisteredHook, SideRule};

fn type_words(schema: &Value) -> String {
    let one = |t: &str, s: &Value| match t {
        "integer" => "a whole number".to_string(),
        "number" => "a number".to_string(),
        "string" => "a text".to_string(),
        "boolean" => "`true` or `false`".to_string(),
        "array" => match s.get("items") {
            Some(items) => format!("a list of {}", plural(&type_words(items))),
            None => "a list".to_string(),
        },
        "object" => "a map".to_string(),
        other => other.to_string(),
    };
    let mut words = match schema.get("type") {
        Some(Value::String(t)) => one(t, schema),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .map(|t| one(t, schema))
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "a value".to_string(),
    };
    match (schema.get("minimum"), schema.get("maximum")) {
        (Some(min), Some(max)) if max.as_u64() != Some(255) && max.as_u64() != Some(65535) => {
            words.push_str(&format!(" from {min} to {max}"))
        }
        (Some(min), _) if min.as_u64().is_some_and(|m| m > 0) => {
            words.push_str(&format!(", at least {min}"))
        }
        _ => {}
    }
    words
}

fn plural(words: &str) -> String {
    match words {
        "a whole number" => "whole numbers".to_string(),
        "a number" => "numbers".to_string(),
        "a text" => "texts".to_string(),
        other => other.to_string(),
    }
}

impl RegisteredHook {
    /// One line per parameter: name, type, whether it is required, and its doc line.
    pub fn parameters_in_words(&self) -> Vec<String> {
        let schema = self.schema();
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let Some(props) = schema.get("properties").and_then(Value::as_object) else {
            return Vec::new();
        };
        props
            .iter()
            .map(|(name, p)| {
                let need = if required.contains(&name.as_str()) {
                    "required"
                } else {
                    "optional"
                };
                let doc = p
                    .get("description")
                    .and_then(Value::as_str)
                    .map(|d| format!(": {d}"))
                    .unwrap_or_default();
                format!("`{name}` ({}, {need}){doc}", type_words(p))
            })
            .collect()
    }

    /// The example as a parsed special rule.
    pub fn example_rule(&self) -> Option<muster_model::scenario::SpecialRule> {
        muster_syntax::from_str(self.example, muster_syntax::Dialect::Ron).ok()
    }

    /// What the parameters name, one line per parameter: read from parameters made up
    /// from the schema with every list holding one item, so optional lists count too.
    pub fn references_in_words(&self) -> Vec<String> {
        let schema = self.schema();
        let Ok(hook) = self.parse(&sample(&schema)) else {
            return Vec::new();
        };
        let mut out: Vec<String> = Vec::new();
        for r in hook.references() {
            let key = r.key.to_string();
            let what = match r.kind {
                RefKind::Counter { side, .. } => match side {
                    SideRule::Any => "counters the scenario fields".to_string(),
                    SideRule::Neutral => "a neutral counter of the scenario".to_string(),
                    SideRule::OneSide => "counters of one side of the scenario".to_string(),
                    SideRule::Of(s) => format!("counters of side `{s}`"),
                },
                RefKind::Side(_) => "a side of the scenario".to_string(),
                RefKind::Terrain(_) => "terrain of the system".to_string(),
                RefKind::Hex(_) => "hexes on the scenario's map".to_string(),
                RefKind::UnitKind(_) => "unit kinds of the system".to_string(),
            };
            let line = format!("`{key}`: {what}");
            if !out.contains(&line) {
                out.push(line);
            }
        }
        out
    }
}

/// A value of the schema's shape: one item in every list, every optional field given.
fn sample(schema: &Value) -> Value {
    let kind = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ => "null",
    };
    match kind {
        "object" => Value::Object(
            schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.iter().map(|(k, v)| (k.clone(), sample(v))).collect())
                .unwrap_or_default(),
        ),
        "array" => Value::Array(vec![sample(schema.get("items").unwrap_or(&Value::Null))]),
        "string" => Value::String("x".to_string()),
        "integer" | "number" => schema.get("minimum").cloned().unwrap_or(Value::from(1)),
        "boolean" => Value::Bool(false),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::super::HOOKS;
    use super::*;

    #[test]
    fn every_example_parses_and_every_schema_has_a_sample() {
        for h in HOOKS {
            let rule = h.example_rule().unwrap_or_else(|| panic!("{}", h.id));
            assert_eq!(rule.hook, h.id);
            assert!(h.parse(&rule.params).is_ok(), "{}", h.id);
            assert!(h.parse(&sample(&h.schema())).is_ok(), "{}", h.id);
            assert_eq!(h.parameters_in_words().len(), h.parameter_names().len());
        }
    }
}
