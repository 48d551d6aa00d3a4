use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that every unit id a battle lists is a unit of the same side, and that no
    /// unit is in two battles.
    ///
    /// ## Why is this bad?
    /// A leader cannot command the enemy's units; an unknown id is a typo that leaves a
    /// unit without a battle.
    ///
    /// ## Example
    /// ```ron
    /// (id: "left", name: "Left", leader: (name: "William of Jülich", role: BattleCommander), units: ["n-spears-2", "s-horse"]), // a French unit
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "left", name: "Left", leader: (name: "William of Jülich", role: BattleCommander), units: ["n-spears-2", "n-bows"]), // both Flemish
    /// ```
    pub META = ("battles::foreign-unit", Error, "a battle commands a unit of another army or no unit at all");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let sides = cx.table_sides();
    for side in &sides {
        let mut seen: Vec<(&str, Place)> = Vec::new();
        for (b, battle) in side.forces.battles.iter().enumerate() {
            for (k, id) in battle.units.iter().enumerate() {
                let place = side.place.field("battles").index(b).field("units").index(k);
                if side.forces.units.iter().any(|u| &u.id == id) {
                    if let Some((_, first)) = seen.iter().find(|(s, _)| s == id) {
                        sink.push(
                            Report::new(
                                &META,
                                place.clone(),
                                format!("unit `{id}` is already in another battle"),
                            )
                            .label(Loc::Value(first.clone()), "first listed here"),
                        );
                    }
                    seen.push((id, place));
                    continue;
                }
                let other = sides
                    .iter()
                    .find(|o| o.index != side.index && o.forces.units.iter().any(|u| &u.id == id));
                let message = match other {
                    Some(o) => format!(
                        "unit `{id}` belongs to side `{}`, not to this army",
                        cx.scenario.sides[o.index].id
                    ),
                    None => format!(
                        "no unit `{id}` in side `{}`",
                        cx.scenario.sides[side.index].id
                    ),
                };
                let known = side.forces.units.iter().map(|u| u.id.as_str());
                sink.push(
                    Report::new(&META, place, message)
                        .help_opt(muster_db::suggest::did_you_mean(id, known)),
                );
            }
        }
    }
}
