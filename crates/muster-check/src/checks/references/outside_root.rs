use super::file_refs;
use crate::checks::context::FileCx;
use crate::declare_check;
use crate::project::Resolution;
use crate::report::{Report, Sink};

declare_check! {
    /// ## What it does
    /// Refuses file references whose path leaves the project root (the folder holding
    /// `scenarios/` and `maps/`). Such files are never read.
    ///
    /// ## Why is this bad?
    /// A scenario shared with others must be self-contained, and a validator must not be
    /// tricked into reading files elsewhere on the machine (`../../etc/passwd`).
    ///
    /// ## Example
    /// ```ron
    /// system: "../../../elsewhere/lrf.system.ron",
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// system: "lrf",
    /// ```
    pub META = ("references::outside-root", Error, "a file reference leaves the project root");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    for (pointer, reference, kind) in file_refs(cx.doc) {
        if cx.db.resolve(cx.index, reference, kind) == Resolution::OutsideRoot {
            sink.push(
                Report::new(&META, pointer, format!("`{reference}` points outside the project root"))
                    .help("copy the file into the project and refer to it by id or by a path inside the project")
                    .note(format!("project root: {}", cx.db.root.display())),
            );
        }
    }
}
