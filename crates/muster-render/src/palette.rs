//! Colours: terrain by its id, open-table features by their class, sides by their army's
//! colour. Systems print no colours, so these are muster's choices; an id muster has no
//! colour for gets a stable one derived from its name.

use muster_model::system::FeatureClass;

/// Fill of a terrain type, by the words its id is made of.
pub fn terrain(id: &str) -> String {
    const BY_WORD: &[(&str, &str)] = &[
        ("hilltop", "#c4a464"),
        ("slope", "#dcc790"),
        ("hill", "#d6c184"),
        ("bridge", "#b0894f"),
        ("ford", "#a9cbe6"),
        ("river", "#6ea6d8"),
        ("stream", "#8dbbe2"),
        ("creek", "#8dbbe2"),
        ("lake", "#7fb2e5"),
        ("sea", "#7aaee0"),
        ("water", "#7fb2e5"),
        ("marsh", "#a6c49d"),
        ("swamp", "#a6c49d"),
        ("fen", "#a6c49d"),
        ("woods", "#86b46f"),
        ("wood", "#86b46f"),
        ("forest", "#6e9f5b"),
        ("orchard", "#a3c78a"),
        ("village", "#d2aa80"),
        ("town", "#c99a70"),
        ("city", "#bf8e64"),
        ("castle", "#a98a78"),
        ("fort", "#a98a78"),
        ("church", "#c8a890"),
        ("abbey", "#c8a890"),
        ("camp", "#d7b98f"),
        ("rough", "#c9ba98"),
        ("broken", "#c9ba98"),
        ("rocky", "#b7aa92"),
        ("mountain", "#a89a82"),
        ("beach", "#eadcaa"),
        ("sand", "#eadcaa"),
        ("field", "#e4e2b4"),
        ("clear", "#eef0d6"),
        ("open", "#eef0d6"),
        ("plain", "#eef0d6"),
        ("impassable", "#8c8c8c"),
    ];
    let lower = id.to_ascii_lowercase();
    BY_WORD
        .iter()
        .find(|(word, _)| lower.contains(word))
        .map_or_else(|| derived(id), |(_, colour)| (*colour).to_string())
}

/// Fill (areas) or stroke (lines) of an open-table feature.
pub fn feature(class: FeatureClass) -> &'static str {
    match class {
        FeatureClass::Open => "#eef0d6",
        FeatureClass::Rough => "#c9ba98",
        FeatureClass::VeryRough => "#a8997a",
        FeatureClass::LinearObstacle => "#6b4f2a",
        FeatureClass::ChokePoint => "#8b6b3b",
        FeatureClass::Road => "#b59f77",
        FeatureClass::Hill => "#d6c184",
        FeatureClass::Woods => "#86b46f",
        FeatureClass::WaterLogged => "#a6c49d",
        FeatureClass::Water => "#6ea6d8",
        FeatureClass::Building => "#b58f70",
        FeatureClass::Fortification => "#7a6a5a",
    }
}

/// Colour of a hexside feature drawn on the hexside.
pub fn hexside(id: &str) -> &'static str {
    let lower = id.to_ascii_lowercase();
    if ["river", "stream", "creek", "water", "ford"]
        .iter()
        .any(|w| lower.contains(w))
    {
        "#2f6fb3"
    } else if ["hedge", "wood"].iter().any(|w| lower.contains(w)) {
        "#3f6b2f"
    } else {
        "#5a4630"
    }
}

/// Colours for sides whose army names none, in side order.
const SIDES: [&str; 6] = [
    "#3a5f9e", "#a63a32", "#3d7a3d", "#8a6a1c", "#6b4a8f", "#2f7f80",
];

/// A side's colour: its army's colour when it is a known name or `#rrggbb`, else one of
/// muster's by side order.
pub fn side(colour: Option<&str>, index: usize) -> String {
    const NAMED: &[(&str, &str)] = &[
        ("blue", "#3a5f9e"),
        ("red", "#a63a32"),
        ("green", "#3d7a3d"),
        ("yellow", "#b8931c"),
        ("black", "#3b3b3b"),
        ("white", "#d8d8d0"),
        ("purple", "#6b4a8f"),
        ("brown", "#7a5433"),
        ("orange", "#c0692a"),
        ("grey", "#707070"),
        ("gray", "#707070"),
    ];
    if let Some(c) = colour {
        let lower = c.trim().to_ascii_lowercase();
        if let Some((_, hex)) = NAMED.iter().find(|(n, _)| *n == lower) {
            return (*hex).to_string();
        }
        if lower.len() == 7
            && lower.starts_with('#')
            && lower[1..].bytes().all(|b| b.is_ascii_hexdigit())
        {
            return lower;
        }
    }
    SIDES[index % SIDES.len()].to_string()
}

/// The outline of a diagnostic on the board.
pub fn severity(severity: muster_check::Severity) -> &'static str {
    match severity {
        muster_check::Severity::Error => "#d0021b",
        muster_check::Severity::Warning => "#e07b00",
        muster_check::Severity::Info => "#2b6cb0",
    }
}

/// Neutral units.
pub const NEUTRAL: &str = "#8a8a80";

/// Whether text on a fill should be dark.
pub fn dark_text_on(fill: &str) -> bool {
    let channel =
        |i: usize| u32::from_str_radix(fill.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128);
    let (r, g, b) = (channel(1), channel(3), channel(5));
    r * 299 + g * 587 + b * 114 > 150_000
}

/// A muted colour derived from the name, the same on every run.
fn derived(id: &str) -> String {
    // FNV-1a: stable across runs and platforms.
    let mut hash: u32 = 0x811c_9dc5;
    for b in id.bytes() {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    let channel = |shift: u32| 150 + ((hash >> shift) & 0x3f);
    format!("#{:02x}{:02x}{:02x}", channel(0), channel(8), channel(16))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_words_and_derived_colours() {
        assert_eq!(terrain("woods"), "#86b46f");
        assert_eq!(terrain("light-woods"), "#86b46f");
        assert_eq!(terrain("zzz"), terrain("zzz"));
        assert_ne!(terrain("zzz"), terrain("yyy"));
        assert_eq!(side(Some("blue"), 3), "#3a5f9e");
        assert_eq!(side(Some("#AABBCC"), 0), "#aabbcc");
        assert_eq!(side(Some("chartreuse-ish"), 1), SIDES[1]);
        assert!(dark_text_on("#eef0d6"));
        assert!(!dark_text_on("#3a5f9e"));
    }
}
