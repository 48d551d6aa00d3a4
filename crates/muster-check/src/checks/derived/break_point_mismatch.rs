use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Recomputes an army's break point (Chanson de Geste): one point for every base of the army, the camp's bases included and leaders not counted, plus the scenario's listed adjustments (a Crusader bonus, say), and compares the total with the printed value.
    ///
    /// ## Why is this bad?
    /// The break point decides when the army flees; a wrong figure changes the battle.
    ///
    /// ## Example
    /// ```ron
    /// camp: (area: Rect(x: 40.0, y: 1.0, w: 6.0, h: 4.0), transport_bases: 1),
    /// break_point: (printed: 11), // 11 bases, the camp's base left out
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// camp: (area: Rect(x: 40.0, y: 1.0, w: 6.0, h: 4.0), transport_bases: 1),
    /// break_point: (printed: 12), // 11 bases and 1 camp base
    /// ```
    pub META = ("derived::break-point-mismatch", Error, "a printed break point that differs from the computed one");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for side in cx.table_sides() {
        let Some(printed) = &side.forces.break_point else {
            continue;
        };
        let Some(total) = muster_semantic::derived::break_point(cx, side.forces) else {
            return;
        };
        if total != i64::from(printed.printed) {
            sink.push(
                Report::new(&META, side.place.field("break_point").field("printed"), format!("printed break point {} but the army adds up to {total}", printed.printed))
                    .note("one point per base, camp bases included, leaders not counted, plus adjustments")
                    .help("check the unit sizes and the adjustments, then the printed figure"),
            );
        }
    }
}
