//! Asks `reach` of every unit of Hastings' set-up (the PRESTAGS 36x56 mapsheet) and
//! times each round: a loop to profile the engine with, beside `cargo xtask bench`'s
//! figures.
//!
//! ```text
//! cargo run --release -p muster-engine --example reach_speed [ROUNDS]
//! ```

use std::time::Instant;

use muster_engine::{Engine, from_scenario};
use muster_semantic::{FileCx, ScenarioCx};
use muster_testkit::db::{bundled, index};

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let db = bundled();
    let Some(cx) = FileCx::new(
        &db,
        index(&db, "scenarios/prestags/5-7-hastings.scenario.ron"),
    )
    .and_then(ScenarioCx::new) else {
        eprintln!("Hastings did not resolve");
        return;
    };
    let (Some(system), Some(map)) = (cx.system, cx.map) else {
        eprintln!("Hastings has no system or map");
        return;
    };
    let position = from_scenario(&cx, 1);
    let ids: Vec<&str> = position.units.iter().map(|u| u.id.as_str()).collect();
    let started = Instant::now();
    let mut hexes = 0;
    for _ in 0..rounds {
        let engine = Engine::new(system, map, &position);
        for id in &ids {
            hexes += engine.reach(id).map_or(0, |r| r.hexes.len());
        }
    }
    let ms = started.elapsed().as_secs_f64() * 1000.0 / rounds as f64;
    println!(
        "reach for {} units: {ms:.2} ms a round ({} hexes reached a round)",
        ids.len(),
        hexes / rounds.max(1)
    );
}
