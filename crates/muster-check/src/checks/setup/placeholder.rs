use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;
use muster_semantic::placeholder::marks;

declare_check! {
    /// ## What it does
    /// Reports every setup line marked with a comment that starts `// muster: placeholder`. `muster new scenario`
    /// writes one such line per counter, on a hex of its own, so that the skeleton
    /// validates; the mark says that the hexes are the generator's, not the battle's.
    /// The mark applies to its own line when data comes before it, else to the next line
    /// with data (like `// muster: allow(...)`). The warning goes away when the comment is
    /// deleted.
    ///
    /// ## Why is this bad?
    /// A placeholder hex looks like any other: a scenario published with them validates
    /// and plays, with every unit in the wrong place.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0202", "0302"])), // muster: placeholder
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    pub META = ("setup::placeholder", Warning, "a setup line still at the placeholder hexes of `muster new`");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let file = &cx.file.loaded.file;
    let marks = marks(file);
    if marks.is_empty() {
        return;
    }
    for g in cx.groups() {
        let Some(found) = file.find(&g.place) else {
            continue;
        };
        let range = found.node.range();
        let lines = file.line_col(range.start).line..=file.line_col(range.end).line;
        // The marks are in order of their lines: the first at or after the group's start.
        let first = marks.partition_point(|m| m.line < *lines.start());
        let Some(mark) = marks.get(first).filter(|m| lines.contains(&m.line)) else {
            continue;
        };
        let counters: Vec<String> =
            g.units
                .iter()
                .map(|u| format!("`{}`", u.counter_id))
                .fold(Vec::new(), |mut acc, c| {
                    if !acc.contains(&c) {
                        acc.push(c);
                    }
                    acc
                });
        let hexes: Vec<String> = g.hexes.iter().map(|(h, _)| format!("`{h}`")).collect();
        let at = if hexes.is_empty() {
            String::new()
        } else {
            format!(" {}", hexes.join(", "))
        };
        sink.push(
            Report::new(
                &META,
                g.place.field("at"),
                format!(
                    "{} still set{} up at the placeholder hex{}{at}",
                    counters.join(", "),
                    if counters.len() == 1 { "s" } else { "" },
                    if hexes.len() == 1 { "" } else { "es" }
                ),
            )
            .label(Loc::Span(mark.span.clone()), "marked here")
            .help("put the hexes the rulebook gives, then delete the `// muster: placeholder` comment")
            .note("`muster new scenario` puts every counter on a hex of its own so that the skeleton validates; those hexes say nothing about the battle"),
        );
    }
}
