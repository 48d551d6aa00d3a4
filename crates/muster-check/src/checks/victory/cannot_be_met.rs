use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_model::scenario::VictoryTest;
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks each test of a composed victory condition (`Achieves`, `FirstTo`) against
    /// the forces of the game: a side cannot exit more of its units of a type than it
    /// brings (set-up and reinforcements together), nor eliminate more enemy units of a
    /// type than the enemy brings; and `AnyOf([])` has nothing that could hold.
    ///
    /// ## Why is this bad?
    /// A victory condition that can never be met is no condition: the side can only
    /// win some other way, and the scenario plays differently from what its author
    /// meant. Most often the count, the troop type or the side was mistyped.
    ///
    /// ## Example
    /// ```ron
    ///         Achieves(side: "blue", level: Major, test: AllOf([Points(10), Exited(units: ["baggage"], count: 5, through: Edge(South))])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///         Achieves(side: "blue", level: Major, test: AllOf([Points(10), Exited(units: ["baggage"], count: 2, through: Edge(South))])),
    /// ```
    pub META = ("victory::cannot-be-met", Warning, "a composed victory test that the game's forces can never meet");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let side_of = |id: &str| cx.side_of(id);
    for t in muster_semantic::victory::victory_tests(cx.scenario) {
        // An unknown side is `references::unknown-side`'s finding.
        let Some(side) = side_of(t.side) else {
            continue;
        };
        let (variant, units, count, whose) = match t.test {
            VictoryTest::Exited { units, count, .. } => ("Exited", units, *count, Some(side)),
            VictoryTest::Eliminated { units, count } => {
                ("Eliminated", units, *count, cx.enemy_of(side))
            }
            VictoryTest::AnyOf(list) if list.is_empty() => {
                sink.push(
                    Report::new(
                        &META,
                        t.at.variant("AnyOf"),
                        format!(
                            "the victory test of `{}` is `AnyOf([])`, which nothing meets",
                            t.side
                        ),
                    )
                    .help("list the tests any one of which wins, or remove the condition"),
                );
                continue;
            }
            VictoryTest::AllOf(_)
            | VictoryTest::AnyOf(_)
            | VictoryTest::Points(_)
            | VictoryTest::Controls(_)
            | VictoryTest::EnemyDemoralised => continue,
        };
        let Some(whose) = whose else { continue };
        let Some(brought) = cx.units_of(whose, units) else {
            continue;
        };
        if usize::from(count) > brought {
            let owner = &cx.scenario.sides[whose].id;
            let what = units.join(", ");
            sink.push(
                Report::new(
                    &META,
                    t.at.variant(variant).field("count"),
                    format!(
                        "`{}` needs {count} `{what}` units {}, but `{owner}` brings only {brought}",
                        t.side,
                        if variant == "Exited" {
                            "exited"
                        } else {
                            "eliminated"
                        },
                    ),
                )
                .help(format!(
                    "give a count of at most {brought}, or the troop types the condition means"
                )),
            );
        }
    }
}
