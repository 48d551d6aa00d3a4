use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;
use muster_semantic::rules::movements;

declare_check! {
    /// ## What it does
    /// Checks the exit rule against the unit kinds' movement allowances: the movement
    /// points a unit must still have to leave the map may not exceed every allowance
    /// printed.
    ///
    /// ## Why is this bad?
    /// With a cost no unit can pay, every "exit N units" victory condition of the
    /// system is impossible: most often the cost was typed as a number of hexes or
    /// turns.
    ///
    /// ## Example
    /// ```ron
    /// exit: Some((cost: 12.0, may_return: false)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// exit: Some((cost: 1.0, may_return: false)),
    /// ```
    pub META = ("rules::exit-cost", Error, "leaving the map costs more than any unit can pay");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(exit_problems(system), sink);
    }
}

/// An exit cost no unit can pay.
pub fn exit_problems(system: &RulesSystem) -> Vec<Report> {
    let Some(exit) = &system.rules.exit else {
        return Vec::new();
    };
    let moves = movements(system);
    let Some(most) = moves.iter().copied().reduce(f64::max) else {
        return Vec::new();
    };
    if exit.cost > most {
        return vec![
            Report::new(&META,
                Place::rules().field("exit").field("cost"),
                format!("leaving costs {} movement points, more than any unit kind has (at most {most}): no unit can ever leave", exit.cost),
            )
            .help("give the movement points a unit must still have to leave"),
        ];
    }
    Vec::new()
}
