use muster_model::scenario::MoraleThreshold;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;
use muster_semantic::morale::max_losses;

declare_check! {
    /// ## What it does
    /// Adds up everything a side could lose (every unit's strength, plus the commander
    /// and baggage bonuses of the system's army morale scoring) and warns when a morale
    /// threshold is above it. For thresholds that depend on losses (Brissarthe), each
    /// entry is checked.
    ///
    /// ## Why is this bad?
    /// An army that cannot reach its threshold can never break; usually the threshold or
    /// a unit's strength is mistyped.
    ///
    /// ## Example
    /// ```ron
    /// // red could lose 25 at most: its units, commander and baggage
    /// morale_threshold: Fixed(80),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// morale_threshold: Fixed(10),
    /// ```
    pub META = ("morale::threshold-unreachable", Warning, "a morale threshold above all the army could lose");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(scoring) = cx.system.and_then(|s| s.army_morale.as_ref()) else {
        return;
    };
    if cx.counters.is_none() {
        return;
    }
    for (i, side) in cx.scenario.sides.iter().enumerate() {
        // Units whose army or counter is unknown would be left out of the total; the
        // reference checks report them.
        let unresolved = cx
            .side_groups(i)
            .any(|g| g.army.is_none() || g.units.iter().any(|u| u.counter.is_none()));
        if unresolved {
            continue;
        }
        let most = max_losses(cx, i, scoring);
        let entries: Vec<(Place, u16)> = match &side.morale_threshold {
            Some(MoraleThreshold::Fixed(t)) => {
                vec![(
                    Place::side(i).field("morale_threshold").variant("Fixed"),
                    *t,
                )]
            }
            Some(MoraleThreshold::ByLosses { thresholds, .. }) => thresholds
                .iter()
                .enumerate()
                .map(|(k, t)| {
                    (
                        Place::side(i)
                            .field("morale_threshold")
                            .variant("ByLosses")
                            .field("thresholds")
                            .index(k),
                        *t,
                    )
                })
                .collect(),
            None => continue,
        };
        for (place, threshold) in entries {
            if u32::from(threshold) > most {
                sink.push(
                    Report::new(&META, place, format!("side `{}` can lose at most {most} points, below its threshold of {threshold}", side.id))
                        .note("losses count each unit's strength, plus the commander and baggage bonuses")
                        .help("check the threshold and the strengths on the counter sheet"),
                );
            }
        }
    }
}
