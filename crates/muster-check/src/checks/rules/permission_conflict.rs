use muster_db::declare_check;
use muster_db::report::Sink;
use muster_semantic::FileCx;
use muster_semantic::rules::permission_conflicts;

declare_check! {
    /// ## What it does
    /// Checks that the permissions do not contradict each other: two entries without a
    /// condition for the same action, troop name and status must agree (`Must`, `May`
    /// or `Never`); an entry may not both cover and except a name; and a troop type that
    /// must or may counter-charge must not be one that may never charge.
    ///
    /// ## Why is this bad?
    /// An engine asking "may this unit charge?" gets two answers; and a counter-charge
    /// is a charge, so a type forbidden to charge cannot be bound to counter-charge.
    ///
    /// ## Example
    /// ```ron
    /// (action: Charge, troops: ["transport"], allowed: Never),
    /// (action: CounterCharge, troops: ["transport"], allowed: May),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (action: Charge, troops: ["transport"], allowed: Never),
    /// (action: CounterCharge, troops: ["transport"], allowed: Never),
    /// ```
    pub META = ("rules::permission-conflict", Error, "permissions that contradict each other");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(&META, permission_conflicts(system), sink);
    }
}
