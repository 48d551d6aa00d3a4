use muster_hex::HexId;
use muster_model::map::Overlay;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that each hexside is given by two hexes that share it, and that an
    /// `Access` hex is entered only from its neighbours.
    ///
    /// ## Why is this bad?
    /// Two hexes that do not touch have no hexside between them; the river or creek
    /// meant there is missing from the compiled map.
    ///
    /// ## Example
    /// ```ron
    /// Hexsides(feature: "creek", sides: [("0405", "0406"), ("0405", "0407")]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Hexsides(feature: "creek", sides: [("0405", "0406"), ("0406", "0407")]),
    /// ```
    pub META = ("maps::hexside-not-adjacent", Error, "a hexside between hexes that do not touch");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let (Some(map), Some(grid)) = (cx.map(), cx.grid) else {
        return;
    };
    for (i, o) in map.overlays.iter().enumerate() {
        let pairs: Vec<(Place, &String, &String)> = match o {
            Overlay::Hexsides { sides, .. } => sides
                .iter()
                .enumerate()
                .map(|(k, (a, b))| {
                    (
                        Place::overlay(i)
                            .variant("Hexsides")
                            .field("sides")
                            .index(k),
                        a,
                        b,
                    )
                })
                .collect(),
            Overlay::Access { hex, from } => from
                .iter()
                .enumerate()
                .map(|(k, f)| {
                    (
                        Place::overlay(i).variant("Access").field("from").index(k),
                        hex,
                        f,
                    )
                })
                .collect(),
            _ => continue,
        };
        for (place, a, b) in pairs {
            let (Ok(a), Ok(b)) = (HexId::parse(a), HexId::parse(b)) else {
                continue;
            };
            if !grid.adjacent(a, b) {
                let mut neighbours = grid.neighbours(a);
                neighbours.sort();
                sink.push(
                    Report::new(
                        &META,
                        place,
                        format!("`{a}` and `{b}` do not share a hexside"),
                    )
                    .help(format!(
                        "neighbours of `{a}`: {}",
                        neighbours
                            .iter()
                            .map(|h| format!("`{h}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                );
            }
        }
    }
}
