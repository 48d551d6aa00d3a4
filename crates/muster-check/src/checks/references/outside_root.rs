//! `references::outside-root`: a file reference that leaves the project root. The check
//! is declared with the loader (`project::OUTSIDE_ROOT`), which reports a file that is
//! a symlink out of the root with the same code; its documentation is there.

use crate::project::Resolution;
use crate::report::{Report, Sink};
use crate::semantic::FileCx;
use crate::semantic::references::file_refs;

pub use crate::project::OUTSIDE_ROOT as META;

pub fn run(cx: &FileCx, sink: &mut Sink) {
    for (place, reference, kind) in file_refs(cx.doc) {
        if cx.db.resolve(cx.index, reference, kind) == Resolution::OutsideRoot {
            sink.push(
                Report::new(&META, place, format!("`{reference}` points outside the project root"))
                    .help("copy the file into the project and refer to it by id or by a path inside the project")
                    .note(root_note(cx)),
            );
        }
    }
}

/// Where the project root is, seen from the file: relative when the file is inside it,
/// so that the message reads the same on every machine.
fn root_note(cx: &FileCx) -> String {
    let dir = crate::project::normalize(cx.loaded.file.dir());
    match dir.strip_prefix(&cx.db.root) {
        Ok(inside) => match inside.components().count() {
            0 => "the project root is this file's folder".to_string(),
            n => format!(
                "the project root is `{}`, {n} folder{} above this file",
                vec![".."; n].join("/"),
                if n == 1 { "" } else { "s" }
            ),
        },
        Err(_) => format!("project root: {}", cx.db.root.display()),
    }
}
