//! Alike pieces on one hex, folded as they are laid.

use muster_hex::HexId;

use super::{Board, MAX_DRAWN_COPIES, Piece, PieceState};

/// Alike pieces on one hex (same side, counter, kind and state, nothing aboard) beyond
/// [`MAX_DRAWN_COPIES`] stand as one: the last one kept counts them all. A sample that
/// lists the same unit on one hex thousands of times (each line within the limit) gives
/// a stack of at most that many counters, so the board stays as small as its hexes.
///
/// The folding happens as pieces are laid, so a piece that only adds to a full stack is
/// never built: the board of a file costs its stacks, not its lines.
#[derive(Default)]
pub(super) struct Stacks {
    /// Counter and kind ids, numbered, so that a stack's key is copied, not allocated.
    names: muster_db::FastMap<String, u32>,
    /// By stack: how many pieces it has, and the index of its last one.
    kept: muster_db::FastMap<StackKey, (u16, usize)>,
}

/// A hex, a side, a counter, a kind (numbered by [`Stacks::names`]) and a state.
type StackKey = (HexId, Option<usize>, u32, u32, PieceState);

impl Stacks {
    fn name(&mut self, id: &str) -> u32 {
        if let Some(&n) = self.names.get(id) {
            return n;
        }
        let n = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.names.insert(id.to_string(), n);
        n
    }

    /// The stack a piece of these would join.
    pub(super) fn key(
        &mut self,
        hex: HexId,
        side: Option<usize>,
        counter: &str,
        kind: &str,
        state: PieceState,
    ) -> StackKey {
        (hex, side, self.name(counter), self.name(kind), state)
    }

    /// Lays a piece of stack `key` that counts `count` units: onto the stack's last
    /// piece when the stack is full, else as a piece of its own, built by `make`.
    pub(super) fn lay(
        &mut self,
        board: &mut Board,
        key: StackKey,
        count: u16,
        make: impl FnOnce() -> Piece,
    ) {
        match self.kept.get_mut(&key) {
            Some((n, last)) if *n >= MAX_DRAWN_COPIES => {
                let piece = &mut board.pieces[*last];
                piece.count = piece.count.saturating_add(count);
            }
            Some((n, last)) => {
                *n += 1;
                *last = board.pieces.len();
                board.pieces.push(make());
            }
            None => {
                self.kept.insert(key, (1, board.pieces.len()));
                board.pieces.push(make());
            }
        }
    }

    /// Lays `piece`: a piece with units aboard always stands on its own.
    pub(super) fn push(&mut self, board: &mut Board, piece: Piece) {
        if !piece.aboard.is_empty() {
            board.pieces.push(piece);
            return;
        }
        let key = self.key(
            piece.hex,
            piece.side,
            &piece.counter,
            &piece.kind,
            piece.state,
        );
        let count = piece.count;
        self.lay(board, key, count, || piece);
    }
}
