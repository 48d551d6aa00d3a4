use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that the units listed `aboard` in a sample deployment hex do not exceed what
    /// the fleets in that hex carry (PRESTAGS: three units a fleet). Units of classes that do
    /// not count for stacking (leaders) ride free, as the system notes say.
    ///
    /// ## Why is this bad?
    /// The extra units have no place; a fleet's cargo is part of the Viking player's plan
    /// and must be legal.
    ///
    /// ## Example
    /// ```ron
    /// (hex: "0105", units: [(kind: "VF", count: 1)], aboard: [(kind: "AX", count: 3), (kind: "MI", count: 1)]), // four units, one fleet of three
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (hex: "0105", units: [(kind: "VF", count: 1)], aboard: [(kind: "AX", count: 2), (kind: "MI", count: 1)]),
    /// ```
    pub META = ("fleets::overloaded", Error, "more units aboard a fleet than it carries");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(system) = cx.system else { return };
    for side in cx.zoned_sides() {
        for (k, stack) in side.forces.sample.iter().enumerate() {
            if stack.aboard.is_empty() {
                continue;
            }
            let aboard: u32 = stack
                .aboard
                .iter()
                .filter(|u| cx.counts_for_stacking(&u.kind))
                .map(|u| u32::from(u.count))
                .sum();
            let capacity: u32 = system
                .carriers
                .iter()
                .map(|c| {
                    u32::from(c.capacity)
                        * stack
                            .units
                            .iter()
                            .filter(|u| u.kind == c.kind)
                            .map(|u| u32::from(u.count))
                            .sum::<u32>()
                })
                .sum();
            if aboard > capacity {
                sink.push(
                    Report::new(
                        &META,
                        side.place.field("sample").index(k).field("aboard"),
                        format!(
                            "{aboard} units aboard but the fleets in hex `{}` carry {capacity}",
                            stack.hex
                        ),
                    )
                    .help("move units to another fleet or ashore"),
                );
            }
        }
    }
}
