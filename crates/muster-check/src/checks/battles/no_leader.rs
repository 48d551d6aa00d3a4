use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that each battle of a Chanson de Geste army has a leader.
    ///
    /// ## Why is this bad?
    /// A battle is defined by its leader; without one its units cannot be commanded.
    ///
    /// ## Example
    /// ```ron
    /// (id: "left", name: "Left", units: ["n-spears-2", "n-bows"]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "left", name: "Left", leader: (name: "William of Jülich", role: BattleCommander), units: ["n-spears-2", "n-bows"]),
    /// ```
    pub META = ("battles::no-leader", Error, "a battle without a leader");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for side in cx.table_sides() {
        for (b, battle) in side.forces.battles.iter().enumerate() {
            if battle.leader.is_none() {
                sink.push(
                    Report::new(
                        &META,
                        side.place.field("battles").index(b).field("id"),
                        format!("battle `{}` has no leader", battle.id),
                    )
                    .help("add `leader: Some((name: \"...\", role: BattleCommander))`"),
                );
            }
        }
    }
}
