use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_engine::{Target, side_reach};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that some unit of a side can get to each place its victory conditions
    /// ask for (a labelled or named hex to control, an edge or hexes to exit through)
    /// by the condition's turn, moving its whole allowance every turn from where the
    /// set-up puts it (a reinforcement from its entry, in its turn; a zoned group that
    /// arrives on a map edge from any hex of that edge, in its turn).
    ///
    /// It assumes every side moves every turn from the first; enemy units and friends
    /// are ignored (they may be beaten or make way), while terrain, hexsides, the
    /// movement rules in force and the minimum move count. Units move in ordinary
    /// movement, not in a movement mode. A hex to hold for some turns must be reached
    /// that many turns before the end; an exit needs the edge hex reached, not the
    /// step off. A zoned side is judged on its sample set-up; a side with no unit on
    /// the map, or with units aboard carriers (whose landing is a sailing move), is not
    /// judged.
    ///
    /// ## Why is this bad?
    /// An objective no unit can reach in the game's turns cannot be won by going
    /// there: the side's goal is out of reach from the start, which the scenario's
    /// author did not mean. Most often the turn, the label or the edge was mistyped.
    ///
    /// ## Example
    /// ```ron
    ///         Achieves(side: "red", level: Minor, test: Exited(units: ["*"], count: 1, through: Edge(South)), by_turn: 1),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///         Achieves(side: "red", level: Minor, test: Exited(units: ["*"], count: 1, through: Edge(South)), by_turn: 3),
    /// ```
    pub META = ("victory::objective-unreachable", Warning, "a victory objective no unit of the side can reach in the game's turns");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    // A game of no turns is `structure::schema-violation`'s finding.
    if cx.scenario.turns == 0 {
        return;
    }
    let objectives = cx.objectives();
    if objectives.is_empty() {
        return;
    }
    // By objective: `Some(first turn)` where no unit of its side gets there in time.
    let mut missed: Vec<Option<Option<u32>>> = vec![None; objectives.len()];
    let board = cx.board(cx.scenario.turns);
    for side in 0..cx.scenario.sides.len() {
        let mine: Vec<usize> = (0..objectives.len())
            .filter(|&k| objectives[k].side == side)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let targets: Vec<Target> = mine
            .iter()
            .map(|&k| Target {
                hexes: &objectives[k].hexes,
                troops: &objectives[k].troops,
                excluding: &objectives[k].excluding,
                by_turn: u32::from(objectives[k].by_turn),
            })
            .collect();
        let Some(reach) = side_reach(cx, &board, side, &targets) else {
            continue;
        };
        if !reach.judged() {
            continue;
        }
        for (t, &k) in mine.iter().enumerate() {
            if !reach.met(t, &targets[t]) {
                missed[k] = Some(reach.first[t]);
            }
        }
    }
    for (o, missed) in objectives.iter().zip(missed) {
        if let Some(reached) = missed {
            report(cx, sink, o, reached);
        }
    }
}

fn report(
    cx: &ScenarioCx,
    sink: &mut Sink,
    o: &muster_semantic::victory::Objective,
    reached: Option<u32>,
) {
    let side = &cx.scenario.sides[o.side].id;
    let when = match reached {
        Some(t) => format!("the first of them gets there on turn {t}"),
        None => "none of them can get there at all".to_string(),
    };
    sink.push(
        Report::new(
            &META,
            o.at.clone(),
            format!(
                "no unit of `{side}` can reach {} by turn {}: {when}",
                o.what, o.by_turn
            ),
        )
        .help("check the objective, its turn and the side's set-up against the rulebook"),
    );
}
