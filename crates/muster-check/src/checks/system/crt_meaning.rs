use muster_db::declare_check;
use muster_db::load::Document;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::system::{CombatResultsTable, ResultEffect};
use muster_semantic::FileCx;
use muster_semantic::rules::result_parts;

declare_check! {
    /// ## What it does
    /// Checks the typed meanings of the combat results table's codes (`effects`): once
    /// one code has them, every code must; and each result of the table, read code by
    /// code, must say whom (an `Attacker` or `Defender` code, or a code that names its
    /// side itself) before what befalls them.
    ///
    /// ## Why is this bad?
    /// An engine applying `1R` cannot tell whose step is lost; and a code with no typed
    /// meaning among typed ones is a result the engine cannot apply.
    ///
    /// ## Example
    /// ```ron
    /// (code: "T", meaning: "morale check"),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (code: "T", meaning: "morale check", effects: [MoraleCheck]),
    /// ```
    pub META = ("system::crt-meaning", Error, "a combat result whose typed meaning is missing or says what before whom");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Document::System(system) = cx.doc else {
        return;
    };
    let Some(crt) = &system.combat_results else {
        return;
    };
    for r in problems(crt) {
        sink.push(r);
    }
}

/// The codes without typed meaning among typed ones, and the results that say what
/// happens before saying to whom.
pub fn problems(crt: &CombatResultsTable) -> Vec<Report> {
    let mut out = Vec::new();
    if crt.results.iter().all(|r| r.effects.is_empty()) {
        return out;
    }
    let base = Place::top("combat_results");
    for (i, r) in crt.results.iter().enumerate() {
        if r.effects.is_empty() {
            out.push(
                Report::new(
                    &META,
                    base.field("results").index(i).field("code"),
                    format!("result code `{}` has no typed `effects`, while other codes of the table have", r.code),
                )
                .help(format!("give what `{}` ({}) does: `effects: [...]` (`muster schema system` lists the effects)", r.code, r.meaning)),
            );
        }
    }
    for (row, crt_row) in crt.rows.iter().enumerate() {
        for (col, cell) in crt_row.results.iter().enumerate() {
            let Some(parts) = result_parts(cell, &crt.results) else {
                continue; // `system::crt-shape` reports a cell not made of codes.
            };
            let mut whom = false;
            for part in parts {
                for e in &part.effects {
                    match e {
                        ResultEffect::Attacker | ResultEffect::Defender => whom = true,
                        ResultEffect::NoEffect => {}
                        _ if !whom => {
                            out.push(
                                Report::new(
                                    &META,
                                    Place::crt_row(row).field("results").index(col),
                                    format!("result `{cell}` says what happens (code `{}`) before saying to whom", part.code),
                                )
                                .help("start it with the attacker's or the defender's code, or give the code itself `Attacker` or `Defender` in its effects"),
                            );
                            whom = true;
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    out
}
