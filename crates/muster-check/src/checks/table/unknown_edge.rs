use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that table edges named by band entries and victory goals ("the ship's edge")
    /// are edges the map names.
    ///
    /// ## Why is this bad?
    /// Bands would have nowhere to enter and goals nowhere to be met.
    ///
    /// ## Example
    /// ```ron
    /// (id: "guard", name: "Ship's guard", figures: [(kind: "foot", count: 2), (kind: "bowman", count: 1), (kind: "leader", count: 1)], entry: AtEdge(edge: "ships")),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "guard", name: "Ship's guard", figures: [(kind: "foot", count: 2), (kind: "bowman", count: 1), (kind: "leader", count: 1)], entry: AtEdge(edge: "ship")),
    /// ```
    pub META = ("table::unknown-edge", Error, "a table edge name the map does not have");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    use muster_model::scenario::{BandEntry, Goal};
    let Some(table) = cx.table else { return };
    let known: Vec<&str> = table.edges.iter().map(|e| e.name.as_str()).collect();
    let mut refs: Vec<(Place, &str)> = Vec::new();
    for side in cx.table_sides() {
        for (b, band) in side.forces.bands.iter().enumerate() {
            let base = side.place.field("bands").index(b).field("entry");
            match &band.entry {
                BandEntry::AtEdge { edge, .. } => {
                    refs.push((base.variant("AtEdge").field("edge"), edge))
                }
                BandEntry::Rolled { edges } => refs.extend(
                    edges
                        .iter()
                        .enumerate()
                        .map(|(k, e)| (base.variant("Rolled").field("edges").index(k), e.as_str())),
                ),
                BandEntry::OnTable(_) => {}
            }
        }
    }
    for (base, goal) in cx.goals() {
        if let Goal::Escort { edge, .. } = goal {
            refs.push((base.variant("Escort").field("edge"), edge));
        }
    }
    for (place, edge) in refs {
        if !known.contains(&edge) {
            sink.push(
                Report::new(
                    &META,
                    place,
                    format!("map `{}` has no edge named `{edge}`", table.map),
                )
                .help_opt(
                    muster_db::suggest::did_you_mean(edge, known.iter().copied())
                        .or_else(|| Some(format!("edges: {}", known.join(", ")))),
                ),
            );
        }
    }
}
