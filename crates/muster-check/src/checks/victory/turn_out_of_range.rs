use muster_model::scenario::VictoryCondition;

use crate::checks::context::ScenarioCx;
use crate::declare_check;
use crate::report::{Loc, Report, Sink};

declare_check! {
    /// ## What it does
    /// Checks turn numbers in victory conditions against the game length: a condition
    /// checked after turn N needs N within the game (optional turns included), and extra
    /// turns must match the scenario's `extra_turns`.
    ///
    /// ## Why is this bad?
    /// A condition on a turn that is never played can never be met.
    ///
    /// ## Example
    /// ```ron
    /// turns: 7,
    /// // ...
    /// FewestLosses(after_turn: 8, level: Minor),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// turns: 7,
    /// // ...
    /// FewestLosses(after_turn: 7, level: Minor),
    /// ```
    pub META = ("victory::turn-out-of-range", Error, "a victory condition on a turn outside the game");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let s = cx.scenario;
    let last = s.last_turn();
    // `turns: 0` is a schema violation; every turn would be reported again.
    if cx.scenario.turns == 0 {
        return;
    }
    for (i, v) in s.victory.iter().enumerate() {
        let (pointer, turn, limit) = match v {
            VictoryCondition::ArmyMorale {
                before_turn: Some(t),
            } => (format!("/victory/{i}/ArmyMorale/before_turn"), *t, last + 1),
            VictoryCondition::FewestLosses { after_turn, .. } => (
                format!("/victory/{i}/FewestLosses/after_turn"),
                *after_turn,
                last,
            ),
            VictoryCondition::LargestMargin { after_turn, .. } => (
                format!("/victory/{i}/LargestMargin/after_turn"),
                *after_turn,
                last,
            ),
            VictoryCondition::ExitUnits { after_turn, .. } => (
                format!("/victory/{i}/ExitUnits/after_turn"),
                *after_turn,
                last,
            ),
            VictoryCondition::ExtraTurns { turns, .. } => {
                if *turns != s.extra_turns {
                    sink.push(
                        Report::new(&META, format!("/victory/{i}/ExtraTurns/turns"), format!("the condition adds {turns} turns but the scenario declares `extra_turns: {}`", s.extra_turns))
                            .label(Loc::Key("/extra_turns".to_string()), "declared here")
                            .help("make the two numbers agree"),
                    );
                }
                continue;
            }
            _ => continue,
        };
        if turn == 0 || turn > limit {
            sink.push(
                Report::new(
                    &META,
                    pointer,
                    format!("turn {turn} is outside the game, which has {last} turns"),
                )
                .label(Loc::Value("/turns".to_string()), "game length")
                .help(format!("use a turn from 1 to {limit}")),
            );
        }
    }
    for (i, v) in s.victory.iter().enumerate() {
        let VictoryCondition::Goals { any_of, .. } = v else {
            continue;
        };
        for (a, all) in any_of.iter().enumerate() {
            for (g, goal) in all.iter().enumerate() {
                let base = format!("/victory/{i}/Goals/any_of/{a}/{g}");
                let (pointer, turn) = match goal {
                    muster_model::scenario::Goal::Exit {
                        by_turn: Some(t), ..
                    } => (format!("{base}/Exit/by_turn"), *t),
                    muster_model::scenario::Goal::InSea {
                        by_turn: Some(t), ..
                    } => (format!("{base}/InSea/by_turn"), *t),
                    muster_model::scenario::Goal::Control {
                        consecutive_turns, ..
                    } if *consecutive_turns > 0 => (
                        format!("{base}/Control/consecutive_turns"),
                        *consecutive_turns,
                    ),
                    _ => continue,
                };
                if turn == 0 || turn > last {
                    sink.push(
                        Report::new(
                            &META,
                            pointer,
                            format!("turn {turn} is outside the game, which has {last} turns"),
                        )
                        .label(Loc::Value("/turns".to_string()), "game length")
                        .help(format!("use a number from 1 to {last}")),
                    );
                }
            }
        }
    }
    for (i, side) in s.sides.iter().enumerate() {
        let muster_model::scenario::Forces::Zoned(z) = &side.forces else {
            continue;
        };
        for (k, d) in z.deploy.iter().enumerate() {
            if let Some(arrival) = &d.arrives
                && (arrival.turn == 0 || arrival.turn > last)
            {
                sink.push(
                    Report::new(
                        &META,
                        format!("/sides/{i}/forces/Zoned/deploy/{k}/arrives/turn"),
                        format!(
                            "the group arrives on turn {} but the game has {last} turns",
                            arrival.turn
                        ),
                    )
                    .label(Loc::Value("/turns".to_string()), "game length"),
                );
            }
        }
    }
}
