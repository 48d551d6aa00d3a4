//! Open-table geometry: unit footprints, feature outlines and their overlaps.

use muster_map::geometry::{inside_polygon, segment_distance};
use muster_model::map::Shape;
use muster_model::scenario::{Formation, TableUnit};
use muster_model::system::KindStats;

use crate::ScenarioCx;
use muster_db::load::Document;
use muster_db::place::Place;

/// Every shape a file places on an open table (a map's features; a scenario's camps,
/// traps, zones and bands on the table), with the place of each.
pub fn shapes_of(doc: &Document) -> Vec<(Place, &Shape)> {
    use muster_model::map::Overlay;
    use muster_model::scenario::{BandEntry, Forces};
    let mut out = Vec::new();
    match doc {
        Document::Map(map) => {
            for (i, overlay) in map.overlays.iter().enumerate() {
                if let Overlay::Feature { shape, .. } = overlay {
                    out.push((Place::overlay(i).variant("Feature").field("shape"), shape));
                }
            }
        }
        Document::Scenario(scenario) => {
            for (i, side) in scenario.sides.iter().enumerate() {
                let forces = match &side.forces {
                    Forces::Table(forces) => forces,
                    Forces::Placed { .. } | Forces::Zoned(_) => continue,
                };
                let base = Place::table_forces(i);
                if let Some(camp) = &forces.camp {
                    out.push((base.field("camp").field("area"), &camp.area));
                }
                for (k, trap) in forces.traps.iter().enumerate() {
                    out.push((base.field("traps").index(k).field("area"), &trap.area));
                }
                for (k, zone) in forces.zones.iter().enumerate() {
                    out.push((base.field("zones").index(k).field("area"), &zone.area));
                }
                for (k, band) in forces.bands.iter().enumerate() {
                    match &band.entry {
                        BandEntry::OnTable(shape) => {
                            let entry = base.field("bands").index(k).field("entry");
                            out.push((entry.variant("OnTable"), shape));
                        }
                        BandEntry::AtEdge { .. } | BandEntry::Rolled { .. } => {}
                    }
                }
            }
        }
        Document::System(_) | Document::Counters(_) => {}
    }
    out
}

/// Why a shape covers nothing or has no place, in words; `None` when it is sound.
pub fn shape_problem(shape: &Shape) -> Option<String> {
    let finite = |points: &[(f64, f64)]| points.iter().all(|(x, y)| x.is_finite() && y.is_finite());
    match shape {
        Shape::Rect { x, y, w, h } => {
            if !finite(&[(*x, *y), (*w, *h)]) {
                Some(
                    "a rectangle with a coordinate or size that is not a finite number".to_string(),
                )
            } else if *w <= 0.0 || *h <= 0.0 {
                Some(format!(
                    "a rectangle {w} by {h} inches covers nothing: width and height must be above 0"
                ))
            } else {
                None
            }
        }
        Shape::Circle { x, y, r } => {
            if !finite(&[(*x, *y), (*r, 0.0)]) {
                Some("a circle with a centre or radius that is not a finite number".to_string())
            } else if *r <= 0.0 {
                Some(format!(
                    "a circle of radius {r} covers nothing: the radius must be above 0"
                ))
            } else {
                None
            }
        }
        Shape::Polygon(points) => {
            if !finite(points) {
                Some("a polygon with a point that is not a finite number".to_string())
            } else if points.len() < 3 {
                Some(format!(
                    "a polygon of {} point(s) covers nothing: it needs at least 3",
                    points.len()
                ))
            } else {
                None
            }
        }
        Shape::Line(points) => {
            if !finite(points) {
                Some("a line with a point that is not a finite number".to_string())
            } else if points.len() < 2 {
                Some(format!(
                    "a line of {} point(s) has no length: it needs at least 2",
                    points.len()
                ))
            } else {
                None
            }
        }
    }
}

/// Width and depth of the scenario's table.
pub fn table_size(cx: &ScenarioCx) -> Option<(f64, f64)> {
    cx.table.map(|t| (t.width, t.depth))
}

/// Whether a troop type fights on foot.
pub fn is_foot(cx: &ScenarioCx, troop: &str) -> bool {
    matches!(
        cx.unit_kind(troop).and_then(|k| k.stats.as_ref()),
        Some(KindStats::Troop { foot: true, .. })
    )
}

/// A unit's frame: centre of its front edge, facing and right-hand unit vectors, half
/// its frontage, and its depth. Bases stand side by side in line (and in wedge,
/// schiltron and skirmish order, taken as a line here), one behind another in column.
/// Where a unit stands: the centre of its front edge, unit vectors to its front and its
/// right, half its frontage and its depth, in inches.
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    pub front: (f64, f64),
    pub facing: (f64, f64),
    pub right: (f64, f64),
    pub half_width: f64,
    pub depth: f64,
}

fn frame(cx: &ScenarioCx, unit: &TableUnit) -> Option<Frame> {
    let Some(KindStats::Troop {
        base_width,
        base_depth,
        ..
    }) = cx.unit_kind(&unit.troop)?.stats.as_ref()
    else {
        return None;
    };
    let bases = f64::from(unit.bases.max(1));
    let (width, depth) = match unit.formation {
        Formation::Column => (*base_width, base_depth * bases),
        _ => (base_width * bases, *base_depth),
    };
    let angle = unit.facing.to_radians();
    let facing = (angle.sin(), -angle.cos());
    let right = (angle.cos(), angle.sin());
    Some(Frame {
        front: unit.at,
        facing,
        right,
        half_width: width / 2.0,
        depth,
    })
}

/// A unit's frame on the table.
pub fn footprint_frame(cx: &ScenarioCx, unit: &TableUnit) -> Option<Frame> {
    frame(cx, unit)
}

/// The four corners of a unit on the table (front left, front right, back right, back left).
pub fn footprint(cx: &ScenarioCx, unit: &TableUnit) -> Option<Vec<(f64, f64)>> {
    let f = frame(cx, unit)?;
    let at = |along: f64, back: f64| {
        (
            f.front.0 + f.right.0 * along - f.facing.0 * back,
            f.front.1 + f.right.1 * along - f.facing.1 * back,
        )
    };
    Some(vec![
        at(-f.half_width, 0.0),
        at(f.half_width, 0.0),
        at(f.half_width, f.depth),
        at(-f.half_width, f.depth),
    ])
}

/// Separating-axis test for two convex quadrilaterals (touching edges do not overlap).
pub fn rectangles_overlap(a: &[(f64, f64)], b: &[(f64, f64)]) -> bool {
    for poly in [a, b] {
        for i in 0..poly.len() {
            let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
            let axis = (q.1 - p.1, p.0 - q.0);
            let project = |pts: &[(f64, f64)]| {
                pts.iter()
                    .map(|v| v.0 * axis.0 + v.1 * axis.1)
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                        (lo.min(x), hi.max(x))
                    })
            };
            let (a_lo, a_hi) = project(a);
            let (b_lo, b_hi) = project(b);
            if a_hi <= b_lo + 1e-9 || b_hi <= a_lo + 1e-9 {
                return false;
            }
        }
    }
    true
}

/// A shape reduced to what the overlap test needs.
enum Outline {
    Area(Vec<(f64, f64)>),
    Circle((f64, f64), f64),
    Path(Vec<(f64, f64)>),
}

fn outline(shape: &Shape) -> Outline {
    match shape {
        Shape::Rect { x, y, w, h } => {
            Outline::Area(vec![(*x, *y), (x + w, *y), (x + w, y + h), (*x, y + h)])
        }
        Shape::Polygon(points) => Outline::Area(points.clone()),
        Shape::Circle { x, y, r } => Outline::Circle((*x, *y), *r),
        Shape::Line(points) => Outline::Path(points.clone()),
    }
}

const EPS: f64 = 1e-9;

fn edges(points: &[(f64, f64)], closed: bool) -> Vec<((f64, f64), (f64, f64))> {
    let n = points.len();
    let count = if closed { n } else { n.saturating_sub(1) };
    (0..count)
        .map(|i| (points[i], points[(i + 1) % n]))
        .collect()
}

/// Whether two segments cross at a single point inside both (touching does not count).
fn segments_cross(a: ((f64, f64), (f64, f64)), b: ((f64, f64), (f64, f64))) -> bool {
    let side = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    let (d1, d2) = (side(b.0, b.1, a.0), side(b.0, b.1, a.1));
    let (d3, d4) = (side(a.0, a.1, b.0), side(a.0, a.1, b.1));
    ((d1 > EPS && d2 < -EPS) || (d1 < -EPS && d2 > EPS))
        && ((d3 > EPS && d4 < -EPS) || (d3 < -EPS && d4 > EPS))
}

fn boundary_distance(points: &[(f64, f64)], p: (f64, f64)) -> f64 {
    edges(points, true)
        .into_iter()
        .map(|(a, b)| segment_distance(a, b, p))
        .fold(f64::INFINITY, f64::min)
}

/// Strictly inside an area (not on its boundary).
fn strictly_inside(points: &[(f64, f64)], p: (f64, f64)) -> bool {
    inside_polygon(points, p) && boundary_distance(points, p) > EPS
}

/// Points of a polyline or polygon worth testing for containment: vertices, edge
/// midpoints and, for an area, the centroid of its vertices.
fn probes(points: &[(f64, f64)], closed: bool) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = points.to_vec();
    out.extend(
        edges(points, closed)
            .into_iter()
            .map(|(a, b)| ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)),
    );
    if closed && !points.is_empty() {
        let n = points.len() as f64;
        out.push((
            points.iter().map(|p| p.0).sum::<f64>() / n,
            points.iter().map(|p| p.1).sum::<f64>() / n,
        ));
    }
    out
}

/// Whether two table shapes share ground: areas (rectangles, polygons, circles) overlap,
/// or a line crosses into an area. Shapes that only touch do not overlap.
pub fn shapes_overlap(a: &Shape, b: &Shape) -> bool {
    outlines_overlap(&outline(a), &outline(b))
}

/// Whether a unit's footprint (its four corners) shares ground with a table shape.
pub fn footprint_overlaps(corners: &[(f64, f64)], shape: &Shape) -> bool {
    outlines_overlap(&Outline::Area(corners.to_vec()), &outline(shape))
}

fn outlines_overlap(a: &Outline, b: &Outline) -> bool {
    use Outline::*;
    match (a, b) {
        (Area(p), Area(q)) => {
            edges(p, true)
                .iter()
                .any(|e| edges(q, true).iter().any(|f| segments_cross(*e, *f)))
                || probes(p, true).iter().any(|v| strictly_inside(q, *v))
                || probes(q, true).iter().any(|v| strictly_inside(p, *v))
        }
        (Area(p), Circle(c, r)) | (Circle(c, r), Area(p)) => {
            strictly_inside(p, *c) || boundary_distance(p, *c) < r - EPS
        }
        (Circle(c, r), Circle(d, s)) => (c.0 - d.0).hypot(c.1 - d.1) < r + s - EPS,
        (Area(p), Path(l)) | (Path(l), Area(p)) => {
            edges(l, false)
                .iter()
                .any(|e| edges(p, true).iter().any(|f| segments_cross(*e, *f)))
                || probes(l, false).iter().any(|v| strictly_inside(p, *v))
        }
        (Circle(c, r), Path(l)) | (Path(l), Circle(c, r)) => edges(l, false)
            .iter()
            .any(|(a, b)| segment_distance(*a, *b, *c) < r - EPS),
        (Path(l), Path(m)) => edges(l, false)
            .iter()
            .any(|e| edges(m, false).iter().any(|f| segments_cross(*e, *f))),
    }
}

#[cfg(test)]
mod tests {
    use super::{rectangles_overlap, shapes_overlap};
    use muster_model::map::Shape;

    #[test]
    fn shapes() {
        let rect = |x, y, w, h| Shape::Rect { x, y, w, h };
        let pond = Shape::Circle {
            x: 24.0,
            y: 30.0,
            r: 2.0,
        };
        // An edge across the pond, corners and centre outside it.
        assert!(shapes_overlap(
            &Shape::Polygon(vec![
                (20.25, 31.5),
                (27.75, 31.5),
                (27.75, 33.1),
                (20.25, 33.1)
            ]),
            &pond
        ));
        assert!(!shapes_overlap(&rect(20.0, 32.0, 8.0, 2.0), &pond));
        // Spanning a rectangle with every corner outside it.
        assert!(shapes_overlap(
            &rect(37.0, 15.0, 10.0, 4.0),
            &rect(38.0, 14.0, 8.0, 6.0)
        ));
        // The same rectangle, and one that only touches.
        assert!(shapes_overlap(
            &rect(0.0, 0.0, 2.0, 2.0),
            &rect(0.0, 0.0, 2.0, 2.0)
        ));
        assert!(!shapes_overlap(
            &rect(0.0, 0.0, 2.0, 2.0),
            &rect(2.0, 0.0, 2.0, 2.0)
        ));
        // A line through a rectangle, and one beside it.
        assert!(shapes_overlap(
            &Shape::Line(vec![(-1.0, 1.0), (3.0, 1.0)]),
            &rect(0.0, 0.0, 2.0, 2.0)
        ));
        assert!(!shapes_overlap(
            &Shape::Line(vec![(-1.0, 3.0), (3.0, 3.0)]),
            &rect(0.0, 0.0, 2.0, 2.0)
        ));
    }

    fn rect(x: f64, y: f64, w: f64, h: f64) -> Vec<(f64, f64)> {
        vec![(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    }

    #[test]
    fn overlap() {
        assert!(rectangles_overlap(
            &rect(0.0, 0.0, 4.0, 2.0),
            &rect(3.0, 1.0, 4.0, 2.0)
        ));
        assert!(!rectangles_overlap(
            &rect(0.0, 0.0, 4.0, 2.0),
            &rect(4.0, 0.0, 4.0, 2.0)
        ));
        let diamond = vec![(5.0, 0.0), (7.0, 2.0), (5.0, 4.0), (3.0, 2.0)];
        assert!(!rectangles_overlap(&rect(0.0, 0.0, 3.5, 0.9), &diamond));
    }
}
