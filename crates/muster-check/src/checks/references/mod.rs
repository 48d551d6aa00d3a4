//! References: every name a file uses must name something that exists.

pub mod duplicate_id;
pub mod outside_root;
pub mod unknown_army;
pub mod unknown_counter;
pub mod unknown_feature;
pub mod unknown_file;
pub mod unknown_side;
pub mod unknown_terrain;
pub mod unknown_unit_kind;

use muster_model::FileKind;

use crate::load::Document;

/// The file references of a document: (pointer, reference, kind expected).
pub(crate) fn file_refs(doc: &Document) -> Vec<(&'static str, &str, FileKind)> {
    match doc {
        Document::Scenario(s) => {
            let mut refs = vec![
                ("/system", s.system.as_str(), FileKind::System),
                ("/map", s.map.as_str(), FileKind::Map),
            ];
            if let Some(counters) = &s.counters {
                refs.push(("/counters", counters.as_str(), FileKind::Counters));
            }
            refs
        }
        Document::Map(m) => vec![("/system", m.system.as_str(), FileKind::System)],
        Document::Counters(c) => vec![("/system", c.system.as_str(), FileKind::System)],
        Document::System(_) => Vec::new(),
    }
}
