use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Adds up the units of a side's sample deployment (stacks and units aboard fleets) by
    /// kind and compares them with the units the side sets up: its force, less the groups
    /// that enter during play (Dorylaeum's main body).
    ///
    /// ## Why is this bad?
    /// A sample that leaves units out, or invents some, does not show the scenario's setup.
    ///
    /// ## Example
    /// ```ron
    /// units: [(kind: "MI", count: 4), (kind: "IB", count: 2), (kind: "VF", count: 1), (kind: "AX", count: 3), (kind: "3L", count: 1)],
    /// (hex: "0404", units: [(kind: "IB", count: 1)]), // one militia short
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// units: [(kind: "MI", count: 4), (kind: "IB", count: 2), (kind: "VF", count: 1), (kind: "AX", count: 3), (kind: "3L", count: 1)],
    /// (hex: "0404", units: [(kind: "IB", count: 1)]),
    /// (hex: "0403", units: [(kind: "MI", count: 1)]),
    /// ```
    pub META = ("sample::units-mismatch", Error, "a sample deployment that places more or fewer units than the force");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for side in cx.zoned_sides() {
        if side.forces.sample.is_empty() {
            continue;
        }
        let placed = |kind: &str| -> u32 {
            side.forces
                .sample
                .iter()
                .flat_map(|s| s.units.iter().chain(s.aboard.iter()))
                .filter(|u| u.kind == kind)
                .map(|u| u32::from(u.count))
                .sum()
        };
        let mut kinds: Vec<&str> = side.forces.units.iter().map(|u| u.kind.as_str()).collect();
        kinds.extend(
            side.forces
                .sample
                .iter()
                .flat_map(|s| s.units.iter().chain(s.aboard.iter()))
                .map(|u| u.kind.as_str()),
        );
        kinds.sort();
        kinds.dedup();
        for kind in kinds {
            let total = |units: &[muster_model::scenario::TypeCount]| -> u32 {
                units
                    .iter()
                    .filter(|u| u.kind == kind)
                    .map(|u| u32::from(u.count))
                    .sum()
            };
            let listed_staying: u32 = side
                .forces
                .deploy
                .iter()
                .filter(|d| d.arrives.is_none())
                .map(|d| total(&d.units))
                .sum();
            let arriving: u32 = side
                .forces
                .deploy
                .iter()
                .filter(|d| d.arrives.is_some())
                .map(|d| {
                    if d.units.is_empty() {
                        total(&side.forces.units).saturating_sub(listed_staying)
                    } else {
                        total(&d.units)
                    }
                })
                .sum();
            let force = total(&side.forces.units).saturating_sub(arriving);
            let n = placed(kind);
            if n != force {
                sink.push(
                    Report::new(
                        &META,
                        side.place.field("sample"),
                        format!("the sample places {n} `{kind}` but the force has {force}"),
                    )
                    .label(Loc::Value(side.place.field("units")), "the force")
                    .help("a sample deployment places every unit of the side exactly once"),
                );
            }
        }
    }
}
