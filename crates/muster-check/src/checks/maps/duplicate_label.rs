use std::collections::HashMap;

use muster_model::map::Overlay;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that a label (a village name, a lettered hex) appears once on a map.
    ///
    /// ## Why is this bad?
    /// Scenarios refer to labels ("within 5 hexes of H"); two hexes with one label make
    /// that ambiguous.
    ///
    /// ## Example
    /// ```ron
    /// Label(hex: "0505", text: "Fontenoy"),
    /// Label(hex: "0506", text: "Fontenoy"),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Label(hex: "0505", text: "Fontenoy"),
    /// ```
    pub META = ("maps::duplicate-label", Error, "a label placed on two hexes");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Some(map) = cx.map() else { return };
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, o) in map.overlays.iter().enumerate() {
        let Overlay::Label { text, .. } = o else {
            continue;
        };
        match seen.get(text.as_str()) {
            Some(first) => sink.push(
                Report::new(
                    &META,
                    Place::overlay(i).variant("Label").field("text"),
                    format!("label `{text}` is already on the map"),
                )
                .label(
                    Loc::Value(Place::overlay(*first).variant("Label").field("text")),
                    "first placed here",
                )
                .help("remove one of them or give them distinct names"),
            ),
            None => {
                seen.insert(text, i);
            }
        }
    }
}
