use smallvec::SmallVec;

use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Counts the hexes of a deployment zone that its units may enter (terrain,
    /// prohibitions such as fleets only at sea) and checks that they can hold the group at
    /// the scenario's stacking limit (leaders do not count; `stacking-override` rules raise
    /// the limit of the kinds they name). Units of classes that never share a hex (PRESTAGS
    /// A, B, C) need hexes of their own, so the zone must also have enough hexes for each
    /// class group on its own. Groups aboard fleets or entering during play are not set up
    /// in a zone and are skipped.
    ///
    /// ## Why is this bad?
    /// If the zone is too small the setup instruction cannot be carried out; usually the
    /// radius, the label or a count is wrong.
    ///
    /// ## Example
    /// ```ron
    /// units: [(kind: "HC", count: 2), (kind: "HB", count: 1), (kind: "2L", count: 1)],
    /// zone: Near(label: "C", radius: 0), // one hex for three units
    /// stacking_limit: 2,
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// units: [(kind: "HC", count: 2), (kind: "HB", count: 1), (kind: "2L", count: 1)],
    /// zone: Near(label: "C", radius: 1), // seven hexes
    /// stacking_limit: 2,
    /// ```
    pub META = ("zones::too-small", Error, "a deployment zone cannot hold its units");
}

/// Unit lines summed per kind, in the order each kind is first given: the check's cost
/// then grows with the kinds of a group, not with how many lines repeat them.
fn per_kind<'a>(
    lines: impl Iterator<Item = &'a muster_model::scenario::TypeCount>,
) -> SmallVec<[(&'a str, u32); 8]> {
    let mut out: SmallVec<[(&str, u32); 8]> = SmallVec::new();
    let mut at: foldhash::HashMap<&str, usize> = foldhash::HashMap::default();
    for u in lines {
        let i = *at.entry(u.kind.as_str()).or_insert_with(|| {
            out.push((u.kind.as_str(), 0));
            out.len() - 1
        });
        out[i].1 = out[i].1.saturating_add(u32::from(u.count));
    }
    out
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(map) = cx.map else {
        return;
    };
    for side in cx.zoned_sides() {
        // What the side's other groups list, summed per kind once (a kind may be listed
        // on many lines; scanning every line per unit would cost lines squared).
        let mut listed: foldhash::HashMap<&str, u32> = foldhash::HashMap::default();
        for u in side.forces.deploy.iter().flat_map(|d| d.units.iter()) {
            let n = listed.entry(u.kind.as_str()).or_default();
            *n = n.saturating_add(u32::from(u.count));
        }
        for (k, d) in side.forces.deploy.iter().enumerate() {
            let (Some(zone), None, None) = (&d.zone, &d.aboard, &d.arrives) else {
                continue;
            };
            let Ok(hexes) = cx.zone_hexes(zone) else {
                continue;
            };
            // The group's units, one entry per kind in the order first given: listed, or
            // the whole force less what other groups list.
            let mut units = if d.units.is_empty() {
                let mut whole = per_kind(side.forces.units.iter());
                for (kind, n) in &mut whole {
                    *n = n.saturating_sub(listed.get(kind).copied().unwrap_or(0));
                }
                whole
            } else {
                per_kind(d.units.iter())
            };
            units.retain(|(kind, n)| *n > 0 && cx.counts_for_stacking(kind));
            let limit = u32::from(side.forces.stacking_limit);
            let place = || side.place.field("deploy").index(k).field("zone");
            // Per kind, once: its stacking limit and the zone's hexes it may enter.
            let limits: SmallVec<[u32; 8]> = units
                .iter()
                .map(|(kind, _)| {
                    u32::from(cx.stacking_limit(side.index, kind, side.forces.stacking_limit))
                })
                .collect();
            // Whether kind `u` may enter hex `h`, at `u * hexes.len() + h`; each hex's
            // terrain is looked up once for all kinds.
            let terrain: Vec<Option<usize>> =
                hexes.iter().map(|h| map.terrain_index_at(*h)).collect();
            let enters: Vec<bool> = units
                .iter()
                .flat_map(|(kind, _)| {
                    let entry = cx.entry(kind);
                    let terrain = &terrain;
                    hexes
                        .iter()
                        .zip(terrain)
                        .map(move |(h, t)| entry.may_enter_at(*h, *t))
                })
                .collect();
            let enters = |u: usize, h: usize| enters[u * hexes.len() + h];
            let mut total = 0;
            for (u, (kind, n)) in units.iter().enumerate() {
                let room = (0..hexes.len()).filter(|&h| enters(u, h)).count() as u32 * limits[u];
                if *n > room {
                    sink.push(
                        Report::new(&META, place(), format!("the zone has room for {room} `{kind}` but {n} set up there"))
                            .help("check the zone's label and radius, the unit counts and the stacking limit"),
                    );
                }
                total = n.saturating_add(total);
            }
            // Each hex holds at most the highest limit among the kinds that may enter it
            // (a `stacking-override` rule raises the limit of the kinds it names).
            let per_hex = |h: usize| {
                (0..units.len())
                    .filter(|&u| enters(u, h))
                    .map(|u| limits[u].max(1))
                    .max()
                    .unwrap_or(0)
            };
            let room: u32 = (0..hexes.len()).map(per_hex).sum();
            let raised = limits.iter().any(|l| *l > limit);
            if total > room && units.len() > 1 {
                let message = if raised {
                    format!(
                        "the zone holds at most {room} units, `stacking-override` limits included, but {total} set up there"
                    )
                } else {
                    format!(
                        "the zone holds {room} units at {limit} per hex but {total} set up there"
                    )
                };
                sink.push(
                    Report::new(&META, place(), message)
                        .label(Loc::Value(side.place.field("stacking_limit")), "stacking limit")
                        .help("check the zone's label and radius, the unit counts and the stacking limit"),
                );
                continue;
            }
            // Classes that belong to one compatibility group only (A, B, C + Mf) can never
            // share a hex with another group's: each group needs hexes of its own.
            if raised {
                continue;
            }
            let Some(muster_model::system::StackingPolicy::PerSideLimit { compatible, .. }) =
                cx.system.map(|s| &s.stacking)
            else {
                continue;
            };
            let mut needed = 0;
            for group in compatible {
                let own: u32 = units
                    .iter()
                    .filter(|(kind, _)| {
                        cx.class_of(kind).is_some_and(|c| {
                            group.iter().any(|g| g == c)
                                && compatible
                                    .iter()
                                    .filter(|other| other.iter().any(|g| g == c))
                                    .count()
                                    == 1
                        })
                    })
                    .map(|(_, n)| *n)
                    .sum();
                needed += own.div_ceil(limit.max(1));
            }
            let usable = (0..hexes.len())
                .filter(|&h| (0..units.len()).any(|u| enters(u, h)))
                .count() as u32;
            if needed > usable {
                sink.push(
                    Report::new(&META, place(), format!("classes that may not share a hex need at least {needed} hexes at {limit} per hex, but the zone has {usable}"))
                        .label(Loc::Value(side.place.field("stacking_limit")), "stacking limit")
                        .note("A, B and C units never stack together (PRESTAGS 5.32)")
                        .help("check the zone's label and radius, the unit counts and the stacking limit"),
                );
            }
        }
    }
}
