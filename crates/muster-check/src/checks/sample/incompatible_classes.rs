use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks the classes in each hex of a sample deployment against the system's
    /// compatibility groups (PRESTAGS 5.32-5.38: A and B never together, foot fire only
    /// with A or B, mounted fire only with C, fire classes never mixed, D and E with
    /// anything the other cases allow).
    ///
    /// ## Why is this bad?
    /// The rules forbid the stack; the sample would teach an illegal setup.
    ///
    /// ## Example
    /// ```ron
    /// (hex: "0406", units: [(kind: "MI", count: 1), (kind: "AX", count: 1)]), // militia (A) and axemen (B)
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (hex: "0406", units: [(kind: "AX", count: 1), (kind: "IB", count: 1)]), // bowmen (Ff) go with B
    /// ```
    pub META = ("sample::incompatible-classes", Error, "a sample deployment hex mixing unit classes that may not stack together");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(muster_model::system::StackingPolicy::PerSideLimit { compatible, .. }) =
        cx.system.map(|s| &s.stacking)
    else {
        return;
    };
    for side in cx.zoned_sides() {
        for (k, stack) in side.forces.sample.iter().enumerate() {
            let mut classes: smallvec::SmallVec<[&str; 8]> = stack
                .units
                .iter()
                .filter_map(|u| cx.class_of(&u.kind))
                .collect();
            classes.sort();
            classes.dedup();
            let fits = compatible
                .iter()
                .any(|group| classes.iter().all(|c| group.iter().any(|g| g == c)));
            if !fits {
                sink.push(
                    Report::new(
                        &META,
                        side.place.field("sample").index(k).field("units"),
                        format!(
                            "hex `{}` mixes classes {} that may not share a hex",
                            stack.hex,
                            classes
                                .iter()
                                .map(|c| format!("`{c}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    )
                    .help("A and B never stack together; Ff goes with A or B, Mf with C"),
                );
            }
        }
    }
}
