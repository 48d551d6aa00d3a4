//! The VASSAL hex grid that lies on a board muster drew: where its origin and spacing
//! are, and the numbering that names every hex with muster's `CCRR` id. Also VASSAL's
//! own arithmetic from a pixel to a hex name and back (`HexGrid`'s raw column and row,
//! `HexGridNumbering`'s offsets and stagger), so a set-up can be read back in Rust.
//!
//! muster draws flat-topped hexes in columns. VASSAL's columns are numbered from a raw
//! column 0 at `x0`; odd raw columns sit half a hex lower. With `stagger` off, a hex's
//! row is its raw row plus `vOff`, so raw column `c - 1` (or `c` when muster's odd
//! columns are the low ones) with `hOff` 1 (or 0) names column `c`.

use muster_hex::{HexId, HexLayout};

/// A board's grid, in board pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub x0: i32,
    pub y0: i32,
    /// Distance between two columns' centres.
    pub dx: f64,
    /// Height of a hex (distance between two rows' centres).
    pub dy: f64,
    /// Added to a raw column to give muster's column number.
    pub h_off: i32,
    /// Added to a raw row to give muster's row number.
    pub v_off: i32,
}

impl Grid {
    /// The grid over a board drawn by `muster_render` for a map in `layout`, at
    /// `scale` pixels per drawing unit.
    pub fn for_layout(layout: HexLayout, scale: f64) -> Grid {
        let at = |col, row| {
            let (x, y) = muster_render::hex_centre(layout, HexId { col, row });
            (x * scale, y * scale)
        };
        let (x1, y1) = at(1, 1);
        let dx = at(2, 1).0 - x1;
        let dy = at(1, 2).1 - y1;
        // VASSAL's odd raw columns are the low ones: muster's column 1 is raw column 0
        // when muster's even columns are low, raw column 1 when its odd columns are.
        let first_low = at(2, 1).1 > y1;
        let (x0, h_off) = if first_low {
            (x1.round() as i32, 1)
        } else {
            ((x1 - dx).round() as i32, 0)
        };
        let y0 = if first_low { y1 } else { at(2, 1).1 };
        Grid {
            x0,
            y0: y0.round() as i32,
            dx,
            dy,
            h_off,
            v_off: 1,
        }
    }

    /// The `HexGrid` element's attributes, its numbering child's and the numbering's.
    pub fn xml(&self) -> String {
        format!(
            "<VASSAL.build.module.map.boardPicker.board.HexGrid color=\"0,0,0\" cornersLegal=\"false\" dotsVisible=\"false\" dx=\"{dx}\" dy=\"{dy}\" edgesLegal=\"false\" sideways=\"false\" snapTo=\"true\" visible=\"false\" x0=\"{x0}\" y0=\"{y0}\"><VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering color=\"0,0,0\" first=\"H\" fontSize=\"9\" hDescend=\"false\" hDrawOff=\"0\" hLeading=\"1\" hOff=\"{h}\" hType=\"N\" locationFormat=\"$gridLocation$\" rotateText=\"0\" sep=\"\" stagger=\"false\" vDescend=\"false\" vDrawOff=\"0\" vLeading=\"1\" vOff=\"{v}\" vType=\"N\" visible=\"false\"/></VASSAL.build.module.map.boardPicker.board.HexGrid>",
            dx = self.dx,
            dy = self.dy,
            x0 = self.x0,
            y0 = self.y0,
            h = self.h_off,
            v = self.v_off,
        )
    }

    /// Where VASSAL puts the centre of `hex` (`HexGridNumbering.getCenterPoint`).
    pub fn centre(&self, hex: HexId) -> (i32, i32) {
        let col = i32::from(hex.col) - self.h_off;
        let row = i32::from(hex.row) - self.v_off;
        let x = (f64::from(col) * self.dx) as i32 + self.x0;
        let y = if col % 2 == 0 {
            (f64::from(row) * self.dy) as i32
        } else {
            (f64::from(row) * self.dy + self.dy / 2.0) as i32
        } + self.y0;
        (x, y)
    }

    /// The raw column and row of a point (`HexGrid.getRawColumn`, `getRawRow`).
    fn raw(&self, (x, y): (i32, i32)) -> (i32, i32) {
        let rel_x = f64::from(x - self.x0);
        let col = (rel_x / self.dx + 0.5).floor() as i32;
        let nx = (rel_x / self.dx).round() as i32;
        let rel_y = f64::from(y - self.y0);
        let row = if nx % 2 == 0 {
            (rel_y / self.dy).round() as i32
        } else {
            ((rel_y - self.dy / 2.0) / self.dy).round() as i32
        };
        (col, row)
    }

    /// The name VASSAL gives the point (`locationName` with `$gridLocation$`): muster's
    /// hex id for a point on one of the map's hexes.
    pub fn location_name(&self, point: (i32, i32)) -> String {
        let (col, row) = self.raw(point);
        format!("{}{}", number(col + self.h_off), number(row + self.v_off))
    }
}

/// A grid number as VASSAL writes it with one leading zero's room (`hLeading` 1).
fn number(n: i32) -> String {
    let sign = if n < 0 { "-" } else { "" };
    let n = n.abs();
    if n < 10 {
        format!("{sign}0{n}")
    } else {
        format!("{sign}{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hex_is_named_with_its_id_at_its_centre_in_both_layouts() {
        for layout in [HexLayout::EvenColumnsDown, HexLayout::OddColumnsDown] {
            let grid = Grid::for_layout(layout, 1.0);
            for col in 1..=40 {
                for row in 1..=30 {
                    let hex = HexId { col, row };
                    let (mx, my) = muster_render::hex_centre(layout, hex);
                    let (vx, vy) = grid.centre(hex);
                    assert!(
                        (f64::from(vx) - mx).abs() <= 1.5 && (f64::from(vy) - my).abs() <= 1.5,
                        "{layout:?} {hex}: VASSAL ({vx},{vy}), muster ({mx},{my})"
                    );
                    assert_eq!(grid.location_name((vx, vy)), hex.to_string());
                    let muster = (mx.round() as i32, my.round() as i32);
                    assert_eq!(grid.location_name(muster), hex.to_string(), "{layout:?}");
                }
            }
        }
    }
}
