use muster_hex::HexId;

use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that every hex a map overlay or a scenario names lies on the map (for a
    /// scenario, the map it references).
    ///
    /// ## Why is this bad?
    /// A unit set up off the map, or an overlay drawn beyond it, is a transcription
    /// error: the engine has nowhere to put it.
    ///
    /// ## Example
    /// ```ron
    /// // on a 12 x 15 map
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1316"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1215"])),
    /// ```
    pub META = ("geometry::off-map", Error, "a hex outside the map");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Some(grid) = cx.grid else { return };
    for r in cx.hexes() {
        let Ok(hex) = r.hex else {
            continue;
        };
        if !grid.contains(hex) {
            sink.push(
                Report::new(&META, r.place(), format!("hex `{hex}` is outside the map")).help(
                    format!(
                        "the map is {} columns x {} rows (`0101` to `{}`)",
                        grid.columns,
                        grid.rows,
                        HexId::new(grid.columns, grid.rows)
                    ),
                ),
            );
        }
    }
}
