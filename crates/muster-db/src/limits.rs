//! `[limits]` of `muster.toml`: what one map may cost. Read on its own by the loader
//! (`Db` needs the limits before any check runs); `config` reads the whole file and
//! reports its mistakes.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

/// The project file at the root of a project.
pub const CONFIG_FILE: &str = "muster.toml";

/// `[limits]`, with the span of every value for its diagnostics.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LimitsSection {
    max_hexes: Option<Spanned<i64>>,
    max_raster_cells: Option<Spanned<i64>>,
}

/// The largest `max-raster-cells` a project may set (4096 x 4096).
pub const MAX_RASTER_CELLS_CEILING: u64 = 4096 * 4096;

pub use muster_map::Limits;

/// Only `[limits]`, read leniently: the rest of the file and its mistakes are
/// `config::parse`'s business.
#[derive(Debug, Default, Deserialize)]
struct LimitsOnly {
    #[serde(default)]
    limits: Option<LimitsSection>,
}

impl LimitsSection {
    /// The limits, and the span, text and help of each value out of range.
    pub fn read(&self) -> (Limits, Vec<(std::ops::Range<usize>, String, String)>) {
        let mut limits = Limits::DEFAULT;
        let mut wrong = Vec::new();
        let ceiling = Limits::DEFAULT.max_hexes;
        if let Some(v) = &self.max_hexes {
            match u64::try_from(*v.get_ref()) {
                Ok(n) if (1..=ceiling).contains(&n) => limits.max_hexes = n,
                _ => wrong.push((
                    v.span(),
                    format!("`max-hexes` is {}, outside 1 to {ceiling}", v.get_ref()),
                    format!("{ceiling} is 99 x 99, every hex `CCRR` numbers can name"),
                )),
            }
        }
        if let Some(v) = &self.max_raster_cells {
            match u64::try_from(*v.get_ref()) {
                Ok(n) if (1..=MAX_RASTER_CELLS_CEILING).contains(&n) => limits.max_raster_cells = n,
                _ => wrong.push((
                    v.span(),
                    format!(
                        "`max-raster-cells` is {}, outside 1 to {MAX_RASTER_CELLS_CEILING}",
                        v.get_ref()
                    ),
                    "use a coarser `raster` on the map rather than a larger limit".to_string(),
                )),
            }
        }
        (limits, wrong)
    }
}

/// The resource limits of the project at `root` (defaults where `muster.toml` sets none
/// or sets them wrongly; `config::parse` reports those mistakes).
pub fn load_limits(root: &Path) -> Limits {
    read_config_text(&root.join(CONFIG_FILE))
        .and_then(|text| toml::from_str::<LimitsOnly>(&text).ok())
        .and_then(|c| c.limits)
        .map_or(Limits::DEFAULT, |l| l.read().0)
}

#[derive(serde::Deserialize)]
struct OptionalOnly {
    #[serde(default, rename = "optional-rules")]
    optional_rules: std::collections::BTreeMap<String, Vec<String>>,
}

/// The optional rules `root/muster.toml` switches on, by system id (`[optional-rules]`,
/// checked by the check catalogue's `config`); empty when there are none or the file
/// does not parse.
pub fn load_optional_rules(root: &Path) -> std::collections::BTreeMap<String, Vec<String>> {
    read_config_text(&root.join(CONFIG_FILE))
        .and_then(|text| toml::from_str::<OptionalOnly>(&text).ok())
        .map(|c| c.optional_rules)
        .unwrap_or_default()
}

/// The text of `muster.toml` when it is a regular file of a sensible size (a FIFO would
/// block the read).
pub fn read_config_text(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > crate::source::MAX_FILE_BYTES {
        return None;
    }
    std::fs::read_to_string(path).ok()
}
