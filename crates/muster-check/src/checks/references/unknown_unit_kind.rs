use muster_model::scenario::Placement;

use muster_db::declare_check;
use muster_db::load::Document;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_db::suggest::did_you_mean;
use muster_semantic::FileCx;
use muster_semantic::hooks::RefKind;

declare_check! {
    /// ## What it does
    /// Checks that unit kinds named by counters, by "on a unit of this kind" placements
    /// and by special rules are kinds the system defines.
    ///
    /// ## Why is this bad?
    /// The kind decides stacking, charges and fire; an unknown kind leaves the unit
    /// without rules.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "charles")], at: OnUnit(kind: "cavalery")),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "charles")], at: OnUnit(kind: "cavalry")),
    /// ```
    pub META = ("references::unknown-unit-kind", Error, "a unit kind the system does not define");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Some(system) = cx.system else { return };
    let known: Vec<&str> = system.unit_kinds.iter().map(|k| k.id.as_str()).collect();
    let mut check = |place: Place, kind: &str| {
        if !known.contains(&kind) {
            sink.push(
                Report::new(
                    &META,
                    place,
                    format!("unknown unit kind `{kind}` in system `{}`", system.id),
                )
                .help_opt(did_you_mean(kind, known.iter().copied()).or_else(
                    || {
                        Some(format!(
                            "unit kinds of system `{}`: {}",
                            system.id,
                            known.join(", ")
                        ))
                    },
                )),
            );
        }
    };
    match cx.doc {
        Document::System(sys) => {
            if let muster_model::system::GridKind::Table {
                features,
                facing_change,
            } = &sys.grid
            {
                for (i, f) in features.iter().enumerate() {
                    let base = Place::table_grid().field("features").index(i);
                    for (k, troop) in f.forbidden.iter().enumerate() {
                        check(base.field("forbidden").index(k), troop);
                    }
                    for (k, t) in f.troop_factors.iter().enumerate() {
                        check(
                            base.field("troop_factors").index(k).field("troop"),
                            &t.troop,
                        );
                    }
                }
                if let Some(fc) = facing_change {
                    for (k, troop) in fc.first_free.iter().enumerate() {
                        check(
                            Place::table_grid()
                                .field("facing_change")
                                .field("first_free")
                                .index(k),
                            troop,
                        );
                    }
                    for (k, troop) in fc.all_free.iter().enumerate() {
                        check(
                            Place::table_grid()
                                .field("facing_change")
                                .field("all_free")
                                .index(k),
                            troop,
                        );
                    }
                }
            }
        }
        Document::Counters(sheet) => {
            for (i, army) in sheet.armies.iter().enumerate() {
                for (j, c) in army.counters.iter().enumerate() {
                    check(Place::army_counter(i, j).field("kind"), &c.kind);
                }
            }
        }
        Document::Scenario(s) => {
            for (i, side) in s.sides.iter().enumerate() {
                let muster_model::scenario::Forces::Placed { setup, .. } = &side.forces else {
                    continue;
                };
                for (j, g) in setup.iter().enumerate() {
                    if let Placement::OnUnit {
                        kind: Some(kind), ..
                    } = &g.at
                    {
                        check(
                            Place::setup_group(i, j)
                                .field("at")
                                .variant("OnUnit")
                                .field("kind"),
                            kind,
                        );
                    }
                }
            }
        }
        _ => {}
    }
    for hook in &cx.hooks {
        for r in hook.references() {
            if let RefKind::UnitKind(kind) = r.kind {
                check(hook.place_of(&r), kind);
            }
        }
    }
}
