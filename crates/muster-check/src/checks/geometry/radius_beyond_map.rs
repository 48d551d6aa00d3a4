//! `geometry::radius-beyond-map`: a zone radius larger than the map itself.

use crate::declare_check;
use crate::place::Place;
use crate::report::{Report, Sink};
use crate::semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that every radius (`Zone(center: ..., radius: ...)` in a map or a scenario,
    /// `Near(label: ..., radius: ...)` deployment zones, `near: (label, radius)` exit
    /// goals) is at most the map's extent: the largest distance between two of its hexes.
    ///
    /// ## Why is this bad?
    /// A larger radius reaches nothing more, so it is a typing slip (`65535` for `5`);
    /// zones are computed within the map, so it costs no more than the map either.
    ///
    /// ## Example
    /// ```ron
    /// Terrain(terrain: "woods", area: Zone(center: "0606", radius: 65535)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Terrain(terrain: "woods", area: Zone(center: "0606", radius: 2)),
    /// ```
    pub META = ("geometry::radius-beyond-map", Error, "a zone radius larger than the map");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Some(grid) = cx.grid else { return };
    let extent = u64::from(grid.extent());
    if !may_exceed(cx.loaded.file.tree(), extent) {
        return;
    }
    let mut found = Vec::new();
    radii(&cx.doc.to_json(), &Place::root(), None, &mut found);
    for (place, radius) in found {
        if radius > extent {
            sink.push(
                Report::new(
                    &META,
                    place,
                    format!(
                        "radius {radius} reaches beyond the map, on which no two hexes are more than {extent} apart"
                    ),
                )
                .help(format!(
                    "radii on this {} x {} map run from 0 to {extent}",
                    grid.columns, grid.rows
                )),
            );
        }
    }
}

/// Every radius in a document: `radius` of a `Zone` or `Near`, and the second element of
/// a `near` pair, with its place.
/// Whether any radius written in the file may exceed `extent`: a look at the tokens
/// (`radius: N`, and any `near`) so that the walk over the whole document runs only
/// for files that may have something to report.
fn may_exceed(tree: &muster_syntax::Tree, extent: u64) -> bool {
    use muster_syntax::TokenKind;
    // A window of the next tokens, not a list of all of them: most files have no radius.
    const AHEAD: usize = 9;
    let mut tokens = tree.tokens().filter(|t| !t.kind.is_trivia());
    let mut window: std::collections::VecDeque<_> = tokens.by_ref().take(AHEAD).collect();
    let beyond =
        |t: &muster_syntax::TokenRef<'_>| t.text.parse::<u64>().map_or(true, |n| n > extent);
    while let Some(t) = window.pop_front() {
        window.extend(tokens.next());
        let found = match t.text.trim_matches('"') {
            // `radius: N`
            "radius" => match (window.front(), window.get(1)) {
                (Some(colon), Some(value)) if colon.kind == TokenKind::Colon => {
                    value.kind != TokenKind::Number || beyond(value)
                }
                _ => false,
            },
            // `near: ("H", N)` or `near: Some(("H", N))`: the first number after it.
            "near" => window
                .iter()
                .take(8)
                .find(|t| t.kind == TokenKind::Number)
                .is_none_or(beyond),
            _ => false,
        };
        if found {
            return true;
        }
    }
    false
}

fn radii(value: &serde_json::Value, at: &Place, key: Option<&str>, out: &mut Vec<(Place, u64)>) {
    match value {
        serde_json::Value::Object(fields) => {
            for (k, v) in fields {
                let here = at.key(k);
                if k == "radius"
                    && matches!(key, Some("Zone" | "Near"))
                    && let Some(n) = v.as_u64()
                {
                    out.push((here, n));
                    continue;
                }
                if k == "near"
                    && let Some([_, n]) = v.as_array().map(Vec::as_slice)
                    && let Some(n) = n.as_u64()
                {
                    out.push((here.index(1), n));
                    continue;
                }
                radii(v, &here, Some(k), out);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                radii(v, &at.index(i), None, out);
            }
        }
        _ => {}
    }
}
