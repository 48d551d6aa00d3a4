use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::victory_order_problems;

declare_check! {
    /// ## What it does
    /// Checks the order of the victory levels: when a higher level also satisfies a
    /// lower one (`HigherSatisfiesLower`, PRESTAGS 11.24), the levels must be listed
    /// lowest first, each needing a higher ratio than the one before; and an order
    /// needs levels to order.
    ///
    /// ## Why is this bad?
    /// "A Substantive Victory also satisfies a Marginal one" only means something if
    /// Substantive is the higher level: listed out of order, a condition calling for the
    /// lower level would be met by the wrong ones.
    ///
    /// ## Example
    /// ```ron
    /// (name: "Decisive", ratio: 3.0),
    /// (name: "Substantive", ratio: 2.0),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (name: "Substantive", ratio: 2.0),
    /// (name: "Decisive", ratio: 3.0),
    /// ```
    pub META = ("rules::victory-order", Error, "victory levels that are not in the order the system's victory rule needs");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, victory_order_problems(system), sink);
    }
}
