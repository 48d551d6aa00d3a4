use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::LineOfSight;
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;
use std::collections::BTreeMap;

declare_check! {
    /// ## What it does
    /// Checks the line of sight's elevations and occupied-hex rules: every elevation
    /// once, every terrain at one elevation, at most one elevation taking the terrain
    /// not listed, one occupied-hex rule per firer elevation, no occupied-hex rules
    /// when units never block, and not both `occupied_blocks` and
    /// `lower_units_block_within`.
    ///
    /// ## Why is this bad?
    /// A hex at two elevations, or two rules for one firer, give two answers to
    /// whether a line of sight is clear.
    ///
    /// ## Example
    /// ```ron
    /// elevations: [
    ///     (id: "ground", name: "Ground level"),
    ///     (id: "slope", name: "Slope", terrain: ["slope", "hilltop"]),
    ///     (id: "hilltop", name: "Hilltop", terrain: ["hilltop"]),
    /// ],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// elevations: [
    ///     (id: "ground", name: "Ground level"),
    ///     (id: "slope", name: "Slope", terrain: ["slope"]),
    ///     (id: "hilltop", name: "Hilltop", terrain: ["hilltop"]),
    /// ],
    /// ```
    pub META = ("rules::sight-conflict", Error, "line-of-sight elevations or occupied-hex rules that contradict each other");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(sight_conflicts(system), sink);
    }
}

/// Elevations that overlap or repeat, occupied-hex rules given twice for one elevation
/// or where units block nothing, and two ways of saying which lower units block.
pub fn sight_conflicts(system: &RulesSystem) -> Vec<Report> {
    let Some(los) = &system.rules.line_of_sight else {
        return Vec::new();
    };
    let base = Place::rules().field("line_of_sight");
    let mut out = Vec::new();
    elevation_problems(los, &base, &mut out);
    occupied_problems(los, &base, &mut out);
    out
}

/// Elevations listed twice, two elevations taking every terrain not listed, and terrain
/// at two elevations.
fn elevation_problems(los: &LineOfSight, base: &Place, out: &mut Vec<Report>) {
    let mut catch_all: Option<usize> = None;
    let mut placed: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, e) in los.elevations.iter().enumerate() {
        if let Some(j) = los.elevations[..i].iter().position(|x| x.id == e.id) {
            out.push(
                Report::new(
                    &META,
                    base.field("elevations").index(i).field("id"),
                    format!("elevation `{}` is listed twice", e.id),
                )
                .label(base.field("elevations").index(j).field("id"), "first here")
                .help("give each elevation once"),
            );
        }
        if e.terrain.is_empty() {
            if let Some(j) = catch_all {
                out.push(
                    Report::new(
                        &META,
                        base.field("elevations").index(i),
                        format!(
                            "elevations `{}` and `{}` both take every terrain not listed",
                            los.elevations[j].id, e.id
                        ),
                    )
                    .label(base.field("elevations").index(j), "also takes the rest")
                    .help("list the terrain of all but one elevation"),
                );
            }
            catch_all = Some(i);
        }
        for (k, t) in e.terrain.iter().enumerate() {
            if let Some(j) = placed.insert(t.as_str(), i)
                && j != i
            {
                out.push(
                    Report::new(
                        &META,
                        base.field("elevations").index(i).field("terrain").index(k),
                        format!(
                            "terrain `{t}` is at two elevations, `{}` and `{}`",
                            los.elevations[j].id, e.id
                        ),
                    )
                    .label(base.field("elevations").index(j), "also here")
                    .help("give each terrain one elevation"),
                );
            }
        }
    }
}

/// Two occupied-hex rules for one elevation, occupied-hex rules where units block
/// nothing, and lower units ruled twice.
fn occupied_problems(los: &LineOfSight, base: &Place, out: &mut Vec<Report>) {
    for (i, o) in los.occupied_blocks.iter().enumerate() {
        if let Some(j) = los.occupied_blocks[..i]
            .iter()
            .position(|x| x.firer_at == o.firer_at)
        {
            out.push(
                Report::new(
                    &META,
                    base.field("occupied_blocks").index(i).field("firer_at"),
                    format!("two rules for firers at `{}`", o.firer_at),
                )
                .label(
                    base.field("occupied_blocks").index(j).field("firer_at"),
                    "first rule",
                )
                .help("merge them into one entry"),
            );
        }
    }
    if !los.occupied_blocks.is_empty() {
        if !los.units_block {
            out.push(
                Report::new(&META,
                    base.field("units_block"),
                    "units never block line of sight, yet `occupied_blocks` says which occupied hexes do",
                )
                .label(base.field("occupied_blocks"), "occupied hexes that block")
                .help("set `units_block: true` or remove `occupied_blocks`"),
            );
        }
        if los.lower_units_block_within.is_some() {
            out.push(
                Report::new(&META,
                    base.field("lower_units_block_within"),
                    "lower units are ruled twice: by `lower_units_block_within` and by `occupied_blocks`",
                )
                .label(base.field("occupied_blocks"), "also decides lower units")
                .help("keep one of the two"),
            );
        }
    }
}
