//! `geometry::degenerate-shape`: a shape on an open table with no size, or with a
//! coordinate that is not a number.

use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;
use muster_semantic::table::{shape_problem, shapes_of};

declare_check! {
    /// ## What it does
    /// Checks that every shape on an open table has a size and a place: a rectangle
    /// with a positive width and height, a circle with a positive radius, a polygon of at
    /// least three points, a line of at least two, and every coordinate a finite number.
    /// It looks at a map's features and at a scenario's camps, traps, zones and bands.
    ///
    /// ## Why is this bad?
    /// A shape with no size covers nothing: a pond of radius 0 stops no one, a trap of
    /// width 0 catches no one, and a band placed in it stands nowhere. The other checks
    /// and an engine would pass over it without a word.
    ///
    /// ## Example
    /// ```ron
    /// Feature(feature: "water", shape: Circle(x: 24.0, y: 30.0, r: 0.0), name: "the pond"),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Feature(feature: "water", shape: Circle(x: 24.0, y: 30.0, r: 2.0), name: "the pond"),
    /// ```
    pub META = ("geometry::degenerate-shape", Error, "a table shape with no size, or a coordinate that is not a number");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    for (place, shape) in shapes_of(cx.doc) {
        if let Some(problem) = shape_problem(shape) {
            sink.push(
                Report::new(&META, place, problem)
                    .help("give the shape its real size in inches, or remove it"),
            );
        }
    }
}
