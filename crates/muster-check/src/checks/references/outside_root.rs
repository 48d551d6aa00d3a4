//! `references::outside-root`: a file reference that leaves the project root. The check
//! is declared with the loader (`project::OUTSIDE_ROOT`), which reports a file that is
//! a symlink out of the root with the same code; its documentation is there.

use muster_db::project::Resolution;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;
use muster_semantic::references::file_refs;

pub use muster_db::project::OUTSIDE_ROOT as META;

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
    let dir = muster_db::project::normalize(cx.loaded.file.dir());
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
