use muster_model::system::{CombatResultsTable, CrtIndex, differential_range, odds_ratio};

use muster_db::declare_check;
use muster_db::load::Document;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that the combat results table covers what it is read by. Read by odds,
    /// each column is a ratio (`1/2`, `3-1`, `2:1`), the columns run lowest odds first
    /// with no ratio given twice (`2/1` and `4/2` are one column) and none running
    /// backwards. Read by differential (`index: Differential`), each column is a whole
    /// number or a range (`-3`, `+4`, `-2..-1`), and each starts one above where the
    /// column before ends: no gap, no overlap, none backwards. No die roll between the
    /// lowest and the highest row has no row.
    ///
    /// ## Why is this bad?
    /// Odds are rounded for the defender to the column at or below them, so columns out
    /// of order or repeated give one attack two columns; a differential in a gap has no
    /// column of its own, one in an overlap has two; and a roll with no row has no
    /// result. Most often a heading or a die number is mistyped.
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
    pub META = ("system::crt-coverage", Error, "combat results columns that do not read as odds or differentials, repeat, run backwards or leave a gap, or a die roll with no row");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Document::System(system) = cx.doc else {
        return;
    };
    let Some(crt) = &system.combat_results else {
        return;
    };
    match crt.index {
        CrtIndex::Odds => odds_columns(crt, sink),
        CrtIndex::Differential => differential_columns(crt, sink),
    }
    dice(crt, sink);
}

/// A differential table's columns: each a number or a range, each starting one above
/// where the one before ends.
fn differential_columns(crt: &CombatResultsTable, sink: &mut Sink) {
    // The last column read as a range: its index, heading and range.
    let mut last: Option<(usize, &str, (i32, i32))> = None;
    for (i, heading) in crt.odds.iter().enumerate() {
        let at = Place::top("combat_results").field("odds").index(i);
        let Some((low, high)) = differential_range(heading) else {
            sink.push(
                Report::new(&META, at, format!("differential column `{heading}` is not a whole number or a range"))
                    .help("write attack minus defence strength as a whole number (`-3`, `0`, `+4`) or a range, lowest first (`-2..-1`)"),
            );
            continue;
        };
        if let Some((j, before, (_, end))) = last {
            let before_at = Loc::Value(Place::top("combat_results").field("odds").index(j));
            let (message, label, help) = if low > end.saturating_add(1) {
                let missing = if low == end + 2 {
                    signed(end + 1)
                } else {
                    format!("{} to {}", signed(end + 1), signed(low - 1))
                };
                (
                    format!(
                        "no column reads a differential of {missing}: `{heading}` starts after `{before}` ends"
                    ),
                    "the column before",
                    "start each column one above where the one before ends",
                )
            } else if high <= end {
                (
                    format!(
                        "differential column `{heading}` is not higher than `{before}` before it"
                    ),
                    "a higher column",
                    "list the columns lowest differential first, as printed",
                )
            } else if low <= end {
                (
                    format!(
                        "differential column `{heading}` overlaps `{before}`: both read {} to {}",
                        signed(low),
                        signed(end.min(high))
                    ),
                    "the column it overlaps",
                    "give each differential one column",
                )
            } else {
                last = Some((i, heading, (low, high)));
                continue;
            };
            sink.push(
                Report::new(&META, at, message)
                    .label(before_at, label)
                    .help(help),
            );
        }
        if last.is_none_or(|(_, _, (_, end))| high > end) {
            last = Some((i, heading, (low, high)));
        }
    }
}

/// A differential as printed: `+2`, `0`, `-1`.
fn signed(n: i32) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// An odds table's columns: each a ratio, each higher than the one before.
fn odds_columns(crt: &CombatResultsTable, sink: &mut Sink) {
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
}

/// The die rows: none numbered 0, none missing between the lowest and the highest.
fn dice(crt: &CombatResultsTable, sink: &mut Sink) {
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
