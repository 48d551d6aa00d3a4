use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::panic_conflicts;

declare_check! {
    /// ## What it does
    /// Checks the panic rules: the troops that spare units from panic or rally them
    /// must all be leaders (role `Commander`), and a tie on reaching the panic level
    /// exactly cannot be broken by `FurtherPast`.
    ///
    /// ## Why is this bad?
    /// Panic rules name leaders by type; a name that also covers combat units spares
    /// far more of the army than the rulebook does. Two sides exactly at their level
    /// are equally far past it.
    ///
    /// ## Example
    /// ```ron
    /// panic: Some((
    ///     trigger: LossesReachPanicLevel,
    ///     both_reach: Some(FurtherPast),
    ///     spared_near: [(leaders: ["*"], reach: StackedOrAdjacent)],
    /// )),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// panic: Some((
    ///     trigger: LossesReachPanicLevel,
    ///     both_reach: Some(Defender),
    ///     spared_near: [(leaders: ["leader"], reach: StackedOrAdjacent)],
    /// )),
    /// ```
    pub META = ("rules::panic-conflict", Error, "panic spared or rallied by non-leaders, or a tie no side can break");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, panic_conflicts(system), sink);
    }
}
