use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// For a deployment group with a `vp_share` (Dorylaeum: half the force's victory points
    /// at E-3), computes the group's victory points from its units and compares them with
    /// that share of the force's total (when the total is odd, either whole number next to
    /// the half is accepted).
    ///
    /// ## Why is this bad?
    /// The rulebook fixes the split by value; a group worth more or less changes the
    /// balance of the battle.
    ///
    /// ## Example
    /// ```ron
    /// units: [(kind: "HC", count: 3), (kind: "HB", count: 1), (kind: "2L", count: 1)], // 6 + 2 + 1 = 9 of 14
    /// vp_share: Half,
    /// victory_points: 14,
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// units: [(kind: "HC", count: 3), (kind: "2L", count: 1)], // 6 + 1 = 7 of 14
    /// vp_share: Half,
    /// victory_points: 14,
    /// ```
    pub META = ("zones::vp-share-mismatch", Error, "a split deployment whose victory point share is not what the text demands");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for side in cx.zoned_sides() {
        let Some(total) = cx.vp_of(&side.forces.units) else {
            continue;
        };
        for (k, d) in side.forces.deploy.iter().enumerate() {
            let Some(muster_model::scenario::Share::Half) = d.vp_share else {
                continue;
            };
            let place = side.place.field("deploy").index(k).field("vp_share");
            if d.units.is_empty() {
                sink.push(
                    Report::new(
                        &META,
                        place,
                        "a group with a share of the victory points must list its units",
                    )
                    .help("list the units this group holds"),
                );
                continue;
            }
            let Some(group) = cx.vp_of(&d.units) else {
                continue;
            };
            // An odd total cannot be halved exactly: either whole number next to the half will do.
            if group * 2 + 1 < total || group * 2 > total + 1 {
                let half = if total % 2 == 0 {
                    format!("{}", total / 2)
                } else {
                    format!("{} or {}", total / 2, total / 2 + 1)
                };
                sink.push(
                    Report::new(&META, side.place.field("deploy").index(k).field("units"), format!("this group is worth {group} victory points; half of the force's {total} is {half}"))
                        .label(place, "share required here")
                        .help("move units between the groups until this one holds exactly half"),
                );
            }
        }
    }
}
