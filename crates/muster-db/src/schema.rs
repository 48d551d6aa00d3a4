//! JSON Schemas generated from the model: what the loader validates documents against
//! (`load::schema`), as committed under `schema/`.

use muster_model::FileKind;
use schemars::schema_for;
use serde_json::Value;

/// The JSON Schema of a file kind, as committed under `schema/`, read from the binary
/// rather than generated at run time (the `generated` test keeps the committed files
/// equal to [`generate`]'s output).
pub fn schema_of(kind: FileKind) -> Value {
    let committed = match kind {
        FileKind::System => include_str!("../../../schema/system.schema.json"),
        FileKind::Counters => include_str!("../../../schema/counters.schema.json"),
        FileKind::Map => include_str!("../../../schema/map.schema.json"),
        FileKind::Scenario => include_str!("../../../schema/scenario.schema.json"),
    };
    serde_json::from_str(committed).unwrap_or_else(|_| generate(kind))
}

/// The JSON Schema of a file kind, generated from the model.
pub fn generate(kind: FileKind) -> Value {
    let schema = match kind {
        FileKind::System => schema_for!(muster_model::system::RulesSystem),
        FileKind::Counters => schema_for!(muster_model::counters::CounterSheet),
        FileKind::Map => schema_for!(muster_model::map::MapSource),
        FileKind::Scenario => schema_for!(muster_model::scenario::Scenario),
    };
    schema.to_value()
}

/// The schema of compiled terrain tables (`schema/terrain-table.schema.json`).
pub fn terrain_table_schema() -> Value {
    schema_for!(muster_model::table::TerrainTable).to_value()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schemas_in_the_binary_are_the_generated_ones() {
        for kind in FileKind::ALL {
            let mut committed = schema_of(kind);
            let comment = committed.as_object_mut().and_then(|m| m.remove("$comment"));
            assert!(comment.is_some(), "{kind:?}: not read from schema/");
            assert_eq!(committed, generate(kind), "{kind:?}");
        }
    }

    #[test]
    fn every_kind_has_a_schema_that_compiles() {
        for kind in FileKind::ALL {
            assert!(
                jsonschema::validator_for(&schema_of(kind)).is_ok(),
                "{kind:?}"
            );
        }
        assert!(jsonschema::validator_for(&terrain_table_schema()).is_ok());
    }
}
