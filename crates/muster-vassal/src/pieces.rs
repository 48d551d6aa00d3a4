//! Pieces as trait strings: a `Marker` with muster's properties (side, counter, kind,
//! placement, hexes, turn), a two-level `Embellishment` (layer) for a counter with a
//! reduced side, the unit kind's prototype, and the `BasicPiece` with the name.

use crate::seq;

/// The property names of muster's marker, in order.
pub const PROPERTIES: [&str; 7] = [
    "Side",
    "Colour",
    "Counter",
    "Kind",
    "Placement",
    "Hexes",
    "Turn",
];

/// A kind of piece: one counter of an army (or a unit kind of a side).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct PieceDef {
    pub side: String,
    pub colour: String,
    pub counter: String,
    pub kind: String,
    /// The prototype the piece uses (the unit kind's name).
    pub prototype: String,
    pub name: String,
    /// Image of the full side, and of the reduced side when the counter has one.
    pub full: String,
    pub reduced: Option<String>,
    /// The palette slot's id (`gpid`).
    pub gpid: u32,
}

/// What a placed piece says about where it stands.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Standing {
    /// `""` (on its hex), `owner's choice` or `reinforcement`.
    pub placement: String,
    /// The hexes it may stand on or enter by, space-separated.
    pub hexes: String,
    pub turn: String,
}

impl PieceDef {
    fn traits(&self, map: &str, at: (i32, i32), standing: &Standing) -> Vec<(String, String)> {
        let mut traits = vec![(
            format!("mark;{}", seq::encode(&PROPERTIES, ',')),
            seq::encode(
                &[
                    self.side.as_str(),
                    self.colour.as_str(),
                    self.counter.as_str(),
                    self.kind.as_str(),
                    standing.placement.as_str(),
                    standing.hexes.as_str(),
                    standing.turn.as_str(),
                ],
                ',',
            ),
        )];
        let image = match &self.reduced {
            Some(reduced) => {
                traits.push((layer(&self.full, reduced), "1".to_string()));
                String::new()
            }
            None => self.full.clone(),
        };
        traits.push((format!("prototype;{}", self.prototype), String::new()));
        traits.push((
            format!(
                "piece;;;{}",
                seq::encode(&[image.as_str(), self.name.as_str()], ';')
            ),
            seq::encode(
                &[
                    map,
                    &at.0.to_string(),
                    &at.1.to_string(),
                    &self.gpid.to_string(),
                    "0",
                ],
                ';',
            ),
        ));
        traits
    }

    /// The piece's type and its state at `at` on `map` (`null` for a palette slot).
    pub fn encode(&self, map: &str, at: (i32, i32), standing: &Standing) -> (String, String) {
        seq::nest(&self.traits(map, at, standing))
    }
}

/// The `emb2` layer trait of a counter with two sides: level 1 the full side, level 2
/// the reduced one, always active, `Flip` (Ctrl+F) to turn it over.
fn layer(full: &str, reduced: &str) -> String {
    let images = seq::encode(&[full, reduced], ',');
    let names = seq::encode(&["", "+ (reduced)"], ',');
    let fields: Vec<String> = [
        "",
        "130",
        "",
        "Flip",
        "130",
        "",
        "",
        "130",
        "",
        "",
        "",
        "1",
        "false",
        "0",
        "0",
        &images,
        &names,
        "true",
        "Step",
        "",
        "",
        "false",
        "",
        "1",
        "1",
        "true",
        "",
        "70,130",
        "",
        "full and reduced sides",
        "1.0",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    format!("emb2;{}", seq::encode(&fields, ';'))
}

/// A unit kind's prototype: a marker with the kind's role.
pub fn prototype(role: &str) -> (String, String) {
    seq::nest(&[
        ("mark;Role".to_string(), role.to_string()),
        ("piece;;;;".to_string(), "null;0;0;;0".to_string()),
    ])
}

/// A piece read back from a set-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadPiece {
    pub map: String,
    pub at: (i32, i32),
    /// muster's marker values by [`PROPERTIES`] name.
    pub properties: Vec<(String, String)>,
    pub name: String,
}

impl ReadPiece {
    pub fn get(&self, key: &str) -> &str {
        self.properties
            .iter()
            .find(|(k, _)| k == key)
            .map_or("", |(_, v)| v.as_str())
    }
}

/// Reads a piece's type and state back: its marker, name, map and position.
pub fn read(ty: &str, state: &str) -> Result<ReadPiece, String> {
    let types = seq::unnest(ty);
    let states = seq::unnest(state);
    if types.len() != states.len() {
        return Err(format!(
            "{} traits but {} states in `{ty}`",
            types.len(),
            states.len()
        ));
    }
    let mut properties = Vec::new();
    for (t, s) in types.iter().zip(&states) {
        if let Some(keys) = t.strip_prefix("mark;") {
            properties = seq::decode(keys, ',')
                .into_iter()
                .zip(seq::decode(s, ','))
                .collect();
        }
    }
    let (Some(basic), Some(basic_state)) = (types.last(), states.last()) else {
        return Err("no traits".to_string());
    };
    let fields = seq::decode(basic, ';');
    let name = fields.get(4).cloned().unwrap_or_default();
    let at = seq::decode(basic_state, ';');
    let number = |i: usize| -> Result<i32, String> {
        at.get(i)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("no position in `{basic_state}`"))
    };
    Ok(ReadPiece {
        map: at.first().cloned().unwrap_or_default(),
        at: (number(1)?, number(2)?),
        properties,
        name,
    })
}
