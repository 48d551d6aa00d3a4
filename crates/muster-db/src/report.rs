//! How checks report: a [`Report`] names its place in the document as a typed [`Place`]
//! (or by a raw span), and the [`Sink`] resolves places to spans step by step through
//! the file's span index, so checks work on typed values and never count characters.

use std::ops::Range;

use crate::diagnostic::{Diagnostic, Label};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use muster_syntax::NodeKind;

use crate::place::Place;
use crate::registry::CheckMeta;
use crate::source::SourceFile;

/// A place in the current file.
#[derive(Debug, Clone)]
pub enum Loc {
    /// The value at a place (`Place::setup_group(0, 2).field("at")`).
    Value(Place),
    /// The key of the field or entry at a place.
    Key(Place),
    /// A span of the text, for what has no typed place (syntax errors, comments).
    Span(Range<usize>),
}

impl From<Place> for Loc {
    fn from(place: Place) -> Self {
        Loc::Value(place)
    }
}

/// A finding before it has a span.
#[derive(Debug, Clone)]
pub struct Report {
    pub meta: &'static CheckMeta,
    pub at: Loc,
    pub message: String,
    pub label: Option<String>,
    pub labels: Vec<(Loc, String)>,
    pub help: Option<String>,
    pub note: Option<String>,
}

impl Report {
    pub fn new(meta: &'static CheckMeta, at: impl Into<Loc>, message: impl Into<String>) -> Self {
        Self {
            meta,
            at: at.into(),
            message: message.into(),
            label: None,
            labels: Vec::new(),
            help: None,
            note: None,
        }
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn help_opt(mut self, help: Option<String>) -> Self {
        self.help = help;
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// Text under the primary span.
    pub fn primary(mut self, text: impl Into<String>) -> Self {
        self.label = Some(text.into());
        self
    }

    /// A secondary place in the same file.
    pub fn label(mut self, at: impl Into<Loc>, text: impl Into<String>) -> Self {
        self.labels.push((at.into(), text.into()));
        self
    }
}

/// How many places did not resolve exactly and fell back to the nearest enclosing value
/// (a test requires none over the bundled data and fixtures).
pub static INEXACT_PLACES: AtomicUsize = AtomicUsize::new(0);

/// The key of the struct field or map entry whose value is `node`.
fn key_of(node: muster_syntax::Node<'_>) -> Option<Range<usize>> {
    let parent = node.parent()?;
    match parent.kind() {
        NodeKind::Field => parent.token().map(|t| t.range()),
        NodeKind::Entry => parent
            .child(0)
            .filter(|k| k.id() != node.id())
            .map(|k| k.range()),
        _ => None,
    }
}

/// How many findings of one code a sink lists in full. Past it, a finding is counted
/// and not resolved: one mistake repeated half a million times in a 4 MiB file would
/// otherwise cost seconds to place and print, and hide every other finding. The count
/// is then one more diagnostic of the same code (clang's `-ferror-limit`, per code).
pub const LISTED_PER_CODE: usize = 1_000;

/// Of one code: how many findings were listed, and the first one left out with the
/// number left out.
type CodeCount = (usize, Option<(Report, usize)>);

/// Collects the reports of one file and turns them into diagnostics.
pub struct Sink<'a> {
    file: &'a Arc<SourceFile>,
    out: Vec<Diagnostic>,
    /// Per code, what was listed and left out ([`LISTED_PER_CODE`]).
    per_code: crate::FastMap<&'static str, CodeCount>,
}

impl<'a> Sink<'a> {
    pub fn new(file: &'a Arc<SourceFile>) -> Self {
        Self {
            file,
            out: Vec::new(),
            per_code: crate::FastMap::default(),
        }
    }

    pub fn push(&mut self, report: Report) {
        let (listed, left_out) = self.per_code.entry(report.meta.code).or_default();
        if *listed >= LISTED_PER_CODE {
            match left_out {
                Some((_, n)) => *n += 1,
                None => *left_out = Some((report, 1)),
            }
            return;
        }
        *listed += 1;
        self.list(report);
    }

    fn list(&mut self, report: Report) {
        let span = self.resolve(&report.at);
        let labels = report
            .labels
            .iter()
            .map(|(at, text)| Label {
                span: self.resolve(at),
                text: text.clone(),
            })
            .collect();
        self.out.push(Diagnostic {
            code: report.meta.code,
            severity: report.meta.severity,
            message: report.message,
            file: self.file.clone(),
            span,
            label: report.label,
            labels,
            help: report.help,
            note: report.note,
        });
    }

    pub fn finish(mut self) -> Vec<Diagnostic> {
        let mut left_out: Vec<(Report, usize)> = std::mem::take(&mut self.per_code)
            .into_values()
            .filter_map(|(_, left_out)| left_out)
            .collect();
        left_out.sort_by_key(|(report, _)| report.meta.code);
        for (first, n) in left_out {
            let code = first.meta.code;
            let them = if n == 1 { "finding" } else { "findings" };
            self.list(Report {
                message: format!(
                    "{n} more `{code}` {them} in this file, from here on, not listed one by one"
                ),
                label: None,
                labels: Vec::new(),
                help: Some(format!(
                    "muster lists the first {LISTED_PER_CODE} findings of a check in a file; fix those and validate again"
                )),
                note: Some(format!("the first left out: {}", first.message)),
                ..first
            });
        }
        self.out
    }

    fn resolve(&self, loc: &Loc) -> Range<usize> {
        let text_len = self.file.text.len();
        let span = match loc {
            Loc::Span(span) => span.clone(),
            Loc::Value(place) | Loc::Key(place) => match self.file.find(place) {
                None => 0..0,
                Some(found) => {
                    if !found.exact {
                        INEXACT_PLACES.fetch_add(1, Ordering::Relaxed);
                    }
                    match (loc, key_of(found.node)) {
                        (Loc::Key(_), Some(key)) if found.exact => key,
                        _ => found.node.range(),
                    }
                }
            },
        };
        let start = span.start.min(text_len);
        start..span.end.clamp(start, text_len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_that_does_not_resolve_falls_back_and_is_counted() {
        let text = "Doc(sides: [(id: \"a\")])".to_string();
        let file = Arc::new(SourceFile::new("x.scenario.ron", "x", text));
        #[derive(serde::Deserialize)]
        #[allow(dead_code)]
        struct Side {
            id: String,
        }
        #[derive(serde::Deserialize)]
        #[allow(dead_code)]
        struct Doc {
            sides: Vec<Side>,
        }
        let reading = muster_syntax::read::<Doc>(file.tree());
        assert!(reading.value.is_ok());
        file.set_spans(reading.spans.detach());
        let before = INEXACT_PLACES.load(Ordering::Relaxed);
        let mut sink = Sink::new(&file);
        let id = Place::side(0).field("id");
        sink.push(Report::new(
            &crate::load::structure::SYNTAX,
            id.clone(),
            "exact",
        ));
        sink.push(Report::new(
            &crate::load::structure::SYNTAX,
            Loc::Key(id),
            "key",
        ));
        sink.push(Report::new(
            &crate::load::structure::SYNTAX,
            Place::side(0).field("nope"),
            "inexact",
        ));
        // A list position is not a key.
        sink.push(Report::new(
            &crate::load::structure::SYNTAX,
            Place::top("sides").key("0").field("id"),
            "inexact",
        ));
        let out = sink.finish();
        assert_eq!(&file.text[out[0].span.clone()], "\"a\"");
        assert_eq!(&file.text[out[1].span.clone()], "id");
        assert_eq!(&file.text[out[2].span.clone()], "(id: \"a\")");
        assert_eq!(&file.text[out[3].span.clone()], "[(id: \"a\")]");
        assert!(INEXACT_PLACES.load(Ordering::Relaxed) >= before + 2);
    }
}

#[cfg(test)]
mod cap {
    use super::*;

    /// Past [`LISTED_PER_CODE`] findings of one code, the rest are one diagnostic that
    /// counts them, placed at the first left out; other codes are listed as before.
    #[test]
    fn findings_past_the_limit_of_a_code_are_counted_in_one() {
        let text = format!("[{}]", vec!["1"; LISTED_PER_CODE + 10].join(", "));
        let file = Arc::new(SourceFile::new("x.ron", "x", text));
        let mut sink = Sink::new(&file);
        let at = |i: usize| Loc::Span(1 + 3 * i..2 + 3 * i);
        let syntax = &crate::load::structure::SYNTAX;
        for i in 0..LISTED_PER_CODE + 5 {
            sink.push(Report::new(syntax, at(i), format!("number {i}")));
        }
        let other = &crate::load::structure::UNKNOWN_FIELD;
        for i in 0..3 {
            sink.push(Report::new(other, at(i), "other"));
        }
        let out = sink.finish();
        let of = |code: &str| out.iter().filter(|d| d.code == code).count();
        assert_eq!(of(syntax.code), LISTED_PER_CODE + 1);
        assert_eq!(of(other.code), 3);
        let last = out.iter().rfind(|d| d.code == syntax.code).unwrap();
        assert!(last.message.starts_with("5 more `"), "{}", last.message);
        assert_eq!(last.span, 1 + 3 * LISTED_PER_CODE..2 + 3 * LISTED_PER_CODE);
        assert_eq!(
            last.note.as_deref(),
            Some(format!("the first left out: number {LISTED_PER_CODE}").as_str())
        );
    }
}
