//! Plane geometry for open tables.

use muster_model::map::{Point, Shape};

/// Whether `p` lies in an area shape, or within `tolerance` of a line shape.
pub fn covers(shape: &Shape, p: Point, tolerance: f64) -> bool {
    match shape {
        Shape::Rect { x, y, w, h } => p.0 >= *x && p.0 <= x + w && p.1 >= *y && p.1 <= y + h,
        Shape::Circle { x, y, r } => (p.0 - x).hypot(p.1 - y) <= *r,
        Shape::Polygon(points) => inside_polygon(points, p),
        Shape::Line(points) => points
            .windows(2)
            .any(|s| segment_distance(s[0], s[1], p) <= tolerance),
    }
}

/// Even-odd rule.
pub fn inside_polygon(points: &[Point], p: Point) -> bool {
    let mut inside = false;
    let n = points.len();
    for i in 0..n {
        let (a, b) = (points[i], points[(i + n - 1) % n]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 {
            inside = !inside;
        }
    }
    inside
}

pub fn segment_distance(a: Point, b: Point, p: Point) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    (p.0 - (a.0 + t * dx)).hypot(p.1 - (a.1 + t * dy))
}

/// A shape made ready to answer [`covers`] for many points, row by row, with the
/// same answers: a polygon's edges that cross a row are found once for the row, and
/// a line's segments that come near it; points repeated one after another are
/// dropped (they add no edge). A table of `R` rows and `C` columns then costs about
/// `R x edges + R x C`, not `R x C x edges`: a polygon of 170,000 points took two
/// seconds to compile.
#[derive(Debug, Clone)]
pub struct Coverage {
    shape: Shape,
    tolerance: f64,
    /// A polygon's or line's points without repeats in a row.
    points: Vec<Point>,
}

/// A [`Coverage`] cut at one row (`y`).
#[derive(Debug, Clone)]
pub struct RowCoverage<'c> {
    coverage: &'c Coverage,
    y: f64,
    /// A polygon: where its edges cross the row, sorted.
    crossings: Vec<f64>,
    /// A line: the segments that may come within the tolerance of the row.
    near: Vec<(Point, Point)>,
}

impl Coverage {
    pub fn new(shape: &Shape, tolerance: f64) -> Coverage {
        let points = match shape {
            Shape::Polygon(points) | Shape::Line(points) => {
                let mut kept: Vec<Point> = Vec::with_capacity(points.len());
                for p in points {
                    if kept.last() != Some(p) {
                        kept.push(*p);
                    }
                }
                // A line of one point written many times is that point.
                if matches!(shape, Shape::Line(_)) && kept.len() == 1 && points.len() > 1 {
                    kept.push(kept[0]);
                }
                kept
            }
            Shape::Rect { .. } | Shape::Circle { .. } => Vec::new(),
        };
        Coverage {
            shape: shape.clone(),
            tolerance,
            points,
        }
    }

    /// The shape cut at row `y`.
    pub fn row(&self, y: f64) -> RowCoverage<'_> {
        let mut crossings = Vec::new();
        let mut near = Vec::new();
        match &self.shape {
            Shape::Polygon(_) => {
                let n = self.points.len();
                for i in 0..n {
                    // As `inside_polygon` pairs and computes them, to the last bit.
                    let (a, b) = (self.points[i], self.points[(i + n - 1) % n]);
                    if (a.1 > y) != (b.1 > y) {
                        let at = (b.0 - a.0) * (y - a.1) / (b.1 - a.1) + a.0;
                        // No point lies left of a crossing that is not a number.
                        if !at.is_nan() {
                            crossings.push(at);
                        }
                    }
                }
                crossings.sort_by(f64::total_cmp);
            }
            Shape::Line(_) => {
                // Widened a little beyond the tolerance, so that rounding in the
                // distance never puts a segment the exact test would take outside.
                let reach = self.tolerance.abs() * (1.0 + 1e-9) + 1e-9 * (1.0 + y.abs());
                for s in self.points.windows(2) {
                    let (low, high) = (s[0].1.min(s[1].1), s[0].1.max(s[1].1));
                    if y >= low - reach && y <= high + reach {
                        near.push((s[0], s[1]));
                    }
                }
            }
            Shape::Rect { .. } | Shape::Circle { .. } => {}
        }
        RowCoverage {
            coverage: self,
            y,
            crossings,
            near,
        }
    }
}

impl RowCoverage<'_> {
    /// Whether the point `(x, y)` of the row is covered, as [`covers`] says.
    pub fn covers(&self, x: f64) -> bool {
        let p = (x, self.y);
        let c = self.coverage;
        match &c.shape {
            Shape::Rect { .. } | Shape::Circle { .. } => covers(&c.shape, p, c.tolerance),
            // The even-odd rule: crossings strictly right of the point.
            Shape::Polygon(_) => {
                let right = self.crossings.len() - self.crossings.partition_point(|&cx| cx <= x);
                right % 2 == 1 && !x.is_nan()
            }
            Shape::Line(_) => self
                .near
                .iter()
                .any(|&(a, b)| segment_distance(a, b, p) <= c.tolerance),
        }
    }
}

/// The points that bound a shape (corners, vertices, or the circle's box).
pub fn extent(shape: &Shape) -> Vec<Point> {
    match shape {
        Shape::Rect { x, y, w, h } => vec![(*x, *y), (x + w, *y), (x + w, y + h), (*x, y + h)],
        Shape::Circle { x, y, r } => vec![(x - r, y - r), (x + r, y + r)],
        Shape::Polygon(points) | Shape::Line(points) => points.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row by row, a shape covers exactly the points `covers` says it does: over
    /// random polygons and lines (with repeated points), at and around their own
    /// vertices and on a grid.
    #[test]
    fn rows_cover_what_points_do() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            f64::from((seed % u64::from(n)) as u32) / 2.0
        };
        let (mut compared, mut inside) = (0, 0);
        for case in 0..300 {
            let len = 1 + (next(24) as usize);
            let mut points: Vec<Point> = (0..len).map(|_| (next(40), next(40))).collect();
            if case % 3 == 0 {
                let again = points[0];
                points.splice(0..0, [again, again]);
            }
            let shape = if case % 2 == 0 {
                Shape::Polygon(points.clone())
            } else {
                Shape::Line(points.clone())
            };
            let tolerance = [0.0, 0.5, 1.0, 1.25][case % 4];
            let coverage = Coverage::new(&shape, tolerance);
            let mut ys: Vec<f64> = (0..41).map(|k| f64::from(k) / 2.0).collect();
            ys.extend(points.iter().map(|p| p.1));
            for y in ys {
                let row = coverage.row(y);
                let mut xs: Vec<f64> = (0..41).map(|k| f64::from(k) / 2.0 + 0.25).collect();
                xs.extend(points.iter().flat_map(|p| [p.0, p.0 + 0.5, p.0 - 0.5]));
                for x in xs {
                    let want = covers(&shape, (x, y), tolerance);
                    assert_eq!(row.covers(x), want, "{shape:?} at ({x}, {y}), {tolerance}");
                    compared += 1;
                    inside += usize::from(want);
                }
            }
        }
        assert!(
            compared > 100_000 && inside > 10_000,
            "{compared}, {inside}"
        );
    }

    #[test]
    fn shapes() {
        let square = Shape::Polygon(vec![(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]);
        assert!(covers(&square, (5.0, 5.0), 0.0));
        assert!(!covers(&square, (15.0, 5.0), 0.0));
        let hedge = Shape::Line(vec![(0.0, 0.0), (10.0, 0.0)]);
        assert!(covers(&hedge, (5.0, 0.4), 0.5));
        assert!(!covers(&hedge, (5.0, 2.0), 0.5));
        assert!(covers(
            &Shape::Circle {
                x: 0.0,
                y: 0.0,
                r: 2.0
            },
            (1.0, 1.0),
            0.0
        ));
    }
}
