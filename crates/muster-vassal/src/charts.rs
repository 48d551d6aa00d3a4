//! The charts of a rules system drawn as SVG tables: the combat results table (one row
//! per die roll, one column per odds heading, then the result codes) and the terrain
//! effects chart (each terrain's movement cost and combat effects).

use muster_model::system::{CombatEffect, MoveCost, RulesSystem};
use muster_render::svg::esc;

const ROW: f64 = 20.0;

fn table(title: &str, head: &[String], rows: &[Vec<String>], widths: &[f64]) -> String {
    let width: f64 = widths.iter().sum::<f64>() + 20.0;
    let height = 50.0 + ROW * (rows.len() as f64 + 1.0);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"'DejaVu Sans', Verdana, Arial, sans-serif\" font-size=\"11\"><rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/><text x=\"10\" y=\"24\" font-size=\"15\" font-weight=\"bold\">{}</text>",
        esc(title)
    );
    let mut line = |y: f64, cells: &[String], bold: bool| {
        let mut x = 10.0;
        for (cell, w) in cells.iter().zip(widths) {
            out.push_str(&format!(
                "<text x=\"{}\" y=\"{y}\"{}>{}</text>",
                x + 3.0,
                if bold { " font-weight=\"bold\"" } else { "" },
                esc(cell)
            ));
            x += w;
        }
    };
    line(50.0, head, true);
    for (i, row) in rows.iter().enumerate() {
        line(50.0 + ROW * (i as f64 + 1.0), row, false);
    }
    out.push_str("</svg>\n");
    out
}

/// The combat results table, if the system has one.
pub fn crt(system: &RulesSystem) -> Option<String> {
    let crt = system.combat_results.as_ref()?;
    let mut head = vec!["Die".to_string()];
    head.extend(crt.odds.iter().cloned());
    let mut rows: Vec<Vec<String>> = crt
        .rows
        .iter()
        .map(|r| {
            let mut row = vec![r.die.to_string()];
            row.extend(r.results.iter().cloned());
            row
        })
        .collect();
    rows.push(Vec::new());
    for code in &crt.results {
        rows.push(vec![code.code.clone(), code.meaning.clone()]);
    }
    let mut widths = vec![44.0; head.len()];
    widths[0] = 60.0;
    Some(table(
        &format!("{}: combat results", system.name),
        &head,
        &rows,
        &widths,
    ))
}

/// The terrain effects chart.
pub fn terrain(system: &RulesSystem) -> String {
    let head = ["Terrain", "Movement", "Combat"].map(String::from);
    let rows: Vec<Vec<String>> = system
        .terrain
        .iter()
        .map(|t| {
            vec![
                t.name.clone(),
                match t.movement {
                    MoveCost::Points(p) => format!("{p} MP"),
                    MoveCost::Extra(p) => format!("+{p} MP"),
                    MoveCost::Impassable => "impassable".to_string(),
                },
                t.combat
                    .iter()
                    .map(|c| match c {
                        CombatEffect::DieModifier(n) => format!("die roll {n:+}"),
                        CombatEffect::ColumnShift(n) => format!("{n:+} columns"),
                        CombatEffect::NoRetreat => "no retreat".to_string(),
                        CombatEffect::NoCharge => "no charge".to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
            ]
        })
        .collect();
    table(
        &format!("{}: terrain effects", system.name),
        &head,
        &rows,
        &[140.0, 160.0, 520.0],
    )
}
