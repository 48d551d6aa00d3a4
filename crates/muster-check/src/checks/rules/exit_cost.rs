use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::exit_problems;

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
        super::report(&META, exit_problems(system), sink);
    }
}
