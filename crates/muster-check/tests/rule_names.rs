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

/// How two rule conditions relate (`muster_semantic::rules::vocab::relation`), on the
/// PRESTAGS system, whose kinds have classes: the same once reordered; an exception
/// (more members, a kind of the other's class, a member of the other's `Any`); apart
/// (two weathers, two kinds, an `Any` apart in every member, a condition and its
/// negation); or overlapping.
#[test]
fn conditions_relate_as_same_narrower_apart_or_overlapping() {
    use muster_model::vocab::Condition as C;
    use muster_semantic::rules::vocab::{Relation, relation};
    let db = bundled();
    let system = (db.files.iter())
        .find_map(|f| match &f.doc {
            Some(Document::System(s)) if s.id == "prestags" => Some(s),
            _ => None,
        })
        .unwrap();
    let troop = |t: &str| C::Troop(t.to_string());
    let weather = |w: &str| C::Weather(w.to_string());
    let all = |list: Vec<C>| C::All(list);
    let cases = [
        (
            all(vec![troop("MI"), C::Attacking]),
            all(vec![C::Attacking, troop("MI")]),
            Relation::Same,
        ),
        (
            troop("MI"),
            all(vec![troop("MI"), C::Defending]),
            Relation::Narrower,
        ),
        // MI is a class A kind.
        (troop("A"), troop("MI"), Relation::Narrower),
        (
            C::Any(vec![troop("MI"), troop("MS")]),
            all(vec![troop("MS"), C::Attacking]),
            Relation::Narrower,
        ),
        (weather("rain"), weather("fair"), Relation::Apart),
        (troop("MI"), troop("MS"), Relation::Apart),
        (
            C::Any(vec![troop("MI"), troop("MS")]),
            troop("HC"),
            Relation::Apart,
        ),
        (
            C::AdjacentToEnemy,
            C::Not(Box::new(C::AdjacentToEnemy)),
            Relation::Apart,
        ),
        (troop("MI"), weather("rain"), Relation::Overlapping),
        // Only Viking fleets sail (Excl 3.12).
        (C::Moving("sail".into()), troop("MI"), Relation::Apart),
        (C::Moving("sail".into()), troop("VF"), Relation::Overlapping),
        (troop("A"), C::Attacking, Relation::Overlapping),
    ];
    for (a, b, want) in cases {
        assert_eq!(relation(Some(&a), Some(&b), system), want, "{a:?} / {b:?}");
        assert_eq!(relation(Some(&b), Some(&a), system), want, "{b:?} / {a:?}");
    }
    // A missing condition always holds: anything narrower is an exception to it.
    assert_eq!(
        relation(None, Some(&troop("MI")), system),
        Relation::Narrower
    );
}

/// A tag names kinds as a class does: known as a troop name, covering the kinds that
/// carry it, an exception to none of the others and apart from the kinds without it.
#[test]
fn a_tag_names_the_kinds_that_carry_it() {
    use muster_model::vocab::Condition as C;
    use muster_semantic::rules::vocab::{Relation, relation};
    use muster_semantic::rules::{kinds_named, tags, troop_known};
    let db = bundled();
    let mut system = (db.files.iter())
        .find_map(|f| match &f.doc {
            Some(Document::System(s)) if s.id == "prestags" => Some(s.clone()),
            _ => None,
        })
        .unwrap();
    assert!(tags(&system).is_empty() && !troop_known(&system, "shock"));
    for k in system
        .unit_kinds
        .iter_mut()
        .filter(|k| ["MI", "HC"].contains(&k.id.as_str()))
    {
        k.tags.push("shock".into());
    }
    assert_eq!(tags(&system), ["shock"]);
    assert!(troop_known(&system, "shock") && !troop_known(&system, "shokc"));
    let named: Vec<&str> = kinds_named(&system, "shock")
        .iter()
        .map(|k| k.id.as_str())
        .collect();
    assert_eq!(named, ["MI", "HC"]);
    let troop = |t: &str| C::Troop(t.to_string());
    assert_eq!(
        relation(Some(&troop("shock")), Some(&troop("MI")), &system),
        Relation::Narrower
    );
    assert_eq!(
        relation(Some(&troop("shock")), Some(&troop("MS")), &system),
        Relation::Apart
    );
}
