use muster_model::scenario::VictoryCondition;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

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
    use muster_model::scenario::{Forces, Goal};
    let s = cx.scenario;
    // `turns: 0` is the schema's finding; a range "1 to 0" would only repeat it.
    if s.turns == 0 {
        return;
    }
    let last = s.last_turn();
    // (place, turn, latest allowed turn)
    let mut turns: Vec<(Place, u8, u8)> = Vec::new();
    for (i, v) in s.victory.iter().enumerate() {
        match v {
            VictoryCondition::ArmyMorale { before_turn: Some(t) } => turns.push((Place::victory(i).variant("ArmyMorale").field("before_turn"), *t, last.saturating_add(1))),
            VictoryCondition::FewestLosses { after_turn, .. } => turns.push((Place::victory(i).variant("FewestLosses").field("after_turn"), *after_turn, last)),
            VictoryCondition::LargestMargin { after_turn, .. } => turns.push((Place::victory(i).variant("LargestMargin").field("after_turn"), *after_turn, last)),
            VictoryCondition::ExitUnits { after_turn, .. } => turns.push((Place::victory(i).variant("ExitUnits").field("after_turn"), *after_turn, last)),
            VictoryCondition::Achieves { by_turn: Some(t), .. } => turns.push((Place::victory(i).variant("Achieves").field("by_turn"), *t, last)),
            VictoryCondition::ExtraTurns { turns: extra, .. } if *extra != s.extra_turns => sink.push(
                Report::new(&META, Place::victory(i).variant("ExtraTurns").field("turns"), format!("the condition adds {extra} turns but the scenario declares `extra_turns: {}`", s.extra_turns))
                    .label(Loc::Key(Place::top("extra_turns")), "declared here")
                    .help("make the two numbers agree"),
            ),
            _ => {}
        }
    }
    for (base, goal) in cx.goals() {
        match goal {
            Goal::Exit {
                by_turn: Some(t), ..
            } => turns.push((base.variant("Exit").field("by_turn"), *t, last)),
            Goal::InSea {
                by_turn: Some(t), ..
            } => turns.push((base.variant("InSea").field("by_turn"), *t, last)),
            Goal::Control {
                consecutive_turns, ..
            } if *consecutive_turns > 0 => turns.push((
                base.variant("Control").field("consecutive_turns"),
                *consecutive_turns,
                last,
            )),
            _ => {}
        }
    }
    for (i, side) in s.sides.iter().enumerate() {
        let Forces::Zoned(z) = &side.forces else {
            continue;
        };
        for (k, d) in z.deploy.iter().enumerate() {
            if let Some(arrival) = &d.arrives {
                turns.push((
                    Place::zoned_forces(i)
                        .field("deploy")
                        .index(k)
                        .field("arrives")
                        .field("turn"),
                    arrival.turn,
                    last,
                ));
            }
        }
    }
    for (place, turn, limit) in turns {
        if turn == 0 || turn > limit {
            sink.push(
                Report::new(
                    &META,
                    place,
                    format!("turn {turn} is outside the game, which has {last} turns"),
                )
                .label(Place::top("turns"), "game length")
                .help(format!("use a turn from 1 to {limit}")),
            );
        }
    }
}
