use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_model::combat::Obligation;
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;
use muster_semantic::rules::combat::compulsory;

declare_check! {
    /// ## What it does
    /// Checks that voluntary attacks (`compulsory: (attacks: Voluntary)`) give no
    /// `who`: with nothing compulsory, there is no one for it to bind.
    ///
    /// ## Why is this bad?
    /// A `who` says which units an obligation binds, so its presence most often means
    /// the obligation itself was meant (`EveryAdjacentUnit` for "infantry must
    /// attack") and `Voluntary` was left from a copied rule: the rule as printed is
    /// lost.
    ///
    /// ## Example
    /// ```ron
    /// compulsory: Some((section: "7.1", attacks: Voluntary, who: Some(Troop("infantry")))),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// compulsory: Some((section: "7.1", attacks: EveryAdjacentUnit, who: Some(Troop("infantry")))),
    /// ```
    pub META = ("rules::voluntary-binds", Warning, "attacks are voluntary, yet the rule names whom they bind");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(voluntary_binds(system), sink);
    }
}

/// The report when voluntary attacks name whom they bind.
pub fn voluntary_binds(system: &RulesSystem) -> Vec<Report> {
    let Some(c) = compulsory(system) else {
        return Vec::new();
    };
    if c.attacks != Obligation::Voluntary || c.who.is_none() {
        return Vec::new();
    }
    let at = Place::rules().field("combat").field("compulsory");
    vec![
        Report::new(
            &META,
            at.field("who"),
            format!(
                "attacks are voluntary ({}), so `who` binds nobody",
                c.section
            ),
        )
        .label(Loc::Value(at.field("attacks")), "nothing is compulsory")
        .help("name the obligation `who` is bound by (`EveryAdjacentUnit`, `EveryAdjacentEnemy`), or remove `who`"),
    ]
}
