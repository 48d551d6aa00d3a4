use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::unknown_names;

declare_check! {
    /// ## What it does
    /// Checks that the system's typed rules name only what the system defines: troop
    /// types (a unit kind id, a class, or `"*"`), status levels of its ladder, its
    /// result tables, its terrain and feature kinds, and codes of its combat results
    /// table.
    ///
    /// ## Why is this bad?
    /// A permission or morale trigger naming a troop type that does not exist applies to
    /// nobody, and a result sending units to an unknown status leaves an engine with no
    /// level to put them at: the rule is silently lost.
    ///
    /// ## Example
    /// ```ron
    /// (action: CounterCharge, troops: ["mounted-knigths"], allowed: Must),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (action: CounterCharge, troops: ["mounted-knights"], allowed: Must),
    /// ```
    pub META = ("rules::unknown-name", Error, "a rule names a troop type, status level, table or terrain the system does not define");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, unknown_names(system), sink);
    }
}
