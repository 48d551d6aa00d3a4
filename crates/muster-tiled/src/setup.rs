//! A scenario's counters at the start, as the `setup` object layer lists them: read
//! from the semantic model's board at turn 1.

use muster_hex::HexId;
use muster_semantic::ScenarioCx;

/// One counter (or a line of identical ones) on its hex at the start.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupPiece {
    /// The name printed on the counter.
    pub name: String,
    /// The counter id, or the unit kind of a sample deployment.
    pub counter: String,
    pub kind: String,
    /// The side's id, or `neutral`.
    pub side: String,
    pub hex: HexId,
    pub strength: Option<String>,
    pub count: u16,
}

/// Every counter the board of turn 1 stands on a hex, in the board's order.
pub fn setup_of(cx: &ScenarioCx) -> Vec<SetupPiece> {
    let board = cx.board(1);
    board
        .pieces
        .iter()
        .map(|p| SetupPiece {
            name: p.name.clone(),
            counter: p.counter.clone(),
            kind: p.kind.clone(),
            side: p
                .side
                .and_then(|i| board.sides.get(i))
                .map_or_else(|| "neutral".to_string(), |s| s.id.clone()),
            hex: p.hex,
            strength: p.strength.clone(),
            count: p.count,
        })
        .collect()
}
