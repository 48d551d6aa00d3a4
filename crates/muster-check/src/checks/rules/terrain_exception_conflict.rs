use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::TerrainEffect;
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;
use muster_semantic::rules::terrain_facts;

declare_check! {
    /// ## What it does
    /// Checks each terrain exception against the terrain it names: a crossing cost
    /// waived (`NoCrossingCost`, `WholeMove`) needs a terrain with a crossing cost;
    /// `RoadOnly` needs a terrain that otherwise prohibits the troop type; fire limited
    /// as for cover (`TargetsOnlyWithin`) needs a terrain that gives cover; and any
    /// other exception needs a troop type that may be there at all.
    ///
    /// ## Why is this bad?
    /// An exception that can never apply is a rule an engine will never use, and most
    /// often means the terrain's own values (its crossing cost, cover or prohibited
    /// list) were transcribed wrongly.
    ///
    /// ## Example
    /// ```ron
    /// (terrain: ["rough"], troops: ["leader"], effect: NoCrossingCost),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (terrain: ["bridge"], troops: ["leader"], effect: NoCrossingCost),
    /// ```
    pub META = ("rules::terrain-exception-conflict", Error, "a terrain exception that contradicts the terrain it names");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(terrain_exception_conflicts(system), sink);
    }
}

/// Exceptions that contradict the terrain they name: a crossing cost waived where there
/// is none, "only by road" for troops the terrain admits anyway, an effect for troops
/// that may not be there at all, fire limited by cover where there is no cover.
pub fn terrain_exception_conflicts(system: &RulesSystem) -> Vec<Report> {
    let rules = &system.rules;
    let mut out = Vec::new();
    let road_only = |terrain: &str, troop: &str| {
        rules.terrain_exceptions.iter().any(|e| {
            e.effect == TerrainEffect::RoadOnly
                && e.terrain.iter().any(|t| t == terrain)
                && e.troops.iter().any(|t| t == troop)
        })
    };
    for (i, e) in rules.terrain_exceptions.iter().enumerate() {
        let base = Place::rules().field("terrain_exceptions").index(i);
        for (k, id) in e.terrain.iter().enumerate() {
            let Some(facts) = terrain_facts(system, id) else {
                continue; // rules::unknown-name
            };
            let at = base.field("terrain").index(k);
            match &e.effect {
                TerrainEffect::NoCrossingCost | TerrainEffect::WholeMove
                    if !facts.crossing_cost =>
                {
                    out.push(
                        Report::new(
                            &META,
                            at.clone(),
                            format!("`{id}` has no crossing cost for this exception to change"),
                        )
                        .label(base.field("effect"), "about the crossing cost")
                        .help(format!(
                            "give `{id}` a `crossing_cost`, or remove it from this exception"
                        )),
                    );
                }
                TerrainEffect::TargetsOnlyWithin(_) if facts.cover == Some(false) => {
                    out.push(
                        Report::new(&META, at.clone(), format!("`{id}` gives no cover, yet fire at targets there is limited as for cover"))
                            .label(base.field("effect"), "a limit for targets in cover")
                            .help(format!("set `cover: true` on `{id}`, or remove it from this exception")),
                    );
                }
                _ => {}
            }
            for (t, troop) in e.troops.iter().enumerate() {
                let kept_out = facts.keeps_out.iter().any(|x| x == troop || x == "*");
                if e.effect == TerrainEffect::RoadOnly {
                    if !facts.keeps_out.iter().any(|x| x == troop) {
                        out.push(
                            Report::new(&META,
                                base.field("troops").index(t),
                                format!("`{troop}` may enter `{id}` anyway, so \"only along a road\" contradicts the terrain"),
                            )
                            .help(format!("add `{troop}` to the `prohibited` list of `{id}`, which this exception then relaxes")),
                        );
                    }
                } else if kept_out && !road_only(id, troop) {
                    out.push(
                        Report::new(&META,
                            base.field("troops").index(t),
                            format!("`{troop}` may not enter `{id}` at all, so an exception for it there never applies"),
                        )
                        .help(format!("remove `{troop}`, or let it enter `{id}` (a `RoadOnly` exception, or the terrain's lists)")),
                    );
                }
            }
        }
    }
    out
}
