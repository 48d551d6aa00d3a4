use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::system::RulesSystem;
use muster_model::vocab::{Condition, Effect};
use muster_semantic::FileCx;
use muster_semantic::rules::terrain_facts;
use muster_semantic::rules::vocab::{PlacedRule, effect_rules, positive_leaves};

declare_check! {
    /// ## What it does
    /// Checks each rule whose effect is about the ground the unit stands on or passes
    /// (`NoCrossingCost`, `WholeMove`, `RoadOnly`, `ShotOnlyWithin`) against the terrain
    /// its condition names with `InTerrain`: a crossing cost waived, or a whole move to
    /// pass, needs a terrain with a crossing cost; `RoadOnly` needs a terrain that
    /// otherwise keeps out the troop types the rule names; fire limited as for cover
    /// needs a terrain that gives cover; and the rule's troop types must be able to
    /// stand on the terrain at all (a `RoadOnly` rule lets them). A rule of these
    /// effects whose condition names no terrain is reported too.
    ///
    /// ## Why is this bad?
    /// A terrain rule that can never apply is a rule an engine will never use, and most
    /// often means the terrain's own values (its crossing cost, cover or prohibited
    /// list) were transcribed wrongly. Without a terrain in its condition, the rule
    /// would waive every crossing cost or limit every shot, wherever the unit stands.
    ///
    /// ## Example
    /// ```ron
    /// effects: [(id: "leaders-pass", section: "l. 92", when: Some(All([Troop("leader"), InTerrain("rough")])), then: [NoCrossingCost])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// effects: [(id: "leaders-pass", section: "l. 92", when: Some(All([Troop("leader"), InTerrain("bridge")])), then: [NoCrossingCost]), (id: "woods-cover", section: "l. 64", when: Some(InTerrain("woods")), then: [ShotOnlyWithin(8.0)])],
    /// ```
    pub META = ("rules::terrain-exception-conflict", Error, "a terrain rule that contradicts the terrain it names");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(terrain_exception_conflicts(system), sink);
    }
}

/// Whether an effect is about the ground the unit stands on or passes.
fn is_terrain_effect(e: &Effect) -> bool {
    matches!(
        e,
        Effect::NoCrossingCost | Effect::WholeMove | Effect::RoadOnly | Effect::ShotOnlyWithin(_)
    )
}

/// Names of one kind in a condition, each with its place.
type Named<'a> = Vec<(Place, &'a str)>;

/// The terrain (`InTerrain`) and the troop types (`Troop`) a rule's condition names,
/// outside any `Not`, each with its place.
fn named<'a>(r: &PlacedRule<'a>) -> (Named<'a>, Named<'a>) {
    let (mut terrain, mut troops) = (Vec::new(), Vec::new());
    if let Some(c) = &r.rule.when {
        for (at, leaf) in positive_leaves(c, &r.at.field("when")) {
            match leaf {
                Condition::InTerrain(t) => terrain.push((at.variant("InTerrain"), t.as_str())),
                Condition::Troop(t) => troops.push((at.variant("Troop"), t.as_str())),
                _ => {}
            }
        }
    }
    (terrain, troops)
}

/// Terrain rules that contradict the terrain they name: a crossing cost waived where
/// there is none, "only by road" for troops the terrain admits anyway, a rule for troops
/// that may not be there at all, fire limited by cover where there is no cover, and a
/// terrain rule that names no terrain.
pub fn terrain_exception_conflicts(system: &RulesSystem) -> Vec<Report> {
    let rules = effect_rules(system);
    let road_only: Vec<(&str, &str)> = rules
        .iter()
        .filter(|r| r.rule.then.contains(&Effect::RoadOnly))
        .flat_map(|r| {
            let (terrain, troops) = named(r);
            let troops: Vec<&str> = troops.iter().map(|(_, t)| *t).collect();
            terrain
                .into_iter()
                .flat_map(move |(_, t)| troops.clone().into_iter().map(move |x| (t, x)))
        })
        .collect();
    let mut out = Vec::new();
    for r in &rules {
        let effects: Vec<(usize, &Effect)> = r
            .rule
            .then
            .iter()
            .enumerate()
            .filter(|(_, e)| is_terrain_effect(e))
            .collect();
        let Some(&(first, _)) = effects.first() else {
            continue;
        };
        let (terrain, mut troops) = named(r);
        if terrain.is_empty() {
            let at_effect = r.at.field("then").index(first);
            let at = r
                .rule
                .when
                .as_ref()
                .map_or(at_effect.clone(), |_| r.at.field("when"));
            out.push(
                Report::new(
                    &META,
                    at,
                    format!("{} names no terrain for its effect to belong to", r.what),
                )
                .label(at_effect, "an effect of the ground")
                .help("add the terrain to the condition: `All([..., InTerrain(\"bridge\")])`"),
            );
            continue;
        }
        if troops.is_empty() {
            troops.push((r.at.field("when"), "*"));
        }
        for (k, effect) in effects {
            let at_effect = r.at.field("then").index(k);
            for (at, id) in &terrain {
                let Some(facts) = terrain_facts(system, id) else {
                    continue; // rules::unknown-name
                };
                out.extend(ground_conflict(r, effect, &at_effect, at, id, &facts));
                for (troop_at, troop) in &troops {
                    let kept_out = facts.keeps_out.iter().any(|x| x == troop || x == "*");
                    if *effect == Effect::RoadOnly {
                        if !facts.keeps_out.iter().any(|x| x == troop) {
                            out.push(
                                Report::new(&META, troop_at.clone(),
                                    format!("`{troop}` may enter `{id}` anyway, so \"only along a road\" in {} contradicts the terrain", r.what),
                                )
                                .help(format!("add `{troop}` to the `prohibited` list of `{id}`, which this rule then relaxes")),
                            );
                        }
                    } else if kept_out && !road_only.contains(&(*id, *troop)) {
                        out.push(
                            Report::new(&META, troop_at.clone(),
                                format!("`{troop}` may not enter `{id}` at all, so {} never applies", r.what),
                            )
                            .help(format!("name other troops, or let `{troop}` enter `{id}` (a `RoadOnly` rule, or the terrain's lists)")),
                        );
                    }
                }
            }
        }
    }
    out
}

/// What the terrain itself says against an effect: no crossing cost to waive, or no
/// cover to limit fire by.
fn ground_conflict(
    r: &PlacedRule,
    effect: &Effect,
    at_effect: &Place,
    at: &Place,
    id: &str,
    facts: &muster_semantic::rules::TerrainFacts,
) -> Option<Report> {
    match effect {
        Effect::NoCrossingCost | Effect::WholeMove if !facts.crossing_cost => Some(
            Report::new(
                &META,
                at.clone(),
                format!("`{id}` has no crossing cost for {} to change", r.what),
            )
            .label(at_effect.clone(), "about the crossing cost")
            .help(format!(
                "give `{id}` a `crossing_cost`, or name another terrain in the condition"
            )),
        ),
        Effect::ShotOnlyWithin(_) if facts.cover == Some(false) => Some(
            Report::new(
                &META,
                at.clone(),
                format!(
                    "`{id}` gives no cover, yet {} limits fire at targets there as for cover",
                    r.what
                ),
            )
            .label(at_effect.clone(), "a limit for targets in cover")
            .help(format!(
                "set `cover: true` on `{id}`, or name another terrain in the condition"
            )),
        ),
        _ => None,
    }
}
