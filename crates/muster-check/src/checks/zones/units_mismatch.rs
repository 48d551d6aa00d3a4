use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// When deployment groups list their units (Clontarf's two groups, Hamburg's four),
    /// adds them up by kind and compares with the force; a group without units takes what
    /// is left, so then the listed units may only not exceed the force.
    ///
    /// ## Why is this bad?
    /// A unit in two groups, or in none, cannot be set up as the text says.
    ///
    /// ## Example
    /// ```ron
    /// units: [(kind: "MI", count: 4), (kind: "IB", count: 2), (kind: "VF", count: 1), (kind: "AX", count: 3), (kind: "3L", count: 1)],
    /// (units: [(kind: "VF", count: 1), (kind: "AX", count: 4)], zone: AllSea, aboard: "VF"), // the force has 3 AX
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// units: [(kind: "MI", count: 4), (kind: "IB", count: 2), (kind: "VF", count: 1), (kind: "AX", count: 3), (kind: "3L", count: 1)],
    /// (units: [(kind: "VF", count: 1), (kind: "AX", count: 3)], zone: AllSea, aboard: "VF"),
    /// ```
    pub META = ("zones::units-mismatch", Error, "deployment groups that list more or fewer units than the force");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for side in cx.zoned_sides() {
        let deploy = &side.forces.deploy;
        if deploy.iter().all(|d| d.units.is_empty()) {
            continue;
        }
        let all_listed = deploy.iter().all(|d| !d.units.is_empty());
        // By kind, in order: the force's count and the groups' listed count.
        let mut kinds: std::collections::BTreeMap<&str, (u32, u32)> = Default::default();
        for u in &side.forces.units {
            kinds.entry(u.kind.as_str()).or_default().0 += u32::from(u.count);
        }
        for u in deploy.iter().flat_map(|d| d.units.iter()) {
            kinds.entry(u.kind.as_str()).or_default().1 += u32::from(u.count);
        }
        for (kind, (force, listed)) in kinds {
            if listed > force || (all_listed && listed != force) {
                sink.push(
                    Report::new(
                        &META,
                        side.place.field("deploy"),
                        format!("the groups list {listed} `{kind}` but the force has {force}"),
                    )
                    .label(Loc::Value(side.place.field("units")), "the force")
                    .help("each unit of the force belongs to exactly one group"),
                );
            }
        }
    }
}
