use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;
use muster_semantic::hooks::{RefKind, SideRule};

declare_check! {
    /// ## What it does
    /// Checks that the counters a special rule names belong to the side the rule is
    /// about: all of one side where the rule is one side's (`evasion`, `charge-bonus`),
    /// a neutral unit for `neutral-activation`. `muster explain HOOK` says which.
    ///
    /// ## Why is this bad?
    /// An enemy unit in a list of one army's units gives that army's rule to the other
    /// side; it is almost always a copied or mistyped id.
    ///
    /// ## Example
    /// ```ron
    /// (hook: "evasion", params: {"counters": ["red-cavalry", "viking"], "roll_at_least": 5, "retreat_hexes": [1, 2]}, text: "the red horse evades"),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (hook: "evasion", params: {"counters": ["red-cavalry"], "roll_at_least": 5, "retreat_hexes": [1, 2]}, text: "the red horse evades"),
    /// ```
    pub META = ("hooks::counter-wrong-side", Error, "a special rule naming a counter of the wrong side");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let side_index = |id: &str| cx.side_of(id);
    let fielded_by = super::Fielded::of(cx);
    for hook in cx.hooks() {
        let id = hook.spec.id;
        // The first counter of a one-side list decides the side.
        let mut one_side: Option<(usize, Place, &str)> = None;
        for r in hook.references() {
            let RefKind::Counter { id: counter, side } = r.kind else {
                continue;
            };
            let fielded = fielded_by.sides(counter);
            if fielded.is_empty() {
                continue;
            }
            // Made only for what is reported or kept: a hook may list many counters.
            let place = || hook.place_of(&r);
            let sides_of = |f: &[Option<usize>]| {
                f.iter()
                    .map(|s| cx.side_name(*s))
                    .collect::<Vec<_>>()
                    .join(" and ")
            };
            match side {
                SideRule::Any => {}
                SideRule::Neutral => {
                    if !fielded.contains(&None) {
                        sink.push(
                            Report::new(
                                &META,
                                place(),
                                format!(
                                    "hook `{id}` is about a neutral unit, but `{counter}` is fielded by side {}",
                                    sides_of(fielded)
                                ),
                            )
                            .help("name one of the scenario's `neutrals`"),
                        );
                    }
                }
                SideRule::Of(side_id) => {
                    let Some(wanted) = side_index(side_id) else {
                        continue;
                    };
                    if !fielded.contains(&Some(wanted)) {
                        sink.push(
                            Report::new(
                                &META,
                                place(),
                                format!(
                                    "hook `{id}` is about side `{side_id}`, but `{counter}` is fielded by {}",
                                    sides_of(fielded)
                                ),
                            )
                            .help(format!("name a unit of side `{side_id}`")),
                        );
                    }
                }
                SideRule::OneSide => {
                    let Some(Some(first_side)) = fielded.first().copied() else {
                        continue;
                    };
                    match &one_side {
                        None => one_side = Some((first_side, place(), counter)),
                        Some((side, first_place, first)) => {
                            if !fielded.contains(&Some(*side)) {
                                sink.push(
                                    Report::new(
                                        &META,
                                        place(),
                                        format!(
                                            "hook `{id}` is about one side's units, but `{counter}` is fielded by {} and `{first}` by {}",
                                            sides_of(fielded),
                                            cx.side_name(Some(*side))
                                        ),
                                    )
                                    .label(
                                        Loc::Value(first_place.clone()),
                                        format!("`{first}` is {}'s", cx.side_name(Some(*side))),
                                    )
                                    .help("list only units of one side, or write one rule per side"),
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
