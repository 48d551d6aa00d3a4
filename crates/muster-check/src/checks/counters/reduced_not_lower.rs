use muster_db::declare_check;
use muster_db::load::Document;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that a two-step counter's reduced side is weaker than its full side.
    ///
    /// ## Why is this bad?
    /// The reduced side shows a unit that has lost a step; a value at or above the full
    /// strength is almost always the two values swapped.
    ///
    /// ## Example
    /// ```ron
    /// (id: "saxe", name: "Saxe", kind: "infantry", strength: 2, reduced: 3, movement: 2.0),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "saxe", name: "Saxe", kind: "infantry", strength: 3, reduced: 2, movement: 2.0),
    /// ```
    pub META = ("counters::reduced-not-lower", Error, "a reduced side at least as strong as the full side");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Document::Counters(sheet) = cx.doc else {
        return;
    };
    for (i, army) in sheet.armies.iter().enumerate() {
        for (j, c) in army.counters.iter().enumerate() {
            if let Some(reduced) = c.reduced
                && reduced >= c.strength
            {
                let base = Place::army_counter(i, j);
                sink.push(
                    Report::new(
                        &META,
                        base.field("reduced"),
                        format!(
                            "counter `{}` is {} reduced but {} at full strength",
                            c.id, reduced, c.strength
                        ),
                    )
                    .label(Loc::Value(base.field("strength")), "full strength")
                    .help("swap the two values, or drop `reduced` for a one-step counter"),
                );
            }
        }
    }
}
