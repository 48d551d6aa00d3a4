use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that a setup group the owner picks from (`choose: N`) picks at least one
    /// unit and no more than the group lists (each line's `count` copies counted).
    ///
    /// ## Why is this bad?
    /// Picking none sets nothing up, and picking more units than are listed cannot be
    /// done: the line was mistyped or a unit is missing from the list.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "viking-raider"), (counter: "blue-cavalry")], at: Hexes(["0611", "0613", "0614"]), choose: 3),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "viking-raider"), (counter: "blue-cavalry")], at: Hexes(["0611"]), choose: 1),
    /// ```
    pub META = ("setup::choose-out-of-range", Error, "a group picking none of its units, or more than it lists");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for g in cx.groups() {
        let Some(n) = g.choose else {
            continue;
        };
        let listed = g.units.len();
        let n = usize::from(n);
        if (1..=listed).contains(&n) {
            continue;
        }
        let (message, help) = if n == 0 {
            (
                "the owner picks 0 units of this group".to_string(),
                "pick at least one, or remove the group".to_string(),
            )
        } else {
            (
                format!("the owner picks {n} units but the group lists {listed}"),
                format!("pick at most {listed}, or list the missing units"),
            )
        };
        sink.push(
            Report::new(&META, g.place.field("choose"), message)
                .label(
                    Loc::Value(g.place.field("units")),
                    format!("{listed} unit{} listed", if listed == 1 { "" } else { "s" }),
                )
                .help(help),
        );
    }
}
