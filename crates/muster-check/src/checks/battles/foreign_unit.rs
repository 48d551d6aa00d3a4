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
    // Each side's unit ids, looked up once per listed id, so that a battle listing a unit
    // a hundred thousand times costs its length, not its square.
    let own: Vec<std::collections::HashSet<&str>> = sides
        .iter()
        .map(|s| s.forces.units.iter().map(|u| u.id.as_str()).collect())
        .collect();
    for (at, side) in sides.iter().enumerate() {
        // Each unit listed: where first and second (battle and place), how often in all.
        type Listing = (usize, Place);
        let mut listed: Vec<(&str, Listing, Option<Listing>, usize)> = Vec::new();
        let mut index_of: std::collections::HashMap<&str, usize> = Default::default();
        for (b, battle) in side.forces.battles.iter().enumerate() {
            for (k, id) in battle.units.iter().enumerate() {
                let place = side.place.field("battles").index(b).field("units").index(k);
                if own[at].contains(id.as_str()) {
                    match index_of.get(id.as_str()) {
                        Some(&i) => {
                            let entry = &mut listed[i];
                            entry.3 += 1;
                            entry.2.get_or_insert((b, place));
                        }
                        None => {
                            index_of.insert(id, listed.len());
                            listed.push((id, (b, place), None, 1));
                        }
                    }
                    continue;
                }
                let other = (0..sides.len()).find(|&o| o != at && own[o].contains(id.as_str()));
                let message = match other {
                    Some(o) => format!(
                        "unit `{id}` belongs to side `{}`, not to this army",
                        cx.scenario.sides[sides[o].index].id
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
        // One report per unit listed again, however often: at its second listing.
        for (id, first, second, times) in listed {
            let Some((again, second)) = second else {
                continue;
            };
            let message = match times {
                2 if again == first.0 => format!("unit `{id}` is listed twice in this battle"),
                2 => format!("unit `{id}` is already in another battle"),
                _ => format!("unit `{id}` is listed {times} times in this army's battles"),
            };
            let first = first.1;
            sink.push(
                Report::new(&META, second, message)
                    .label(Loc::Value(first), "first listed here")
                    .help("a unit belongs to one battle: list it once"),
            );
        }
    }
}
