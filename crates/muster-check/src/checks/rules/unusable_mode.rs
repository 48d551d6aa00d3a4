use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;
use muster_semantic::rules::vocab::admits_kind;

declare_check! {
    /// ## What it does
    /// Checks that every movement mode can be used by at least one unit kind of the
    /// system: its `who` must admit some kind (judged by what it says about troop
    /// types), and it must list at least one cost.
    ///
    /// ## Why is this bad?
    /// A mode no unit may use, or one that enters nothing, is a rule that never comes
    /// into play: most often `who` names the wrong troop type or excludes too much.
    ///
    /// ## Example
    /// ```ron
    /// (id: "road-march", name: "Road march", section: "5.3", who: All([Not(Troop("infantry")), Not(Troop("cavalry")), Not(Troop("baggage"))]), costs: [(on: "road", cost: Points(0.5))]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "road-march", name: "Road march", section: "5.3", who: Not(Troop("cavalry")), costs: [(on: "road", cost: Points(0.5)), (on: "bridge", cost: Points(0.5))], start_on: ["road"], end_on: ["road"], not_adjacent_to_enemy: true),
    /// ```
    pub META = ("rules::unusable-mode", Warning, "a movement mode that no unit kind may use");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(unusable_modes(system), sink);
    }
}

/// A report per movement mode that no unit kind may use or that costs nothing.
pub fn unusable_modes(system: &RulesSystem) -> Vec<Report> {
    let mut out = Vec::new();
    for (i, mode) in system.rules.movement_modes.iter().enumerate() {
        let at = Place::rules().field("movement_modes").index(i);
        if let Some(who) = &mode.who
            && !system
                .unit_kinds
                .iter()
                .any(|k| admits_kind(who, system, k))
        {
            out.push(
                Report::new(
                    &META,
                    at.field("who"),
                    format!(
                        "no unit kind of system `{}` may use movement mode `{}`",
                        system.id, mode.id
                    ),
                )
                .help(format!(
                    "unit kinds: {}",
                    system
                        .unit_kinds
                        .iter()
                        .map(|k| k.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            );
        }
        if mode.costs.is_empty() {
            out.push(
                Report::new(
                    &META,
                    at.field("costs"),
                    format!("movement mode `{}` lists no cost, so it enters nothing", mode.id),
                )
                .help("give a cost per terrain or hexside feature the mode runs on: `costs: [(on: \"road\", cost: Points(0.5))]`"),
            );
        }
    }
    out
}
