use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that no unit sets up in terrain it may not enter: impassable terrain (a
    /// river hex), terrain whose `prohibited` list in the rules system names the unit's
    /// kind or class (unless its `allowed` list names it), or a column a special rule
    /// closes. A feature a map adds to the hex (`AddTerrain`) keeps a unit out as the
    /// hex's own terrain does, an impassable one where the system's `terrain_combine`
    /// makes the hex impassable. A special rule may let named counters stand there anyway (an
    /// `impassable-area` rule's `except`).
    ///
    /// ## Why is this bad?
    /// The unit could never have got there and cannot move out; it is almost always a
    /// mistyped hex.
    ///
    /// ## Example
    /// ```ron
    /// // column 01 is a river
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "0105"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    pub META = ("setup::impassable-terrain", Error, "a unit set up in terrain it may not enter");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(map) = cx.map else { return };
    let exceptions = cx.terrain_exceptions();
    let closed = cx.impassable_columns();
    // The bridge an `impassable-area` rule names stays open in its closed column.
    let bridges = cx.open_in_closed_columns();
    let system_file = cx.system_file().map_or_else(
        || "the rules system".to_string(),
        |f| format!("`{}`", f.name),
    );
    for g in cx.groups() {
        let allowed =
            !g.units.is_empty() && g.units.iter().all(|u| exceptions.contains(&u.counter_id));
        if allowed {
            continue;
        }
        // Spaced placements: every hex of the run must be usable for the units.
        let mut hexes = g.hexes.clone();
        if let muster_model::scenario::Placement::Spaced { from, to, .. } = g.at
            && let (Ok(a), Ok(b)) = (muster_hex::HexId::parse(from), muster_hex::HexId::parse(to))
        {
            hexes.extend(
                muster_hex::HexGrid::straight_range(a, b)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|h| (h, g.place.field("at").variant("Spaced"))),
            );
        }
        // Whether a unit may stand in a hex depends on its kind alone: each kind of the
        // group once, with the first unit of it, and where it may stand looked up once.
        // A group may list thousands of units of a few kinds over thousands of hexes.
        // A unit a special rule lets in is not asked about.
        let mut seen = std::collections::HashSet::new();
        let kinds: Vec<_> = g
            .units
            .iter()
            .filter(|u| !exceptions.contains(&u.counter_id))
            .filter(|u| seen.insert(u.kind.map(|k| k.id.as_str())))
            .map(|u| (u.counter_id, u.kind.map(|k| (k, cx.entry(&k.id)))))
            .collect();
        for (hex, place) in hexes {
            if !map.contains(hex) {
                continue;
            }
            // The first unit of the group that may not stand here, and why.
            let barred = kinds.iter().find_map(|(who, kind)| match kind {
                Some((kind, entry)) if !entry.may_enter(hex) => Some((*who, Some(*kind))),
                Some(_) => None,
                None if !map.is_enterable(hex) => Some((*who, None)),
                None => None,
            });
            // The hex's own terrain, or else the feature added to it, that keeps the unit out.
            let own = map.terrain_id_at(hex).unwrap_or("?");
            let terrain = barred
                .and_then(|(_, kind)| kind)
                .and_then(|kind| cx.entry(&kind.id).barring_terrain(hex))
                .unwrap_or(own);
            let feature = (terrain != own).then_some(terrain);
            let terrain_type = cx
                .system
                .and_then(|s| s.terrain.iter().find(|t| t.id == terrain));
            let impassable = terrain_type.map_or(!map.is_enterable(hex), |t| {
                t.movement == muster_model::system::MoveCost::Impassable
            });
            let in_map = match feature {
                Some(_) => format!("take the added `{terrain}` off hex `{hex}` in the map"),
                None => format!("give hex `{hex}` another terrain in the map"),
            };
            let closes = closed.contains(&hex.col) && !bridges.contains(&hex);
            let (who, reason, help) = match barred {
                Some((who, _)) if impassable => (
                    who,
                    format!("`{terrain}` is impassable"),
                    format!(
                        "move `{who}` to a hex it may enter; if it does stand there, {in_map}, or make `{terrain}` enterable in {system_file} (a `movement` cost, or an `allowed` list naming the unit's kind)"
                    ),
                ),
                Some((who, Some(kind))) => {
                    let class = cx.class_of(&kind.id);
                    let named = match class {
                        Some(class) => format!("`{}` (class `{class}`)", kind.id),
                        None => format!("`{}`", kind.id),
                    };
                    (
                        who,
                        format!("`{terrain}` is prohibited to {named}"),
                        format!(
                            "move `{who}` to a hex its kind may enter; if it does stand there, name `{}` in the `allowed` list of terrain `{terrain}` in {system_file}, or {in_map}",
                            kind.id
                        ),
                    )
                }
                Some((who, None)) => (
                    who,
                    format!("`{terrain}` is impassable"),
                    format!("move `{who}` to a hex it may enter"),
                ),
                None if closes => {
                    let who = g.units.first().map(|u| u.counter_id).unwrap_or("unit");
                    (
                        who,
                        format!("a special rule closes column {:02}", hex.col),
                        format!(
                            "move `{who}` out of column {:02}, or change the special rule that closes it",
                            hex.col
                        ),
                    )
                }
                None => continue,
            };
            sink.push(
                Report::new(
                    &META,
                    place,
                    format!("`{who}` is set up in hex `{hex}`, where {reason}"),
                )
                .help(help),
            );
        }
    }
}
