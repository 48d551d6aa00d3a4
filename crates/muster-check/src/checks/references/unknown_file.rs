use muster_db::declare_check;
use muster_db::project::Resolution;
use muster_db::report::{Report, Sink};
use muster_db::suggest::did_you_mean;
use muster_semantic::FileCx;
use muster_semantic::references::file_refs;

declare_check! {
    /// ## What it does
    /// Checks that the system, counter sheet and map a file names exist in the project,
    /// by id (`"jengland"`) or by a path relative to the file. When the file is there
    /// but could not be read (a syntax error, a missing field), it says so and names
    /// the file, whose own errors are reported there.
    ///
    /// ## Why is this bad?
    /// Without them nothing else about the scenario can be checked, and an engine could
    /// not load it.
    ///
    /// ## Example
    /// ```ron
    /// map: "no-such-map",
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// map: "test-map",
    /// ```
    pub META = ("references::unknown-file", Error, "a referenced system, counter sheet or map does not exist");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    for (place, reference, kind) in file_refs(cx.doc) {
        match cx.db.resolve(cx.index, reference, kind) {
            Resolution::Missing { .. }
                if let Some(broken) = cx.db.unloaded(kind, reference) =>
            {
                let loaded = &cx.db.files[broken];
                let file = &loaded.file.name;
                // Its first error, since only the files being checked have theirs listed.
                let first = loaded
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == muster_db::Severity::Error)
                    .min_by_key(|d| d.span.start)
                    .map(|d| {
                        let at = d.start();
                        format!(
                            "its first error: {file}:{}:{}: {}",
                            at.line, at.column, d.message
                        )
                    });
                let mut report = Report::new(
                        &META,
                        place,
                        format!(
                            "{} `{reference}` failed to load: it is in `{file}`, which has errors",
                            kind.name()
                        ),
                    )
                    .help(format!(
                        "fix the errors in `{file}` (`muster validate {file}` lists them); this file is checked against it once it loads"
                    ));
                if let Some(first) = first {
                    report = report.note(first);
                }
                sink.push(report)
            }
            Resolution::Missing { candidates } => sink.push(
                Report::new(
                    &META,
                    place,
                    format!("no {} `{reference}` in the project", kind.name()),
                )
                .help_opt(
                    did_you_mean(reference, candidates.iter().map(String::as_str)).or_else(|| {
                        Some(if candidates.is_empty() {
                            // Most often a file saved outside its project: the folder it
                            // is in became the root, and it holds nothing else.
                            format!(
                                "this project holds no {} at all: if `{reference}` is in another project, give that project's root with `muster --root DIR`, or copy the file into this one",
                                kind.name()
                            )
                        } else {
                            format!("known {} ids: {}", kind.name(), candidates.join(", "))
                        })
                    }),
                ),
            ),
            Resolution::WrongKind(found) => sink.push(Report::new(
                &META,
                place,
                format!(
                    "`{reference}` is a {} file, not a {}",
                    found.name(),
                    kind.name()
                ),
            )),
            Resolution::Found(_) | Resolution::OutsideRoot => {}
        }
    }
}
