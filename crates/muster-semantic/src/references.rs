//! The files a document names: system, counter sheet, map.

use muster_model::FileKind;

use muster_db::load::Document;
use muster_db::place::Place;

/// The file references of a document: (place, reference, kind expected).
pub fn file_refs(doc: &Document) -> Vec<(Place, &str, FileKind)> {
    let system = || Place::top("system");
    match doc {
        Document::Scenario(s) => {
            let mut refs = vec![
                (system(), s.system.as_str(), FileKind::System),
                (Place::top("map"), s.map.as_str(), FileKind::Map),
            ];
            if let Some(counters) = &s.counters {
                refs.push((
                    Place::top("counters"),
                    counters.as_str(),
                    FileKind::Counters,
                ));
            }
            refs
        }
        Document::Map(m) => vec![(system(), m.system.as_str(), FileKind::System)],
        Document::Counters(c) => vec![(system(), c.system.as_str(), FileKind::System)],
        Document::System(_) => Vec::new(),
    }
}
