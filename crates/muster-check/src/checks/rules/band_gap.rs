use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::{ForceRatio, ResultBand, ResultIndex, ResultTable};
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that the bands of each result table cover every value the table is read
    /// by, each value once: a difference table from any low value up, a margin table
    /// from 0 (a tie) up, with no gap between bands, no overlap and no band running
    /// backwards. The named force ratios must likewise cover every ratio from 1 to 1 up,
    /// each once, and ranges of men per base must not run backwards.
    ///
    /// ## Why is this bad?
    /// A roll that falls in a gap has no result, and one that falls in two bands has
    /// two: either way the table as written cannot be played, and it is most often a
    /// mistyped bound.
    ///
    /// ## Example
    /// ```ron
    /// (from: Some(1), to: Some(3), result: LoseLevels(1)),
    /// (from: Some(5), to: Some(5), result: LoseLevels(2)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (from: Some(1), to: Some(3), result: LoseLevels(1)),
    /// (from: Some(4), to: Some(5), result: LoseLevels(2)),
    /// ```
    pub META = ("rules::band-gap", Error, "result bands or force ratios that leave a gap, overlap or run backwards");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(band_problems(system), sink);
    }
}

fn show(v: Option<i16>) -> String {
    v.map_or("no bound".to_string(), |v| v.to_string())
}

/// Gaps, overlaps and backward bands in a result table.
fn table_band_problems(t: usize, table: &ResultTable) -> Vec<Report> {
    let base = Place::rules().field("result_tables").index(t);
    let mut out = Vec::new();
    if table.bands.is_empty() {
        out.push(
            Report::new(
                &META,
                base.field("bands"),
                format!("result table `{}` has no bands", table.id),
            )
            .help("give the bands from the lowest value up"),
        );
        return out;
    }
    for (b, band) in table.bands.iter().enumerate() {
        if let (Some(from), Some(to)) = (band.from, band.to)
            && from > to
        {
            out.push(
                Report::new(
                    &META,
                    base.field("bands").index(b).field("to"),
                    format!("band {from} to {to} of table `{}` runs backwards", table.id),
                )
                .help("give the lower value in `from` and the higher in `to`"),
            );
        }
    }
    let first = &table.bands[0];
    match (table.by, first.from) {
        (ResultIndex::Difference, Some(from)) => out.push(
            Report::new(&META,
                base.field("bands").index(0).field("from"),
                format!(
                    "table `{}` gives no result for a difference below {from}",
                    table.id
                ),
            )
            .help("a difference can be any number: leave `from` out of the first band"),
        ),
        (ResultIndex::Margin, from) if from != Some(0) => out.push(
            Report::new(&META,
                base.field("bands").index(0),
                format!(
                    "table `{}` is read by margin, which starts at 0 (a tie), but its first band starts at {}",
                    table.id,
                    show(from)
                ),
            )
            .help("start the first band at `from: Some(0)`"),
        ),
        _ => {}
    }
    for (b, pair) in table.bands.windows(2).enumerate() {
        band_pair_problems(&base, table, b, &pair[0], &pair[1], &mut out);
    }
    let last = table.bands.len() - 1;
    if let Some(to) = table.bands[last].to {
        out.push(
            Report::new(
                &META,
                base.field("bands").index(last).field("to"),
                format!(
                    "table `{}` gives no result for a value above {to}",
                    table.id
                ),
            )
            .help("leave `to` out of the last band so that it runs to any higher value"),
        );
    }
    out
}

/// Gaps and overlaps in the force ratios: together they must cover every ratio from 1
/// (equal counts) up, each once.
fn ratio_problems(ratios: &[ForceRatio]) -> Vec<Report> {
    let base = Place::rules().field("force_ratios");
    let mut out = Vec::new();
    let Some(first) = ratios.first() else {
        return out;
    };
    for (i, r) in ratios.iter().enumerate() {
        if let Some(to) = r.to
            && (to < r.from || (to == r.from && (r.from_exclusive || !r.to_inclusive)))
        {
            out.push(
                Report::new(
                    &META,
                    base.index(i).field("to"),
                    format!(
                        "force ratio `{}` holds no ratio: it runs from {} to {to}",
                        r.name, r.from
                    ),
                )
                .help("give the lower ratio in `from` and the higher in `to`"),
            );
        }
    }
    if first.from != 1.0 || first.from_exclusive {
        out.push(
            Report::new(
                &META,
                base.index(0).field("from"),
                format!(
                    "no force ratio covers equal numbers (1 to 1): the first, `{}`, starts {} {}",
                    first.name,
                    if first.from_exclusive { "above" } else { "at" },
                    first.from
                ),
            )
            .help("start the first ratio at `from: 1.0`"),
        );
    }
    for (i, pair) in ratios.windows(2).enumerate() {
        ratio_pair_problems(&base, i, &pair[0], &pair[1], &mut out);
    }
    if let Some(last) = ratios.last()
        && let Some(to) = last.to
    {
        out.push(
            Report::new(
                &META,
                base.index(ratios.len() - 1).field("to"),
                format!("no force ratio covers ratios above {to}"),
            )
            .help("leave `to` out of the last ratio"),
        );
    }
    out
}

/// Result bands and force ratios that leave a gap, overlap or run backwards, and ranges
/// of men that run backwards.
pub fn band_problems(system: &RulesSystem) -> Vec<Report> {
    let rules = &system.rules;
    let mut out: Vec<Report> = rules
        .result_tables
        .iter()
        .enumerate()
        .flat_map(|(t, table)| table_band_problems(t, table))
        .collect();
    out.extend(ratio_problems(&rules.force_ratios));
    if let Some(r) = &rules.representation {
        for (field, range) in [("mounted", r.mounted), ("foot", r.foot)] {
            if range.min > range.max {
                out.push(
                    Report::new(
                        &META,
                        Place::rules()
                            .field("representation")
                            .field(field)
                            .field("max"),
                        format!(
                            "a {field} base stands for {} to {} men: the range runs backwards",
                            range.min, range.max
                        ),
                    )
                    .help("give the fewest men in `min` and the most in `max`"),
                );
            }
        }
    }
    out
}

/// A gap or an overlap between two bands of a table, `b` and the one after it.
fn band_pair_problems(
    base: &Place,
    table: &ResultTable,
    b: usize,
    prev: &ResultBand,
    next: &ResultBand,
    out: &mut Vec<Report>,
) {
    let at = base.field("bands").index(b + 1).field("from");
    let prev_at = base.field("bands").index(b);
    match (prev.to, next.from) {
        (None, _) => out.push(
            Report::new(
                &META,
                base.field("bands").index(b + 1),
                format!(
                    "band {} of table `{}` overlaps the band before it, which has no upper bound",
                    b + 2,
                    table.id
                ),
            )
            .label(prev_at, "no upper bound")
            .help("give the earlier band a `to`, or remove this one"),
        ),
        (Some(_), None) => out.push(
            Report::new(
                &META,
                base.field("bands").index(b + 1),
                format!(
                    "band {} of table `{}` has no lower bound, so it overlaps the bands before it",
                    b + 2,
                    table.id
                ),
            )
            .help("only the first band may leave out `from`"),
        ),
        (Some(to), Some(from)) if i32::from(from) > i32::from(to) + 1 => out.push(
            Report::new(
                &META,
                at,
                format!(
                    "table `{}` gives no result for {}",
                    table.id,
                    if i32::from(from) == i32::from(to) + 2 {
                        format!("a value of {}", i32::from(to) + 1)
                    } else {
                        format!("values {} to {}", i32::from(to) + 1, i32::from(from) - 1)
                    }
                ),
            )
            .label(prev_at.field("to"), "the band before ends here")
            .help(format!("start this band at {}", i32::from(to) + 1)),
        ),
        (Some(to), Some(from)) if from <= to => out.push(
            Report::new(
                &META,
                at,
                format!(
                    "table `{}` gives two results for {}",
                    table.id,
                    if from == to {
                        format!("a value of {from}")
                    } else {
                        format!("values {from} to {to}")
                    }
                ),
            )
            .label(prev_at.field("to"), "the band before ends here")
            .help(format!("start this band at {}", i32::from(to) + 1)),
        ),
        _ => {}
    }
}

/// A gap or an overlap between two force ratios, `i` and the one after it.
fn ratio_pair_problems(
    base: &Place,
    i: usize,
    prev: &ForceRatio,
    next: &ForceRatio,
    out: &mut Vec<Report>,
) {
    let at = base.index(i + 1).field("from");
    let Some(to) = prev.to else {
        out.push(
            Report::new(
                &META,
                base.index(i + 1),
                format!(
                    "force ratio `{}` overlaps `{}`, which has no upper bound",
                    next.name, prev.name
                ),
            )
            .label(base.index(i), "no upper bound"),
        );
        return;
    };
    let boundary_in_prev = prev.to_inclusive;
    let boundary_in_next = !next.from_exclusive;
    if next.from > to || (next.from == to && !boundary_in_prev && !boundary_in_next) {
        out.push(
            Report::new(&META,
                at,
                format!(
                    "no force ratio covers {} between `{}` and `{}`",
                    if next.from > to {
                        format!("ratios from {to} to {}", next.from)
                    } else {
                        format!("a ratio of exactly {to}")
                    },
                    prev.name,
                    next.name
                ),
            )
            .label(base.index(i).field("to"), "the ratio before ends here")
            .help("make each band start where the one before ends, the boundary in exactly one of them"),
        );
    } else if next.from < to || (boundary_in_prev && boundary_in_next) {
        out.push(
            Report::new(&META,
                at,
                format!(
                    "force ratios `{}` and `{}` both cover {}",
                    prev.name,
                    next.name,
                    if next.from < to {
                        format!("ratios from {} to {to}", next.from)
                    } else {
                        format!("a ratio of exactly {to}")
                    }
                ),
            )
            .label(base.index(i).field("to"), "the ratio before ends here")
            .help("make each band start where the one before ends, the boundary in exactly one of them"),
        );
    }
}
