use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Compares the number of battles of an army, and of units in each battle, with the
    /// typical ranges the system gives (Chanson de Geste: 3 to 4 battles of 3 to 5 units).
    ///
    /// ## Why is this bad?
    /// Not an error, but an army far outside the usual shape may have lost or duplicated a
    /// battle in transcription.
    ///
    /// ## Example
    /// ```ron
    /// battles: [(id: "all", name: "Everyone", leader: (name: "Guy of Namur", role: ArmyCommander), units: ["n-spears-1", "n-spears-2", "n-bows", "n-wagons"])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "right", name: "Right", leader: (name: "Guy of Namur", role: ArmyCommander), units: ["n-spears-1", "n-wagons"]),
    /// (id: "left", name: "Left", leader: (name: "William of Jülich", role: BattleCommander), units: ["n-spears-2", "n-bows"]),
    /// ```
    pub META = ("battles::atypical-size", Warning, "more or fewer battles or units than the rules describe as typical");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(rule) = cx.system.and_then(|s| s.break_point.as_ref()) else {
        return;
    };
    for side in cx.table_sides() {
        let n = side.forces.battles.len() as u8;
        if n == 0 {
            continue;
        }
        if let Some((lo, hi)) = rule.typical_battles
            && (n < lo || n > hi)
        {
            sink.push(
                Report::new(
                    &META,
                    side.place.field("battles"),
                    format!(
                        "{n} battle{}; armies typically have {lo} to {hi}",
                        if n == 1 { "" } else { "s" }
                    ),
                )
                .help("check that no battle was merged or left out"),
            );
        }
        if let Some((lo, hi)) = rule.typical_units_per_battle {
            for (b, battle) in side.forces.battles.iter().enumerate() {
                let m = battle.units.len() as u8;
                if m < lo || m > hi {
                    sink.push(
                        Report::new(
                            &META,
                            side.place.field("battles").index(b).field("units"),
                            format!(
                                "battle `{}` has {m} unit{}; battles typically have {lo} to {hi}",
                                battle.id,
                                if m == 1 { "" } else { "s" }
                            ),
                        )
                        .help("check that no unit was moved to the wrong battle or left out"),
                    );
                }
            }
        }
    }
}
