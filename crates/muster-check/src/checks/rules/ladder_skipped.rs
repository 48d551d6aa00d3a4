use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::{BandResult, BeyondFloor, Rules, StatusLadder};
use muster_semantic::FileCx;
use std::collections::BTreeMap;

declare_check! {
    /// ## What it does
    /// Checks that the status ladder and the results that walk it fit together: at
    /// least two levels, none repeated; no result losing more levels than the ladder
    /// has above a floor with nothing beyond it; every level below the floor reached
    /// by some result (or by the share of bases lost, for a level that removes the
    /// unit); and recoveries of a size the ladder allows. A rule waiting for more levels
    /// lost than a table inflicts (`LosesLevels`) is `rules::never-holds`'s.
    ///
    /// ## Why is this bad?
    /// Levels lost past the end of the ladder vanish, a level nothing reaches is dead
    /// data: each is a transcription slip in the ladder or the table.
    ///
    /// ## Example
    /// ```ron
    /// (from: Some(8), result: LoseLevels(4)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (from: Some(8), result: ToLevel("destroyed")),
    /// ```
    pub META = ("rules::ladder-skipped", Error, "a status ladder that results run past or never reach");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(ladder_problems(&system.rules), sink);
    }
}

/// A ladder that results skip: too few or repeated levels, losses that run past the
/// floor with nothing beyond it, levels nothing reaches, recoveries of impossible
/// size.
pub fn ladder_problems(rules: &Rules) -> Vec<Report> {
    let mut out = Vec::new();
    if let Some(ladder) = &rules.status {
        level_problems(ladder, &mut out);
        if let Some(floor) = ladder.floor_index() {
            floor_problems(rules, ladder, floor, &mut out);
        }
        recovery_problems(ladder, &mut out);
    }
    out
}

/// Too few levels, and a level given twice.
fn level_problems(ladder: &StatusLadder, out: &mut Vec<Report>) {
    let base = Place::rules().field("status");
    if ladder.levels.len() < 2 {
        out.push(
            Report::new(
                &META,
                base.field("levels"),
                "a status ladder needs at least two levels",
            )
            .help("list the levels from best to worst"),
        );
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, l) in ladder.levels.iter().enumerate() {
        if let Some(first) = seen.get(l.id.as_str()) {
            out.push(
                Report::new(
                    &META,
                    base.field("levels").index(i).field("id"),
                    format!("status level `{}` is given twice", l.id),
                )
                .label(
                    base.field("levels").index(*first).field("id"),
                    "first given here",
                ),
            );
        } else {
            seen.insert(&l.id, i);
        }
    }
}

/// A floor that removes the unit with a cost beyond it, levels below the floor that
/// nothing reaches, and losses that run past the floor with nothing beyond it.
fn floor_problems(rules: &Rules, ladder: &StatusLadder, floor: usize, out: &mut Vec<Report>) {
    let base = Place::rules().field("status");
    let floor_level = &ladder.levels[floor];
    if ladder.beyond_floor.is_some() && floor_level.removes {
        out.push(
            Report::new(&META,
                base.field("beyond_floor"),
                format!(
                    "levels lost beyond the floor cost {}, but the floor `{}` already removes the unit",
                    match ladder.beyond_floor {
                        Some(BeyondFloor::LoseBase) => "a base",
                        None => "nothing",
                    },
                    floor_level.id
                ),
            )
            .help("set `floor` to the last level a unit keeps playing at"),
        );
    }
    // Levels below the floor are reached only by name.
    for (i, l) in ladder.levels.iter().enumerate().skip(floor + 1) {
        let named = rules.result_tables.iter().any(|t| {
            t.bands
                .iter()
                .any(|b| matches!(&b.result, BandResult::ToLevel(x) if x == &l.id))
        });
        let by_share = l.removes && ladder.removed_at_share_lost.is_some();
        if !named && !by_share {
            out.push(
                Report::new(&META,
                    base.field("levels").index(i),
                    format!(
                        "status level `{}` is never reached: losses stop at the floor `{}` and no result names it",
                        l.id, floor_level.id
                    ),
                )
                .help("name it in a result (`ToLevel`), or give `removed_at_share_lost` if it removes the unit"),
            );
        }
    }
    // Losses that run past the floor with nothing beyond it.
    if ladder.beyond_floor.is_none() && !floor_level.removes {
        for (t, table) in rules.result_tables.iter().enumerate() {
            for (b, band) in table.bands.iter().enumerate() {
                if let Some(n) = band.result.levels_lost()
                    && usize::from(n) > floor
                {
                    let variant = match band.result {
                        BandResult::BothLoseLevels(_) => "BothLoseLevels",
                        _ => "LoseLevels",
                    };
                    out.push(
                        Report::new(&META,
                            Place::rules().field("result_tables").index(t).field("bands").index(b).field("result").variant(variant),
                            format!(
                                "a result of {n} levels runs past the status ladder, whose floor `{}` is {floor} levels down and has nothing beyond it",
                                floor_level.id
                            ),
                        )
                        .help("give the ladder a `beyond_floor`, or a level that removes the unit"),
                    );
                }
            }
        }
    }
}

/// Recoveries that restore no level or more levels than the ladder has.
fn recovery_problems(ladder: &StatusLadder, out: &mut Vec<Report>) {
    let base = Place::rules().field("status");
    let top = ladder.levels.len().saturating_sub(1);
    for (i, r) in ladder.recovery.iter().enumerate() {
        if r.levels.is_empty() {
            out.push(
                Report::new(
                    &META,
                    base.field("recovery").index(i).field("levels"),
                    format!("recovery by `{}` restores no level", r.by),
                )
                .help("give the levels one success restores (`[1, 2]`)"),
            );
        }
        for (k, n) in r.levels.iter().enumerate() {
            if *n == 0 || usize::from(*n) > top {
                out.push(
                    Report::new(&META,
                        base.field("recovery").index(i).field("levels").index(k),
                        format!(
                            "recovery by `{}` restores {n} levels, but the ladder has {top} levels above its worst",
                            r.by
                        ),
                    )
                    .help(format!("restore 1 to {top} levels")),
                );
            }
        }
    }
}
