//! Colours: terrain by its id, open-table features by their class, sides by their army's
//! colour. Systems print no colours, so these are muster's choices; an id muster has no
//! colour for gets a stable one derived from its name.

use std::collections::BTreeMap;

use muster_model::system::FeatureClass;

/// Fill of a terrain type: the colour of the word its id is made of (`woods`), shaded
/// by the rest of the id (`light-woods` is a shade of the woods' green), or a colour
/// derived from the id when it holds no word muster knows. The same id always gets the
/// same fill; a board's fills come from [`TerrainFills`], which keeps them apart.
pub fn terrain(id: &str) -> String {
    rgb_text(variant(id, 0))
}

/// The fills of the terrain types of one board: every id its own colour, the same on
/// every run. Each id takes its [`terrain`] colour unless an id before it has one too
/// close to it (ids that are a word themselves come first, then the others, each in byte
/// order); then it takes its next shade that is free.
#[derive(Debug, Clone, Default)]
pub struct TerrainFills {
    by_id: BTreeMap<String, String>,
}

impl TerrainFills {
    pub fn new<'a>(ids: impl IntoIterator<Item = &'a str>) -> Self {
        let mut ids: Vec<&str> = ids.into_iter().collect();
        ids.sort_unstable();
        ids.dedup();
        // An id that is just a word keeps the word's colour before the ids that hold it.
        ids.sort_by_key(|id| !is_word(id));
        let mut taken: Vec<[u8; 3]> = Vec::new();
        let mut by_id = BTreeMap::new();
        for id in ids {
            let colour = (0..MAX_SHADES)
                .map(|k| variant(id, k))
                .find(|c| taken.iter().all(|t| apart(*t, *c)))
                .unwrap_or_else(|| variant(id, 0));
            taken.push(colour);
            by_id.insert(id.to_string(), rgb_text(colour));
        }
        Self { by_id }
    }

    /// The fill of `id` (an id the board was not given: its [`terrain`] colour).
    pub fn get(&self, id: &str) -> String {
        self.by_id.get(id).cloned().unwrap_or_else(|| terrain(id))
    }
}

/// Shades tried for one id before giving up on keeping it apart.
const MAX_SHADES: u32 = 48;

/// Whether two fills are far enough apart to tell on the board (summed channel
/// difference).
pub fn apart(a: [u8; 3], b: [u8; 3]) -> bool {
    let d: u32 = a.iter().zip(b).map(|(x, y)| u32::from(x.abs_diff(y))).sum();
    d >= MIN_APART
}

/// The least summed channel difference between two fills of one board.
pub const MIN_APART: u32 = 24;

/// `#rrggbb` read back into channels (black when it is not that form).
pub fn channels(fill: &str) -> [u8; 3] {
    let c = |i: usize| {
        fill.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0)
    };
    [c(1), c(3), c(5)]
}

fn rgb_text([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Shade `k` of an id's fill: shade 0 is the word's colour itself when the id is just
/// that word, else the word's colour moved by the id's own hash; later shades move it
/// further, by other hashes.
fn variant(id: &str, k: u32) -> [u8; 3] {
    let lower = id.to_ascii_lowercase();
    let Some((word, base)) = word_colour(&lower) else {
        return channels(&if k == 0 {
            derived(id)
        } else {
            derived(&format!("{id}#{k}"))
        });
    };
    if k == 0 && lower == word {
        return channels(base);
    }
    let hash = fnv(&format!("{id}#{k}"));
    // A lightness step of 12 to 40 either way, and a small tint per channel.
    let step = 12 + (hash & 0x1f) as i32 * 28 / 31;
    let step = if hash & 0x20 == 0 { step } else { -step };
    let tint = |shift: u32| ((hash >> shift) & 0x0f) as i32 - 8;
    let base = channels(base);
    let mut out = [0u8; 3];
    for (i, c) in base.iter().enumerate() {
        let moved = i32::from(*c) + step + tint(8 + 4 * i as u32);
        out[i] = moved.clamp(40, 245) as u8;
    }
    out
}

/// Whether an id is one of muster's words itself (`woods`, not `light-woods`).
fn is_word(id: &str) -> bool {
    let lower = id.to_ascii_lowercase();
    word_colour(&lower).is_some_and(|(word, _)| word == lower)
}

/// The first word of muster's list that the id holds, with its colour.
fn word_colour(lower: &str) -> Option<(&'static str, &'static str)> {
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
    BY_WORD
        .iter()
        .find(|(word, _)| lower.contains(word))
        .copied()
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
pub fn severity(severity: muster_db::Severity) -> &'static str {
    match severity {
        muster_db::Severity::Error => "#d0021b",
        muster_db::Severity::Warning => "#e07b00",
        muster_db::Severity::Info => "#2b6cb0",
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

/// FNV-1a: stable across runs and platforms.
fn fnv(text: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for b in text.bytes() {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// A muted colour derived from the name, the same on every run.
fn derived(id: &str) -> String {
    let hash = fnv(id);
    let channel = |shift: u32| 150 + ((hash >> shift) & 0x3f);
    format!("#{:02x}{:02x}{:02x}", channel(0), channel(8), channel(16))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_words_and_derived_colours() {
        assert_eq!(terrain("woods"), "#86b46f");
        assert_eq!(terrain("zzz"), terrain("zzz"));
        assert_ne!(terrain("zzz"), terrain("yyy"));
        assert_eq!(side(Some("blue"), 3), "#3a5f9e");
        assert_eq!(side(Some("#AABBCC"), 0), "#aabbcc");
        assert_eq!(side(Some("chartreuse-ish"), 1), SIDES[1]);
        assert!(dark_text_on("#eef0d6"));
        assert!(!dark_text_on("#3a5f9e"));
    }

    /// Ids sharing a word (or none) get fills of their own; a shade of the word's colour
    /// where the id has more than the word.
    #[test]
    fn every_id_of_a_board_has_its_own_fill() {
        let ids = [
            "woods",
            "light-woods",
            "heavy-woods",
            "forest",
            "stream",
            "creek",
            "marsh",
            "swamp",
            "fen",
            "clear",
            "open",
            "plain",
            "castle",
            "fort",
            "heath",
            "moor",
        ];
        let fills = TerrainFills::new(ids);
        for (i, a) in ids.iter().enumerate() {
            for b in &ids[i + 1..] {
                let (fa, fb) = (fills.get(a), fills.get(b));
                assert!(
                    apart(channels(&fa), channels(&fb)),
                    "{a} {fa} and {b} {fb} are too alike"
                );
            }
        }
        // Same ids, any order: the same fills.
        let mut reversed = ids;
        reversed.reverse();
        let again = TerrainFills::new(reversed);
        for id in ids {
            assert_eq!(fills.get(id), again.get(id));
        }
        assert_eq!(
            fills.get("woods"),
            "#86b46f",
            "the word itself keeps its colour"
        );
        assert_eq!(fills.get("clear"), "#eef0d6");
        assert_ne!(terrain("light-woods"), terrain("woods"));
        assert_eq!(fills.get("unheard-of"), terrain("unheard-of"));
    }
}
