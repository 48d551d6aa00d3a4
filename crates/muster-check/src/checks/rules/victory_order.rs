use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::VictoryOrder;
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks the order of the victory levels: when a higher level also satisfies a
    /// lower one (`HigherSatisfiesLower`, PRESTAGS 11.24), the levels must be listed
    /// lowest first, each needing a higher ratio than the one before; and an order
    /// needs levels to order.
    ///
    /// ## Why is this bad?
    /// "A Substantive Victory also satisfies a Marginal one" only means something if
    /// Substantive is the higher level: listed out of order, a condition calling for the
    /// lower level would be met by the wrong ones.
    ///
    /// ## Example
    /// ```ron
    /// (name: "Decisive", ratio: 3.0),
    /// (name: "Substantive", ratio: 2.0),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (name: "Substantive", ratio: 2.0),
    /// (name: "Decisive", ratio: 3.0),
    /// ```
    pub META = ("rules::victory-order", Error, "victory levels that are not in the order the system's victory rule needs");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(victory_order_problems(system), sink);
    }
}

/// Victory levels that are not in an order where "higher" means something.
pub fn victory_order_problems(system: &RulesSystem) -> Vec<Report> {
    let Some(order) = system.rules.victory_order else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if system.victory_levels.is_empty() {
        out.push(
            Report::new(
                &META,
                Place::rules().field("victory_order"),
                "a victory order, but the system has no `victory_levels` to order",
            )
            .help("list the victory levels, lowest first, or remove the order"),
        );
        return out;
    }
    if order == VictoryOrder::HigherSatisfiesLower {
        for (i, pair) in system.victory_levels.windows(2).enumerate() {
            let (lower, higher) = (&pair[0], &pair[1]);
            let above = higher.ratio > lower.ratio
                || (higher.ratio == lower.ratio && higher.exclusive && !lower.exclusive);
            if !above {
                out.push(
                    Report::new(&META,
                        Place::top("victory_levels").index(i + 1).field("ratio"),
                        format!(
                            "`{}` is listed above `{}` but needs no higher a ratio ({} against {}), so a higher level cannot be told from a lower",
                            higher.name, lower.name, higher.ratio, lower.ratio
                        ),
                    )
                    .label(Place::top("victory_levels").index(i).field("ratio"), "the level below")
                    .help("list the levels lowest first, each needing a higher ratio than the one before"),
                );
            }
        }
    }
    out
}
