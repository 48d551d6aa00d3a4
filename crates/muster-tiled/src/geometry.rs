//! Where muster's hexes fall on a Tiled hexagonal map: tile size, stagger and pixel
//! centres, the same arithmetic as Tiled's `HexagonalRenderer` for `staggeraxis="x"`.

use muster_hex::{HexGrid, HexId, HexLayout};

/// Width of a tile in pixels: two hexsides, flat top and bottom.
pub const TILE_WIDTH: u32 = 64;
/// Height of a tile in pixels (about `sqrt(3)` hexsides).
pub const TILE_HEIGHT: u32 = 56;
/// Length of the flat top side in pixels (`hexsidelength`).
pub const SIDE: u32 = 32;

/// How far apart two columns are: the top side plus one slanted side.
const COLUMN_WIDTH: f64 = (TILE_WIDTH + SIDE) as f64 / 2.0;

/// Tiled's `staggerindex` for a muster layout: Tiled counts columns from 0, so muster's
/// even columns (02, 04, ...) are Tiled's odd ones.
pub fn stagger_index(layout: HexLayout) -> &'static str {
    match layout {
        HexLayout::EvenColumnsDown => "odd",
        HexLayout::OddColumnsDown => "even",
    }
}

/// The muster layout of a Tiled `staggerindex` (the reverse of [`stagger_index`]).
pub fn layout_of(index: tiled::StaggerIndex) -> HexLayout {
    match index {
        tiled::StaggerIndex::Odd => HexLayout::EvenColumnsDown,
        tiled::StaggerIndex::Even => HexLayout::OddColumnsDown,
    }
}

/// Whether a muster column sits half a hex lower.
fn shifted(layout: HexLayout, col: u16) -> bool {
    match layout {
        HexLayout::EvenColumnsDown => col.is_multiple_of(2),
        HexLayout::OddColumnsDown => !col.is_multiple_of(2),
    }
}

/// The pixel centre of a hex.
pub fn centre(layout: HexLayout, hex: HexId) -> (f64, f64) {
    let x = f64::from(hex.col - 1) * COLUMN_WIDTH + f64::from(TILE_WIDTH) / 2.0;
    let half = if shifted(layout, hex.col) {
        f64::from(TILE_HEIGHT) / 2.0
    } else {
        0.0
    };
    let y = f64::from(hex.row - 1) * f64::from(TILE_HEIGHT) + half + f64::from(TILE_HEIGHT) / 2.0;
    (x, y)
}

/// The map's size in pixels.
pub fn pixel_size(grid: &HexGrid) -> (f64, f64) {
    let w = f64::from(grid.columns) * COLUMN_WIDTH + (f64::from(TILE_WIDTH) - COLUMN_WIDTH);
    let h = f64::from(grid.rows) * f64::from(TILE_HEIGHT)
        + if grid.columns > 1 {
            f64::from(TILE_HEIGHT) / 2.0
        } else {
            0.0
        };
    (w, h)
}

/// The hex of the map whose centre is nearest to a point (a label or a counter placed
/// by hand), if the point lies within a hex's height of it.
pub fn hex_at(grid: &HexGrid, point: (f64, f64)) -> Option<HexId> {
    let d2 = |h: HexId| {
        let (x, y) = centre(grid.layout, h);
        (x - point.0).powi(2) + (y - point.1).powi(2)
    };
    // The column and row the point falls in, then the nearest of its neighbourhood.
    let col = (point.0 / COLUMN_WIDTH).floor() as i64 + 1;
    let row = (point.1 / f64::from(TILE_HEIGHT)).floor() as i64 + 1;
    let mut best: Option<(f64, HexId)> = None;
    for c in col - 1..=col + 1 {
        for r in row - 1..=row + 1 {
            let (Ok(c), Ok(r)) = (u16::try_from(c), u16::try_from(r)) else {
                continue;
            };
            let hex = HexId::new(c, r);
            if !grid.contains(hex) {
                continue;
            }
            let d = d2(hex);
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, hex));
            }
        }
    }
    best.filter(|(d, _)| *d <= f64::from(TILE_HEIGHT).powi(2))
        .map(|(_, h)| h)
}

/// The two ends of the hexside between neighbours `a` and `b`, in pixels: the segment
/// through the midpoint of their centres, across the line joining them.
pub fn hexside(layout: HexLayout, a: HexId, b: HexId) -> [(f64, f64); 2] {
    let (ax, ay) = centre(layout, a);
    let (bx, by) = centre(layout, b);
    let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
    let (dx, dy) = (bx - ax, by - ay);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let half = f64::from(SIDE) / 2.0;
    let (px, py) = (-dy / len * half, dx / len * half);
    [(mx - px, my - py), (mx + px, my + py)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_one_hex_height_apart_whatever_the_layout() {
        for layout in [HexLayout::EvenColumnsDown, HexLayout::OddColumnsDown] {
            let grid = HexGrid::new(6, 6, layout);
            for hex in grid.hexes() {
                let (x, y) = centre(layout, hex);
                for n in grid.neighbours(hex) {
                    let (nx, ny) = centre(layout, n);
                    let d = ((nx - x).powi(2) + (ny - y).powi(2)).sqrt();
                    // Columns 48 px apart and rows 56 px: neighbours are 56 or
                    // sqrt(48^2 + 28^2) = 55.6 px apart; any other hex is further.
                    assert!((55.0..=56.0).contains(&d), "{hex} {n}: {d}");
                }
                for other in grid
                    .hexes()
                    .filter(|o| *o != hex && !grid.adjacent(hex, *o))
                {
                    let (ox, oy) = centre(layout, other);
                    assert!(((ox - x).powi(2) + (oy - y).powi(2)).sqrt() > 90.0);
                }
                assert_eq!(hex_at(&grid, (x + 7.0, y - 9.0)), Some(hex));
            }
        }
    }

    #[test]
    fn even_columns_down_is_tiled_odd_stagger() {
        // 0201 is below 0101 and 0301 in muster's even-columns-down layout.
        let layout = HexLayout::EvenColumnsDown;
        assert_eq!(stagger_index(layout), "odd");
        let y = |c| centre(layout, HexId::new(c, 1)).1;
        assert!(y(2) > y(1) && y(2) > y(3));
        assert_eq!(layout_of(tiled::StaggerIndex::Odd), layout);
        assert_eq!(
            layout_of(tiled::StaggerIndex::Even),
            HexLayout::OddColumnsDown
        );
    }
}
