use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Counts the units of each hex of a sample deployment, leaving out the classes the
    /// system does not count (leaders), and compares with the side's stacking limit. A hex
    /// holding only kinds that a `stacking-override` rule names may hold up to that rule's
    /// limit.
    ///
    /// ## Why is this bad?
    /// The stack breaks the scenario's stacking rule; a setup built from the sample would
    /// be illegal.
    ///
    /// ## Example
    /// ```ron
    /// stacking_limit: 2,
    /// (hex: "0405", units: [(kind: "MI", count: 3), (kind: "3L", count: 1)]), // the leader is not counted
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// stacking_limit: 2,
    /// (hex: "0405", units: [(kind: "MI", count: 2), (kind: "3L", count: 1)]),
    /// ```
    pub META = ("sample::over-stacked", Error, "a sample deployment hex with more units than the stacking limit");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for side in cx.zoned_sides() {
        let default = side.forces.stacking_limit;
        for (k, stack) in side.forces.sample.iter().enumerate() {
            // One pass over the stack's units that count for stacking: how many there
            // are, and the lowest limit among them when every one is raised above the
            // side's (a `stacking-override` rule).
            let mut n: u32 = 0;
            let mut lowest: Option<u8> = None;
            let mut all_raised = true;
            for u in stack
                .units
                .iter()
                .filter(|u| cx.counts_for_stacking(&u.kind))
            {
                n += u32::from(u.count);
                let own = cx.stacking_limit(side.index, &u.kind, default);
                lowest = Some(lowest.map_or(own, |l| l.min(own)));
                all_raised &= own > default;
            }
            let limit = lowest.filter(|_| all_raised).unwrap_or(default);
            if n > u32::from(limit) {
                sink.push(
                    Report::new(
                        &META,
                        side.place.field("sample").index(k).field("units"),
                        format!(
                            "hex `{}` holds {n} units but the limit is {limit}",
                            stack.hex
                        ),
                    )
                    .label(
                        Loc::Value(side.place.field("stacking_limit")),
                        "stacking limit",
                    )
                    .help("spread the units over more hexes"),
                );
            }
        }
    }
}
