use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// For a goal that requires units to leave the map by road at an edge (Paris: off the
    /// road at the north-east edge), checks that the map has a road hexside touching a hex
    /// of that edge.
    ///
    /// ## Why is this bad?
    /// If no road leaves the map there, the goal can never be met; either the edge or the
    /// map is wrong.
    ///
    /// ## Example
    /// ```ron
    /// Goals(side: "south", any_of: [[Exit(units: 4, edge: West, near: ("F", 10), by_road: 2, by_turn: 15)]]), // the road leaves by the east edge
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Goals(side: "south", any_of: [[Exit(units: 4, edge: East, near: ("F", 10), by_road: 2, by_turn: 15)]]), // the road reaches 2010
    /// ```
    pub META = ("victory::road-not-at-edge", Error, "units must exit by road at an edge no road reaches");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    use muster_hex::HexId;
    use muster_model::scenario::Goal;
    let Some(map) = cx.map else { return };
    let grid = map.grid();
    for (base, goal) in cx.goals() {
        let Goal::Exit {
            edge,
            by_road: Some(_),
            ..
        } = goal
        else {
            continue;
        };
        let reaches = map
            .table()
            .hexsides
            .iter()
            .filter(|s| s.features.iter().any(|f| f == "road"))
            .any(|s| {
                [&s.a, &s.b]
                    .iter()
                    .any(|h| HexId::parse(h).is_ok_and(|h| grid.edges_of(h).contains(edge)))
            });
        if !reaches {
            sink.push(
                Report::new(
                    &META,
                    base.variant("Exit").field("edge"),
                    format!(
                        "no road reaches the {edge} edge of map `{}`",
                        map.table().map
                    ),
                )
                .help("check the edge, or draw the road to the map edge"),
            );
        }
    }
}
