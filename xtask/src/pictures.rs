//! The README's pictures: the Jengland set-up and one PRESTAGS battle (Clontarf, with
//! its zones, fleets and sample deployment), drawn by `muster-render` from the bundled
//! data. The SVG is written next to each PNG: it is byte-identical on every machine, so a
//! test can tell when the pictures are stale; the PNG depends on the fonts installed.

use std::path::{Path, PathBuf};

use muster_check::Config;

/// Scenario, picture name, PNG scale.
pub const PICTURES: &[(&str, &str, f32)] = &[
    ("scenarios/lrf/jengland.scenario.ron", "jengland", 1.0),
    (
        "scenarios/prestags/5-2-clontarf.scenario.ron",
        "clontarf",
        0.5,
    ),
];

/// The SVG of a bundled scenario, as `muster render` draws it at turn 1.
pub fn svg(root: &Path, scenario: &str) -> Result<String, String> {
    let name = |p: &Path| {
        p.strip_prefix(root)
            .map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
    };
    let file = root.join(scenario);
    let (db, indexes, diagnostics) =
        muster_check::validate_paths(root, std::slice::from_ref(&file), &Config::default(), &name);
    let index = *indexes
        .first()
        .ok_or_else(|| format!("{scenario} could not be loaded"))?;
    let rendered =
        muster_render::render(&db, index, &diagnostics, &muster_render::Options::default());
    match rendered.unavailable {
        Some(why) => Err(format!("{scenario}: {why}")),
        None => Ok(rendered.svg),
    }
}

/// Writes `docs/pictures/<name>.svg` and `.png` for every picture.
pub fn write(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut written = Vec::new();
    for (scenario, name, scale) in PICTURES {
        let svg = svg(root, scenario)?;
        let png = muster_render::png_scaled(&svg, *scale)?;
        for (ext, bytes) in [("svg", svg.as_bytes()), ("png", png.as_slice())] {
            let path = PathBuf::from("docs/pictures").join(format!("{name}.{ext}"));
            let target = root.join(&path);
            if let Some(dir) = target.parent() {
                std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
            }
            muster_map::write_atomic(&target, bytes)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            written.push(path);
        }
    }
    Ok(written)
}
