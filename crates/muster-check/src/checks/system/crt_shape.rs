use muster_db::declare_check;
use muster_db::load::Document;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks the combat results table: each die row has one result per odds column, die
    /// rows are not repeated, and each result is made only of the declared result codes
    /// (`D1R` = `D` + `1` + `R`).
    ///
    /// ## Why is this bad?
    /// A missing cell or an unknown letter is a transcription error that an engine
    /// would turn into a wrong combat result.
    ///
    /// ## Example
    /// ```ron
    /// odds: ["1/2", "1/1", "2/1"],
    /// rows: [
    ///     (die: 1, results: ["DR", "D1"]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// odds: ["1/2", "1/1", "2/1"],
    /// rows: [
    ///     (die: 1, results: ["DR", "D1", "D2"]),
    /// ```
    pub META = ("system::crt-shape", Error, "a combat results table row that does not fit the table");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Document::System(system) = cx.doc else {
        return;
    };
    let Some(crt) = &system.combat_results else {
        return;
    };
    let codes: Vec<&str> = crt.results.iter().map(|r| r.code.as_str()).collect();
    let by = crt.index.words();
    let mut dice = Vec::new();
    for (i, row) in crt.rows.iter().enumerate() {
        let base = Place::crt_row(i);
        if row.results.len() != crt.odds.len() {
            sink.push(
                Report::new(
                    &META,
                    base.field("results"),
                    format!(
                        "die row {} has {} results for {} {by} columns",
                        row.die,
                        row.results.len(),
                        crt.odds.len()
                    ),
                )
                .help(format!("give one result per {by} column")),
            );
        }
        if let Some(first) = dice.iter().position(|d| *d == row.die) {
            sink.push(
                Report::new(
                    &META,
                    base.field("die"),
                    format!("die row {} appears twice", row.die),
                )
                .label(
                    Loc::Value(Place::crt_row(first).field("die")),
                    "first given here",
                )
                .help("give each die roll one row; one of the two die numbers is likely a typo"),
            );
        }
        dice.push(row.die);
        for (k, cell) in row.results.iter().enumerate() {
            if !parses(cell, &codes) {
                sink.push(
                    Report::new(
                        &META,
                        base.field("results").index(k),
                        format!("result `{cell}` is not made of the table's result codes"),
                    )
                    .help(format!("result codes: {}", codes.join(", "))),
                );
            }
        }
    }
}

/// Whether `cell` splits into declared codes (`-` means no effect).
fn parses(cell: &str, codes: &[&str]) -> bool {
    if cell.is_empty() || cell == "-" {
        return true;
    }
    codes
        .iter()
        .any(|c| !c.is_empty() && cell.starts_with(c) && parses(&cell[c.len()..], codes))
}
