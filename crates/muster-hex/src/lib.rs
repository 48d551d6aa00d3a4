//! Hex geometry for muster: the `CCRR` hex id, the column-offset layouts that printed
//! wargame maps use, and the queries the validator and the map compiler need
//! (neighbours, distance, edges, straight ranges, zones).
//!
//! The arithmetic is delegated to `hexx`; this crate owns the *convention*: printed
//! column and row numbers are used as-is (1-based), and [`HexLayout`] says which
//! columns are shifted half a hex down. Les Rois Francs uses
//! [`HexLayout::EvenColumnsDown`] (see the neighbour tests built from the rulebook's
//! own examples).

use std::fmt;

use hexx::{Hex, HexOrientation, OffsetHexMode};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A printed hex number: column and row, both 1-based, written `CCRR` (`0207`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexId {
    pub col: u16,
    pub row: u16,
}

/// Why a string is not a hex id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HexIdError {
    /// Not four ASCII digits.
    NotFourDigits,
    /// Column or row `00`, which no printed map uses.
    ZeroComponent,
}

impl fmt::Display for HexIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexIdError::NotFourDigits => f.write_str("a hex id is four digits, `CCRR`"),
            HexIdError::ZeroComponent => f.write_str("columns and rows are numbered from 01"),
        }
    }
}

impl HexId {
    pub const fn new(col: u16, row: u16) -> Self {
        Self { col, row }
    }

    /// Parses `CCRR`. Never panics on any input.
    pub fn parse(text: &str) -> Result<Self, HexIdError> {
        let bytes = text.as_bytes();
        if bytes.len() != 4 || !bytes.iter().all(u8::is_ascii_digit) {
            return Err(HexIdError::NotFourDigits);
        }
        let num = |a: u8, b: u8| u16::from(a - b'0') * 10 + u16::from(b - b'0');
        let id = HexId::new(num(bytes[0], bytes[1]), num(bytes[2], bytes[3]));
        if id.col == 0 || id.row == 0 {
            return Err(HexIdError::ZeroComponent);
        }
        Ok(id)
    }
}

impl HexId {
    /// The usual four digits, when column and row are both below 100.
    fn four_digits(self) -> Option<[u8; 4]> {
        let digit = |n: u16| b'0' + u8::try_from(n % 10).unwrap_or(0);
        (self.col < 100 && self.row < 100).then(|| {
            [
                digit(self.col / 10),
                digit(self.col),
                digit(self.row / 10),
                digit(self.row),
            ]
        })
    }

    /// The id as text (`"0912"`), as [`fmt::Display`] writes it: a search writes out
    /// every hex of its paths, so this makes one allocation of the right size and no
    /// pass through the formatting machinery.
    pub fn text(self) -> String {
        match self.four_digits() {
            Some(d) => String::from_utf8_lossy(&d).into_owned(),
            None => self.to_string(),
        }
    }
}

impl fmt::Display for HexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.four_digits() {
            Some(d) => f.write_str(std::str::from_utf8(&d).unwrap_or("????")),
            None => write!(f, "{:02}{:02}", self.col, self.row),
        }
    }
}

/// Which columns of a vertical-column (flat-topped) hex map sit half a hex lower.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, Default)]
pub enum HexLayout {
    /// Columns 02, 04, ... are shifted down (the default).
    #[default]
    EvenColumnsDown,
    /// Columns 01, 03, ... are shifted down.
    OddColumnsDown,
}

impl HexLayout {
    fn mode(self) -> OffsetHexMode {
        match self {
            HexLayout::EvenColumnsDown => OffsetHexMode::Even,
            HexLayout::OddColumnsDown => OffsetHexMode::Odd,
        }
    }

    fn to_axial(self, id: HexId) -> Hex {
        Hex::from_offset_coordinates(
            [i32::from(id.col), i32::from(id.row)],
            self.mode(),
            HexOrientation::Flat,
        )
    }

    fn id_of_axial(self, hex: Hex) -> Option<HexId> {
        let [col, row] = hex.to_offset_coordinates(self.mode(), HexOrientation::Flat);
        let col = u16::try_from(col).ok().filter(|c| (1..=99).contains(c))?;
        let row = u16::try_from(row).ok().filter(|r| (1..=99).contains(r))?;
        Some(HexId::new(col, row))
    }

    /// The axial coordinates `[q, r]` of a hex (flat-topped), for straight lines and
    /// lines of sight.
    pub fn axial(self, id: HexId) -> [i32; 2] {
        let h = self.to_axial(id);
        [h.x, h.y]
    }

    /// The hex at axial coordinates `[q, r]`, if it has a printable number.
    pub fn from_axial(self, axial: [i32; 2]) -> Option<HexId> {
        self.id_of_axial(Hex::new(axial[0], axial[1]))
    }

    /// Distance in hexes, ignoring map bounds.
    pub fn distance(self, a: HexId, b: HexId) -> u32 {
        self.to_axial(a).unsigned_distance_to(self.to_axial(b))
    }

    /// Whether two hexes share a hexside.
    pub fn adjacent(self, a: HexId, b: HexId) -> bool {
        self.distance(a, b) == 1
    }

    /// The hexside of `from` that its neighbour `to` lies across, numbered clockwise from
    /// north on the flat-topped map: 0 north, 1 north-east, 2 south-east, 3 south, 4
    /// south-west, 5 north-west. `None` unless the two are neighbours.
    pub fn direction(self, from: HexId, to: HexId) -> Option<u8> {
        let ([q0, r0], [q1, r1]) = (self.axial(from), self.axial(to));
        match (q1 - q0, r1 - r0) {
            (0, -1) => Some(0),
            (1, -1) => Some(1),
            (1, 0) => Some(2),
            (0, 1) => Some(3),
            (-1, 1) => Some(4),
            (-1, 0) => Some(5),
            _ => None,
        }
    }

    /// The six neighbours, leaving out those with no printable number (column or row 0).
    pub fn neighbours(self, id: HexId) -> Vec<HexId> {
        self.neighbour_iter(id).collect()
    }

    /// [`HexLayout::neighbours`] one by one, with nothing allocated: for search loops.
    pub fn neighbour_iter(self, id: HexId) -> impl Iterator<Item = HexId> {
        self.to_axial(id)
            .all_neighbors()
            .into_iter()
            .filter_map(move |h| self.id_of_axial(h))
    }
}

/// A map edge, as seen on a map whose columns run north to south.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Edge {
    North,
    East,
    South,
    West,
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Edge::North => "north",
            Edge::East => "east",
            Edge::South => "south",
            Edge::West => "west",
        })
    }
}

/// A rectangular hex map: columns `01..=columns`, rows `01..=rows`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HexGrid {
    pub columns: u16,
    pub rows: u16,
    pub layout: HexLayout,
}

/// Why two hexes do not make a straight range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeError {
    /// The end comes before the start in its column or row.
    Reversed,
    /// The two hexes share neither a column nor a row.
    NotInLine,
}

impl HexGrid {
    pub fn new(columns: u16, rows: u16, layout: HexLayout) -> Self {
        Self {
            columns,
            rows,
            layout,
        }
    }

    pub fn contains(&self, id: HexId) -> bool {
        (1..=self.columns).contains(&id.col) && (1..=self.rows).contains(&id.row)
    }

    /// Every hex of the map, column by column.
    pub fn hexes(&self) -> impl Iterator<Item = HexId> + '_ {
        (1..=self.columns).flat_map(move |c| (1..=self.rows).map(move |r| HexId::new(c, r)))
    }

    pub fn len(&self) -> usize {
        usize::from(self.columns) * usize::from(self.rows)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Neighbours that are on the map.
    pub fn neighbours(&self, id: HexId) -> Vec<HexId> {
        self.neighbour_iter(id).collect()
    }

    /// [`HexGrid::neighbours`] one by one, with nothing allocated: for search loops.
    pub fn neighbour_iter(&self, id: HexId) -> impl Iterator<Item = HexId> + '_ {
        self.layout.neighbour_iter(id).filter(|n| self.contains(*n))
    }

    pub fn distance(&self, a: HexId, b: HexId) -> u32 {
        self.layout.distance(a, b)
    }

    pub fn adjacent(&self, a: HexId, b: HexId) -> bool {
        self.layout.adjacent(a, b)
    }

    /// [`HexLayout::direction`] on this grid's layout.
    pub fn direction(&self, from: HexId, to: HexId) -> Option<u8> {
        self.layout.direction(from, to)
    }

    /// The edges a hex lies on (empty for an inner hex or a hex off the map).
    pub fn edges_of(&self, id: HexId) -> Vec<Edge> {
        if !self.contains(id) {
            return Vec::new();
        }
        let mut edges = Vec::new();
        if id.row == 1 {
            edges.push(Edge::North);
        }
        if id.col == self.columns {
            edges.push(Edge::East);
        }
        if id.row == self.rows {
            edges.push(Edge::South);
        }
        if id.col == 1 {
            edges.push(Edge::West);
        }
        edges
    }

    pub fn is_edge(&self, id: HexId) -> bool {
        !self.edges_of(id).is_empty()
    }

    /// The hexes along a map edge, in the order of [`HexGrid::hexes`]: by column along
    /// the north and south edges, by row along the east and west ones.
    pub fn edge_hexes(&self, edge: Edge) -> Vec<HexId> {
        match edge {
            Edge::North => (1..=self.columns).map(|c| HexId::new(c, 1)).collect(),
            Edge::South => (1..=self.columns)
                .map(|c| HexId::new(c, self.rows))
                .collect(),
            Edge::West => (1..=self.rows).map(|r| HexId::new(1, r)).collect(),
            Edge::East => (1..=self.rows)
                .map(|r| HexId::new(self.columns, r))
                .collect(),
        }
    }

    /// Hexes within `radius` of `center` that are on the map (a zone such as `H-5`).
    ///
    /// The work is bounded by the map, whatever the radius: a disc with more hexes than the
    /// map is found by measuring the distance to every hex of the map instead.
    pub fn within(&self, center: HexId, radius: u32) -> Vec<HexId> {
        let r = u64::from(radius);
        let disc = r.saturating_mul(r + 1).saturating_mul(3).saturating_add(1);
        let mut out: Vec<HexId> = if disc > self.len() as u64 {
            self.hexes()
                .filter(|h| self.distance(center, *h) <= radius)
                .collect()
        } else {
            self.layout
                .to_axial(center)
                .range(radius)
                .filter_map(|h| self.layout.id_of_axial(h))
                .filter(|h| self.contains(*h))
                .collect()
        };
        out.sort();
        out
    }

    /// The largest distance between two hexes of the map: no zone needs a larger radius
    /// to reach every hex from a hex on the map. 0 for an empty map.
    pub fn extent(&self) -> u32 {
        if self.is_empty() {
            return 0;
        }
        let (c, r) = (self.columns, self.rows);
        // The farthest pairs are corners; rows next to the corners cover the half-hex
        // shift of alternate columns.
        let mut corners = Vec::new();
        for col in [1, c] {
            for row in [1, 2.min(r), r.saturating_sub(1).max(1), r] {
                corners.push(HexId::new(col, row));
            }
        }
        let mut far = 0;
        for a in &corners {
            for b in &corners {
                far = far.max(self.distance(*a, *b));
            }
        }
        far
    }

    /// The hexes of a printed range such as `0307 à 0309` (one column) or
    /// `0315 to 0915` (one row), both ends included. Bounds are not checked here.
    pub fn straight_range(from: HexId, to: HexId) -> Result<Vec<HexId>, RangeError> {
        if from.col == to.col {
            if from.row > to.row {
                return Err(RangeError::Reversed);
            }
            Ok((from.row..=to.row)
                .map(|r| HexId::new(from.col, r))
                .collect())
        } else if from.row == to.row {
            if from.col > to.col {
                return Err(RangeError::Reversed);
            }
            Ok((from.col..=to.col)
                .map(|c| HexId::new(c, from.row))
                .collect())
        } else {
            Err(RangeError::NotInLine)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> HexId {
        HexId::parse(s).unwrap()
    }

    fn sorted(mut v: Vec<HexId>) -> Vec<String> {
        v.sort();
        v.into_iter().map(|h| h.to_string()).collect()
    }

    fn lrf(columns: u16, rows: u16) -> HexGrid {
        HexGrid::new(columns, rows, HexLayout::EvenColumnsDown)
    }

    /// North is the row above, south the row below; across a column, the neighbour
    /// higher on the page is north-east or north-west, whichever way the columns shift.
    #[test]
    fn directions_run_clockwise_from_north() {
        for layout in [HexLayout::EvenColumnsDown, HexLayout::OddColumnsDown] {
            let at = h("0505");
            let mut around: Vec<(u8, String)> = layout
                .neighbours(at)
                .into_iter()
                .map(|n| (layout.direction(at, n).unwrap(), n.to_string()))
                .collect();
            around.sort();
            let (ne, se, sw, nw) = match layout {
                // Column 06 sits half a hex lower than column 05.
                HexLayout::EvenColumnsDown => ("0604", "0605", "0405", "0404"),
                HexLayout::OddColumnsDown => ("0605", "0606", "0406", "0405"),
            };
            let want: Vec<(u8, String)> =
                [(0, "0504"), (1, ne), (2, se), (3, "0506"), (4, sw), (5, nw)]
                    .into_iter()
                    .map(|(d, x)| (d, x.to_string()))
                    .collect();
            assert_eq!(around, want, "{layout:?}");
            assert_eq!(layout.direction(at, h("0507")), None);
            assert_eq!(layout.direction(at, at), None);
        }
    }

    #[test]
    fn parses_and_prints_ccrr() {
        assert_eq!(h("0207"), HexId::new(2, 7));
        assert_eq!(h("1315").to_string(), "1315");
        assert_eq!(HexId::new(1, 9).to_string(), "0109");
        assert_eq!(HexId::new(99, 10).to_string(), "9910");
        assert_eq!(HexId::new(123, 5).to_string(), "12305");
        for h in [HexId::new(1, 9), HexId::new(99, 10), HexId::new(123, 5)] {
            assert_eq!(h.text(), h.to_string());
        }
        assert_eq!(HexId::parse("207"), Err(HexIdError::NotFourDigits));
        assert_eq!(HexId::parse("02a7"), Err(HexIdError::NotFourDigits));
        assert_eq!(HexId::parse("0007"), Err(HexIdError::ZeroComponent));
        assert_eq!(HexId::parse("０２０７"), Err(HexIdError::NotFourDigits));
    }

    // The neighbour lists below are the rulebook's own (Les Rois Francs, examples of
    // retreat and combat), written out by hand rather than computed.
    #[test]
    fn jengland_example_neighbours_of_0207() {
        let got = sorted(lrf(15, 10).neighbours(h("0207")));
        assert_eq!(got, ["0107", "0108", "0206", "0208", "0307", "0308"]);
    }

    #[test]
    fn militia_example_neighbours_of_0608() {
        let got = sorted(lrf(15, 10).neighbours(h("0608")));
        assert_eq!(got, ["0508", "0509", "0607", "0609", "0708", "0709"]);
    }

    #[test]
    fn fontenoy_example_0611_touches_0711_and_0712() {
        let grid = lrf(12, 15);
        assert!(grid.adjacent(h("0611"), h("0711")));
        assert!(grid.adjacent(h("0611"), h("0712")));
        assert!(!grid.adjacent(h("0611"), h("0710")));
    }

    #[test]
    fn jengland_bridge_is_reached_from_0208() {
        let got = sorted(lrf(15, 10).neighbours(h("0208")));
        assert!(got.contains(&"0108".to_string()) && got.contains(&"0109".to_string()));
    }

    #[test]
    fn odd_layout_mirrors_even() {
        let got = sorted(HexLayout::OddColumnsDown.neighbours(h("0207")));
        assert_eq!(got, ["0106", "0107", "0206", "0208", "0306", "0307"]);
    }

    #[test]
    fn neighbours_are_clipped_to_the_map() {
        assert_eq!(sorted(lrf(12, 15).neighbours(h("0101"))), ["0102", "0201"]);
    }

    #[test]
    fn distance_and_zones() {
        let grid = lrf(12, 15);
        assert_eq!(grid.distance(h("0207"), h("0207")), 0);
        assert_eq!(grid.distance(h("0207"), h("0308")), 1);
        assert_eq!(grid.distance(h("0101"), h("0105")), 4);
        assert_eq!(grid.within(h("0606"), 1).len(), 7);
        assert_eq!(grid.within(h("0606"), 2).len(), 19);
        assert_eq!(grid.within(h("0101"), 1).len(), 3);
    }

    #[test]
    fn a_huge_radius_costs_no_more_than_the_map() {
        // A 65535-hex disc has about 12.9 billion hexes; the map has 180. The answer is
        // every hex of the map, found by looking at those 180 only.
        let grid = lrf(12, 15);
        assert_eq!(grid.within(h("0811"), 65535).len(), 180);
        assert_eq!(grid.within(h("0811"), u32::MAX).len(), 180);
        // Both ways of finding a zone agree where they meet.
        for radius in 0..12 {
            let brute: Vec<HexId> = grid
                .hexes()
                .filter(|x| grid.distance(h("0606"), *x) <= radius)
                .collect();
            assert_eq!(sorted(grid.within(h("0606"), radius)), sorted(brute));
        }
    }

    #[test]
    fn the_extent_is_the_largest_distance_on_the_map() {
        for (c, r) in [
            (1, 1),
            (1, 9),
            (9, 1),
            (12, 15),
            (15, 10),
            (2, 30),
            (30, 2),
            (7, 7),
        ] {
            for layout in [HexLayout::EvenColumnsDown, HexLayout::OddColumnsDown] {
                let grid = HexGrid::new(c, r, layout);
                let far = grid
                    .hexes()
                    .flat_map(|a| grid.hexes().map(move |b| (a, b)))
                    .map(|(a, b)| grid.distance(a, b))
                    .max()
                    .unwrap();
                assert_eq!(grid.extent(), far, "{c} x {r} {layout:?}");
            }
        }
        assert_eq!(lrf(0, 5).extent(), 0);
    }

    #[test]
    fn edges() {
        let grid = lrf(12, 15);
        assert_eq!(grid.edges_of(h("0515")), [Edge::South]);
        assert_eq!(grid.edges_of(h("1208")), [Edge::East]);
        assert_eq!(grid.edges_of(h("0901")), [Edge::North]);
        assert_eq!(grid.edges_of(h("0101")), [Edge::North, Edge::West]);
        assert!(!grid.is_edge(h("0608")));
        assert!(!grid.is_edge(h("1316")));
    }

    #[test]
    fn straight_ranges() {
        let r = HexGrid::straight_range(h("0307"), h("0309")).unwrap();
        assert_eq!(sorted(r), ["0307", "0308", "0309"]);
        assert_eq!(
            HexGrid::straight_range(h("0315"), h("0915")).unwrap().len(),
            7
        );
        assert_eq!(
            HexGrid::straight_range(h("0309"), h("0307")),
            Err(RangeError::Reversed)
        );
        assert_eq!(
            HexGrid::straight_range(h("0307"), h("0408")),
            Err(RangeError::NotInLine)
        );
    }
}
