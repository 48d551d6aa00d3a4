use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_model::combat::DefenderGroup;
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;
use muster_semantic::rules::combat::lone_unit_cannot_comply;

declare_check! {
    /// ## What it does
    /// Checks that an obligation to attack every enemy next to a phasing unit
    /// (`compulsory: (attacks: EveryAdjacentEnemy)`) can be met by a lone unit: with
    /// one attack a phase (`each_attacker_once: true`), one combat must then be able to
    /// take defenders in several hexes (`combined: (defenders: MultiHex)`).
    ///
    /// ## Why is this bad?
    /// A lone unit next to enemies in two hexes must see both attacked, may attack only
    /// once, and one attack takes one hex (or one unit): no play keeps every rule. The
    /// rulebooks that make such attacks compulsory let one attack take several hexes.
    ///
    /// ## Example
    /// ```ron
    /// combined: Some((section: "7.2", attackers: true, defenders: OneHex)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// combined: Some((section: "7.2", attackers: true, defenders: MultiHex)),
    /// ```
    pub META = ("rules::compulsory-unmeetable", Warning, "every adjacent enemy must be attacked, but a lone unit attacks once and one hex at a time");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(unmeetable(system), sink);
    }
}

/// The report when a lone unit can never meet the obligation.
pub fn unmeetable(system: &RulesSystem) -> Vec<Report> {
    let Some(combat) = system.rules.combat.as_ref() else {
        return Vec::new();
    };
    let Some(group) = lone_unit_cannot_comply(combat) else {
        return Vec::new();
    };
    let one = match group {
        DefenderGroup::OneDefender => "one defending unit",
        DefenderGroup::OneHex | DefenderGroup::MultiHex => "the units of one hex",
    };
    let at = Place::rules().field("combat");
    vec![
        Report::new(
            &META,
            at.field("combined").field("defenders"),
            format!(
                "every adjacent enemy must be attacked, but a unit attacks once a phase and an attack takes {one}: a lone unit next to enemies in two hexes cannot comply"
            ),
        )
        .label(
            Loc::Value(at.field("compulsory").field("attacks")),
            "every adjacent enemy attacked",
        )
        .label(
            Loc::Value(at.field("once_per_phase").field("each_attacker_once")),
            "one attack a phase",
        )
        .help("let one attack take several hexes (`defenders: MultiHex`), or a unit attack more than once"),
    ]
}
