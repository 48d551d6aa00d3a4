//! `cargo xtask vassal-picture [OUT.png]`: the README's VASSAL picture. muster exports
//! the Fontenoy scenario as a module, the real VASSAL engine loads its predefined set-up
//! under Xvfb, and the harness `MusterVassalCheck --picture` writes what VASSAL paints of
//! the battlefield window: the board with every counter on its hex, cropped to the
//! counters. VASSAL draws it, not muster, so this needs Java, Xvfb and `Vengine.jar`
//! (see `muster_testkit::vassal`); without them the step says what is missing and
//! writes nothing. The PNG depends on the fonts installed, so no test compares its bytes.

use std::path::Path;

use muster_check::Config;
use muster_db::load::Document;
use muster_testkit::vassal::Engine;

/// The picture the README shows, relative to the repository.
pub const PICTURE: &str = "docs/pictures/vassal-fontenoy.png";
/// The scenario it shows.
const SCENARIO: &str = "scenarios/lrf/fontenoy.scenario.ron";

/// What VASSAL reported after drawing a picture.
#[derive(Debug)]
pub struct Taken {
    /// The pieces on the battlefield that VASSAL painted.
    pub painted: usize,
    /// The pieces muster's set-up puts on the battlefield.
    pub placed: usize,
    pub width: u32,
    pub height: u32,
}

/// The scenario's module and its set-up's name.
fn module(root: &Path) -> Result<(Vec<u8>, String), String> {
    let file = root.join(SCENARIO);
    let (db, indexes, _) = muster_check::validate_paths(
        root,
        std::slice::from_ref(&file),
        &Config::default(),
        &|p: &Path| p.display().to_string(),
    );
    let index = *indexes
        .first()
        .ok_or_else(|| format!("{SCENARIO} could not be loaded"))?;
    let Some(Document::Scenario(scenario)) = db.doc(index) else {
        return Err(format!("{SCENARIO} is not a scenario"));
    };
    let name = scenario.name.clone();
    let export = muster_vassal::export(&db, &[index], None)?;
    Ok((export.bytes, name))
}

/// The harness's `picture <pieces> <width> <height>` line.
fn report(stdout: &str) -> Option<(usize, u32, u32)> {
    let line = stdout.lines().find_map(|l| l.strip_prefix("picture\t"))?;
    let mut f = line.split('\t').map(str::trim);
    Some((
        f.next()?.parse().ok()?,
        f.next()?.parse().ok()?,
        f.next()?.parse().ok()?,
    ))
}

/// Draws the picture into `out` with the real VASSAL engine.
pub fn take(root: &Path, out: &Path) -> Result<Taken, String> {
    let temp = tempfile::tempdir().map_err(|e| format!("a temporary folder: {e}"))?;
    let engine = Engine::compile(temp.path())?;
    let (bytes, setup) = module(root)?;
    let placed = muster_vassal::read::module(&bytes)?
        .setups
        .iter()
        .find(|s| s.name == setup)
        .map_or(0, |s| {
            s.pieces
                .iter()
                .filter(|p| p.map == muster_vassal::BATTLEFIELD)
                .count()
        });
    let vmod = temp.path().join("fontenoy.vmod");
    std::fs::write(&vmod, &bytes).map_err(|e| format!("{}: {e}", vmod.display()))?;
    let out = std::path::absolute(out).map_err(|e| e.to_string())?;
    let stdout = engine.run(
        &[
            vmod.as_os_str(),
            "--picture".as_ref(),
            setup.as_ref(),
            muster_vassal::BATTLEFIELD.as_ref(),
            out.as_os_str(),
        ],
        temp.path(),
    )?;
    let (painted, width, height) =
        report(&stdout).ok_or_else(|| format!("the harness drew no picture:\n{stdout}"))?;
    Ok(Taken {
        painted,
        placed,
        width,
        height,
    })
}

/// `cargo xtask vassal-picture [OUT.png]`: writes [`PICTURE`] (or `OUT.png`).
pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let out = match args {
        [] => root.join(PICTURE),
        [file] => file.into(),
        _ => return Err("usage: cargo xtask vassal-picture [OUT.png]".to_string()),
    };
    let taken = take(root, &out).map_err(|e| format!("no VASSAL picture taken: {e}"))?;
    if taken.painted != taken.placed {
        return Err(format!(
            "VASSAL painted {} pieces, muster's set-up places {}",
            taken.painted, taken.placed
        ));
    }
    println!(
        "wrote {} ({}x{}, {} counters, drawn by VASSAL)",
        out.display(),
        taken.width,
        taken.height,
        taken.painted
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pixels of `png`: width, height and the variance of their grey level.
    fn decode(png: &[u8]) -> (u32, u32, f64) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size().expect("a sized PNG")];
        let info = reader.next_frame(&mut buf).expect("its pixels");
        let channels = info.color_type.samples();
        assert_eq!(info.bit_depth, png::BitDepth::Eight, "8-bit channels");
        let greys: Vec<f64> = buf[..info.buffer_size()]
            .chunks(channels)
            .map(|px| px.iter().take(3).map(|&c| f64::from(c)).sum::<f64>() / 3.0)
            .collect();
        let mean = greys.iter().sum::<f64>() / greys.len() as f64;
        let variance = greys.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / greys.len() as f64;
        (info.width, info.height, variance)
    }

    #[test]
    #[ignore = "needs java and Xvfb (and VASSAL): run by .ci/run"]
    fn vassal_draws_the_fontenoy_set_up() {
        let temp = tempfile::tempdir().unwrap();
        let out = temp.path().join("picture.png");
        let taken = take(&muster_testkit::repo(), &out).unwrap_or_else(|e| panic!("{e}"));
        assert!(taken.placed > 10, "{taken:?}");
        assert_eq!(taken.painted, taken.placed, "every counter painted");
        let (width, height, variance) = decode(&std::fs::read(&out).unwrap());
        assert_eq!((width, height), (taken.width, taken.height));
        // Cropped to the counters: a few hexes across at least, never the whole page.
        assert!(
            (200..=1500).contains(&width) && (200..=1500).contains(&height),
            "{width}x{height}"
        );
        // Not one flat colour: the hexes, the counters and their text.
        assert!(variance > 100.0, "grey-level variance {variance}");
    }
}
