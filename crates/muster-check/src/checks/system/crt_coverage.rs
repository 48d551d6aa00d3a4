use muster_model::system::odds_ratio;

use muster_db::declare_check;
use muster_db::load::Document;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that the combat results table, read by odds, covers what it is read by:
    /// each odds column is a ratio (`1/2`, `3-1`, `2:1`), the columns run lowest odds
    /// first with no ratio given twice (`2/1` and `4/2` are one column) and none running
    /// backwards, and no die roll between the lowest and the highest row has no row.
    ///
    /// ## Why is this bad?
    /// Odds are rounded for the defender to the column at or below them, so columns out
    /// of order or repeated give one attack two columns, and a roll with no row has no
    /// result; most often a heading or a die number is mistyped.
    ///
    /// ## Example
    /// ```ron
    /// odds: ["1/2", "2/1", "1/1"],
    /// rows: [
    ///     (die: 1, results: ["DR", "D1", "D2"]),
    ///     (die: 3, results: ["AR", "DT", "D1R"]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// odds: ["1/2", "1/1", "2/1"],
    /// rows: [
    ///     (die: 1, results: ["DR", "D1", "D2"]),
    ///     (die: 2, results: ["AR", "DT", "D1R"]),
    /// ```
    pub META = ("system::crt-coverage", Error, "odds columns that are not ratios, repeat or run backwards, or a die roll with no row");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Document::System(system) = cx.doc else {
        return;
    };
    let Some(crt) = &system.combat_results else {
        return;
    };
    // The last column read as a ratio: its index, heading and ratio.
    let mut last: Option<(usize, &str, (u32, u32))> = None;
    for (i, heading) in crt.odds.iter().enumerate() {
        let at = Place::top("combat_results").field("odds").index(i);
        let Some((a, d)) = odds_ratio(heading) else {
            sink.push(
                Report::new(&META, at, format!("odds column `{heading}` is not a ratio"))
                    .help("write attacker to defender as two whole numbers above 0: `1/2`, `3-1`"),
            );
            continue;
        };
        if let Some((j, before, (pa, pd))) = last {
            // a/d against pa/pd, in whole numbers.
            let (this, that) = (u64::from(a) * u64::from(pd), u64::from(pa) * u64::from(d));
            if this == that {
                sink.push(
                    Report::new(
                        &META,
                        at.clone(),
                        format!("odds column `{heading}` is the same ratio as `{before}`"),
                    )
                    .label(
                        Loc::Value(Place::top("combat_results").field("odds").index(j)),
                        "the same odds",
                    )
                    .help("give each ratio one column"),
                );
            } else if this < that {
                sink.push(
                    Report::new(
                        &META,
                        at.clone(),
                        format!("odds column `{heading}` is lower than `{before}` before it"),
                    )
                    .label(
                        Loc::Value(Place::top("combat_results").field("odds").index(j)),
                        "higher odds",
                    )
                    .help("list the columns lowest odds first, as printed"),
                );
            }
        }
        if last.is_none_or(|(_, _, (pa, pd))| {
            u64::from(a) * u64::from(pd) > u64::from(pa) * u64::from(d)
        }) {
            last = Some((i, heading, (a, d)));
        }
    }
    let mut dice: Vec<(u8, usize)> = crt
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.die, i))
        .collect();
    for &(die, i) in &dice {
        if die == 0 {
            sink.push(
                Report::new(&META, Place::crt_row(i).field("die"), "no die rolls 0")
                    .help("number the rows by the roll of the die, from 1"),
            );
        }
    }
    dice.sort_unstable();
    dice.dedup_by_key(|(d, _)| *d); // a repeated row is system::crt-shape
    let (Some(&(low, _)), Some(&(high, _))) = (dice.first(), dice.last()) else {
        return;
    };
    for pair in dice.windows(2) {
        let ((below, _), (above, i)) = (pair[0], pair[1]);
        if above > below + 1 {
            let missing = if above == below + 2 {
                format!("die roll {}", below + 1)
            } else {
                format!("die rolls {} to {}", below + 1, above - 1)
            };
            sink.push(
                Report::new(
                    &META,
                    Place::crt_row(i).field("die"),
                    format!("no row for {missing} (the rows run from {low} to {high})"),
                )
                .help("give every roll between the lowest and the highest its row"),
            );
        }
    }
}
