//! The one walk over the names a system's rules refer to (`muster_semantic::rules::names`)
//! names each by the place it is written at: over every bundled system, each reference's
//! place resolves exactly, to the quoted name itself (or its `Some(...)`). A place that
//! restated a field name wrongly would resolve to the nearest enclosing value, or to another string.

use muster_testkit::db::bundled;
use std::collections::BTreeSet;

use muster_db::load::Document;
use muster_semantic::rules::names::{NameKind, name_refs, resolves};

#[test]
fn every_name_of_the_bundled_rules_is_found_at_its_place_and_resolves() {
    let db = bundled();
    let mut kinds = BTreeSet::new();
    let mut systems = 0;
    for loaded in &db.files {
        let Some(Document::System(system)) = &loaded.doc else {
            continue;
        };
        systems += 1;
        let file = &loaded.file;
        for name in name_refs(system) {
            let found = file
                .find(&name.at)
                .unwrap_or_else(|| panic!("{}: no span for {}", file.name, name.at));
            assert!(found.exact, "{}: {} is not exact", file.name, name.at);
            let text = &file.text[found.node.range()];
            // An optional name is found at its `Some(...)`, as its reports span it.
            let quoted = format!("\"{}\"", name.name);
            assert!(
                text == quoted || text == format!("Some({quoted})"),
                "{}: {} is at {text}",
                file.name,
                name.at
            );
            // The bundled systems are valid: `rules::unknown-name` reports none of them.
            assert!(resolves(system, &name), "{}: {name:?}", file.name);
            kinds.insert(format!("{:?}", name.kind));
        }
    }
    assert_eq!(systems, 4, "the bundled systems");
    for kind in [
        NameKind::Troop,
        NameKind::Level,
        NameKind::Table,
        NameKind::Terrain,
        NameKind::Code,
        NameKind::Elevation,
    ] {
        assert!(
            kinds.contains(&format!("{kind:?}")),
            "no {kind:?} in {kinds:?}"
        );
    }
}
