//! Special-rule hooks: known ids with well-typed parameters that name units the
//! scenario fields.

pub mod bad_parameter;
pub mod counter_not_in_scenario;
pub mod counter_wrong_side;
pub mod unknown_hook;

use muster_semantic::ScenarioCx;

thread_local! {
    static FIELDED_WORK: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many set-up groups and reinforcements this thread has read to find the sides
/// that field counters named by hooks: a work counter for tests (a scenario's groups
/// are read once per check, not once per counter a hook names).
pub fn fielded_work() -> usize {
    FIELDED_WORK.with(|w| w.get())
}

fn count_fielded(n: usize) {
    FIELDED_WORK.with(|w| w.set(w.get() + n));
}

/// The sides that field each counter in the scenario (set up, neutral or arriving as a
/// reinforcement), each side once, in the order they first appear: `Some(side index)`,
/// `None` for neutrals. Read in one pass over the groups and reinforcements, for every
/// counter a check asks about.
struct Fielded<'a>(std::collections::HashMap<&'a str, Vec<Option<usize>>>);

impl<'a> Fielded<'a> {
    fn of(cx: &'a ScenarioCx) -> Self {
        count_fielded(cx.groups().len() + cx.scenario.reinforcements.len());
        let mut by: std::collections::HashMap<&'a str, Vec<Option<usize>>> =
            std::collections::HashMap::new();
        let mut add = |counter: &'a str, side: Option<usize>| {
            let sides = by.entry(counter).or_default();
            if !sides.contains(&side) {
                sides.push(side);
            }
        };
        for g in cx.groups() {
            for u in &g.units {
                add(u.counter_id, g.side);
            }
        }
        for r in &cx.scenario.reinforcements {
            if let Some(i) = cx.side_of(&r.side) {
                for u in &r.units {
                    add(&u.counter, Some(i));
                }
            }
        }
        Fielded(by)
    }

    fn sides(&self, counter: &str) -> &[Option<usize>] {
        self.0.get(counter).map_or(&[], Vec::as_slice)
    }
}

/// Whether any army of the scenario ([`ScenarioCx::armies_in_play`]) has the counter;
/// `references::unknown-counter` reports the others.
fn in_some_army(cx: &ScenarioCx, counter: &str) -> bool {
    cx.armies_in_play()
        .iter()
        .any(|a| a.counters.iter().any(|c| c.id == counter))
}
