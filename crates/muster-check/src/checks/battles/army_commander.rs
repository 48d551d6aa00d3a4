use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that among the leaders of a side's battles exactly one is the army commander.
    ///
    /// ## Why is this bad?
    /// The army commander's loss and command radius matter to the whole army; none, or two,
    /// is a transcription error.
    ///
    /// ## Example
    /// ```ron
    /// (id: "van", name: "Vanguard", leader: (name: "Robert of Artois", role: ArmyCommander, exceptional: true), units: ["s-knights-1", "s-knights-2"]),
    /// (id: "rear", name: "Rearguard", leader: (name: "Count of Saint-Pol", role: ArmyCommander), units: ["s-horse", "s-knights-3"]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "van", name: "Vanguard", leader: (name: "Robert of Artois", role: ArmyCommander, exceptional: true), units: ["s-knights-1", "s-knights-2"]),
    /// (id: "rear", name: "Rearguard", leader: (name: "Count of Saint-Pol", role: BattleCommander), units: ["s-horse", "s-knights-3"]),
    /// ```
    pub META = ("battles::army-commander", Error, "an army without exactly one army commander");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    use muster_model::scenario::LeaderRole;
    for side in cx.table_sides() {
        if side.forces.battles.is_empty() {
            continue;
        }
        let commanders: Vec<usize> = side
            .forces
            .battles
            .iter()
            .enumerate()
            .filter(|(_, b)| {
                b.leader
                    .as_ref()
                    .is_some_and(|l| l.role == LeaderRole::ArmyCommander)
            })
            .map(|(i, _)| i)
            .collect();
        if commanders.len() != 1 {
            let at = commanders.get(1).map_or(side.place.field("battles"), |i| {
                side.place.field("battles").index(*i).field("leader")
            });
            let mut report = Report::new(
                &META,
                at,
                format!(
                    "side `{}` has {} army commanders; it needs exactly one",
                    cx.scenario.sides[side.index].id,
                    commanders.len()
                ),
            )
            .help("make one leader `ArmyCommander` and the others `BattleCommander`");
            if let Some(first) = commanders.first() {
                report = report.label(
                    Loc::Value(side.place.field("battles").index(*first).field("leader")),
                    "first army commander",
                );
            }
            sink.push(report);
        }
    }
}
