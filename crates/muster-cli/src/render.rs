//! Rendering diagnostics for people: miette's graphical report, colour only on a
//! terminal and never with `NO_COLOR` set.

use std::borrow::{Borrow, Cow};
use std::collections::HashMap;
use std::fmt;
use std::io::IsTerminal;
use std::sync::Arc;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};
use muster_db::source::SourceFile;
use muster_db::text::{self, escape};
use muster_db::{Diagnostic, Severity};

pub fn use_colour() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

pub fn handler(colour: bool) -> GraphicalReportHandler {
    let theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false)
}

/// Every diagnostic in full, one after the other, each file's shown form made once.
pub fn each(handler: &GraphicalReportHandler, diagnostics: &[Diagnostic]) -> String {
    let mut files = ShownFiles::default();
    diagnostics
        .iter()
        .map(|d| shown_diagnostic(handler, d, files.of(d)))
        .collect()
}

/// The shown form of each file, made on first need.
#[derive(Default)]
struct ShownFiles(HashMap<*const SourceFile, ShownFile>);

impl ShownFiles {
    fn of(&mut self, d: &Diagnostic) -> &ShownFile {
        self.0
            .entry(Arc::as_ptr(&d.file))
            .or_insert_with(|| ShownFile::new(&d.file))
    }
}

/// One diagnostic in full, its source read from `file` (the shown form of its file).
fn shown_diagnostic(handler: &GraphicalReportHandler, d: &Diagnostic, file: &ShownFile) -> String {
    let mut out = String::new();
    if handler
        .render_report(&mut out, &Shown::new(d, file))
        .is_err()
    {
        out = short(d);
        out.push('\n');
    }
    if let Some(note) = &d.note {
        out.push_str(&note_line(note));
    }
    out
}

/// The note of a diagnostic, on a line of its own under the help.
pub fn note_line(note: &str) -> String {
    format!("  note: {}\n", escape(note))
}

/// A diagnostic as people see it: its message, help and labels escaped
/// (`muster_db::text`), its source read from the shown form of its file.
struct Shown<'a> {
    d: &'a Diagnostic,
    message: Cow<'a, str>,
    file: &'a ShownFile,
}

impl<'a> Shown<'a> {
    fn new(d: &'a Diagnostic, file: &'a ShownFile) -> Self {
        Self {
            d,
            message: escape(&d.message),
            file,
        }
    }
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.d, f)
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Shown<'_> {}

impl miette::Diagnostic for Shown<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.d.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        miette::Diagnostic::severity(self.d)
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        let help = self.d.help.as_deref()?;
        Some(Box::new(escape(help).into_owned()))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.file)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = |s: &std::ops::Range<usize>| {
            let start = self.file.shown_offset(s.start);
            (start, self.file.shown_offset(s.end).max(start) - start)
        };
        let label = |text: &Option<String>| text.as_deref().map(|t| escape(t).into_owned());
        let primary = LabeledSpan::new_primary_with_span(label(&self.d.label), span(&self.d.span));
        let others = self.d.labels.iter().map(move |l| {
            LabeledSpan::new_with_span(Some(escape(&l.text).into_owned()), span(&l.span))
        });
        Some(Box::new(std::iter::once(primary).chain(others)))
    }
}

/// A source file as the human renderer shows it: its name escaped and, when its text
/// holds hidden characters, a copy of the text with each of them escaped (line breaks,
/// tabs and the CR of a CRLF stay, as the renderer lays them out). Spans are moved from
/// the file's offsets to the copy's, so carets stay under what they point at; lines and
/// columns are still those of the file.
pub struct ShownFile {
    file: Arc<SourceFile>,
    name: String,
    escaped: Option<Escaped>,
}

struct Escaped {
    text: String,
    /// Each escaped character: its range in the file and its escape's range in `text`,
    /// in order.
    marks: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>,
}

/// Whether a character of an excerpt is shown escaped: a line break, a tab and the CR
/// of a CRLF are laid out by the renderer itself.
fn hidden_in_excerpt(text: &str, i: usize, c: char) -> bool {
    text::is_hidden(c)
        && c != '\n'
        && c != '\t'
        && !(c == '\r' && text.as_bytes().get(i + 1) == Some(&b'\n'))
}

impl ShownFile {
    pub fn new(file: &Arc<SourceFile>) -> Self {
        let text = file.text.as_str();
        let first = text
            .char_indices()
            .find(|&(i, c)| hidden_in_excerpt(text, i, c));
        let escaped = first.map(|(first, _)| {
            let mut out = String::with_capacity(text.len() + 16);
            out.push_str(&text[..first]);
            let mut marks = Vec::new();
            for (i, c) in text[first..].char_indices() {
                let i = first + i;
                if hidden_in_excerpt(text, i, c) {
                    let at = out.len();
                    text::push_escape(&mut out, c);
                    marks.push((i..i + c.len_utf8(), at..out.len()));
                } else {
                    out.push(c);
                }
            }
            Escaped { text: out, marks }
        });
        Self {
            file: file.clone(),
            name: escape(&file.name).into_owned(),
            escaped,
        }
    }

    /// Where an offset of the file is in the shown text.
    fn shown_offset(&self, offset: usize) -> usize {
        let Some(e) = &self.escaped else {
            return offset;
        };
        let before = e.marks.partition_point(|(from, _)| from.start < offset);
        match before.checked_sub(1).map(|i| &e.marks[i]) {
            None => offset,
            Some((from, to)) if offset >= from.end => offset - from.end + to.end,
            Some((_, to)) => to.end,
        }
    }

    /// Where an offset of the shown text is in the file; inside an escape, the start of
    /// the character (or its end, for the end of a span).
    fn file_offset(&self, shown: usize, end: bool) -> usize {
        let Some(e) = &self.escaped else {
            return shown;
        };
        let before = e.marks.partition_point(|(_, to)| to.start < shown);
        match before.checked_sub(1).map(|i| &e.marks[i]) {
            None => shown,
            Some((from, to)) if shown >= to.end => shown - to.end + from.end,
            Some((from, _)) if end => from.end,
            Some((from, _)) => from.start,
        }
    }
}

impl SourceCode for ShownFile {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let start = self.file_offset(span.offset(), false);
        let end = self
            .file_offset(span.offset() + span.len(), true)
            .max(start);
        let inner = self.file.read_span(
            &(start, end - start).into(),
            context_lines_before,
            context_lines_after,
        )?;
        let (from, len) = (inner.span().offset(), inner.span().len());
        let (data, shown): (&'a [u8], SourceSpan) = match &self.escaped {
            None => (inner.data(), *inner.span()),
            Some(e) => {
                let (a, b) = (self.shown_offset(from), self.shown_offset(from + len));
                (&e.text.as_bytes()[a..b], (a, b - a).into())
            }
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            data,
            shown,
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// Diagnostics on one line beyond which the rest are listed one line each, without
/// their source: a generated file with thousands of problems on one line stays readable
/// and its output stays proportional to the number of problems.
pub const FULL_PER_LINE: usize = 5;

/// Every diagnostic for people, in order: the first [`FULL_PER_LINE`] of each source
/// line in full, the others of that line in the one-line `short` form after a heading.
pub fn human<D: Borrow<Diagnostic>>(handler: &GraphicalReportHandler, diagnostics: &[D]) -> String {
    let diagnostics: Vec<&Diagnostic> = diagnostics.iter().map(Borrow::borrow).collect();
    let mut out = String::new();
    let mut files = ShownFiles::default();
    let mut i = 0;
    while i < diagnostics.len() {
        let first = diagnostics[i];
        let line = first.start().line;
        let same = diagnostics[i..]
            .iter()
            .take_while(|d| d.file.name == first.file.name && d.start().line == line)
            .count();
        let group = &diagnostics[i..i + same];
        for d in group.iter().take(FULL_PER_LINE) {
            out.push_str(&shown_diagnostic(handler, d, files.of(d)));
            out.push('\n');
        }
        if same > FULL_PER_LINE {
            out.push_str(&format!(
                "{} more on {}:{line}:\n",
                same - FULL_PER_LINE,
                escape(&first.file.name)
            ));
            for d in &group[FULL_PER_LINE..] {
                out.push_str("  ");
                out.push_str(&short(d));
                out.push('\n');
            }
            out.push('\n');
        }
        i += same;
    }
    out
}

/// `checked 9 files: 0 errors, 1 warning`.
pub fn summary_line(files: usize, diagnostics: &[Diagnostic]) -> String {
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let infos = diagnostics.len() - errors - warnings;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut line = format!(
        "checked {}: {}, {}",
        plural(files, "file"),
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    // Shown only when there are some, so that a clean run reads as before.
    if infos > 0 {
        line.push_str(&format!(", {}", plural(infos, "info")));
    }
    line
}

/// `file:line:col: severity[code]: message` for editor problem matchers and grep,
/// always one line: the name and the message are escaped.
pub fn short(d: &Diagnostic) -> String {
    let at = d.start();
    format!(
        "{}:{}:{}: {}[{}]: {}",
        escape(&d.file.name),
        at.line,
        at.column,
        d.severity,
        d.code,
        escape(&d.message)
    )
}

/// A GitHub Actions workflow command. The name, message and help are escaped as
/// everywhere (`muster_db::text`); then property values escape `%`, CR, LF, `:` and
/// `,`, and the message `%`, CR and LF, as workflow commands want.
pub fn github(d: &Diagnostic) -> String {
    let (start, end) = (d.start(), d.end());
    let command = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let mut message = escape(&d.message).into_owned();
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {}", escape(help)));
    }
    format!(
        "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
        escape_property(&escape(&d.file.name)),
        start.line,
        start.column,
        end.line,
        end.column,
        escape_property(d.code),
        escape_data(&message)
    )
}

fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use muster_db::source::SourceFile;

    use super::*;

    fn on_one_line(count: usize, text: &str) -> Vec<Diagnostic> {
        let file = Arc::new(SourceFile::new("a.ron", "a.ron", text.to_string()));
        (0..count)
            .map(|i| Diagnostic {
                code: "geometry::off-map",
                severity: Severity::Error,
                message: format!("problem {i}"),
                file: file.clone(),
                span: i * 2..i * 2 + 1,
                label: None,
                labels: Vec::new(),
                help: None,
                note: None,
            })
            .collect()
    }

    #[test]
    fn many_diagnostics_on_one_line_print_the_line_a_bounded_number_of_times() {
        let line = "x ".repeat(50_000);
        let diagnostics = on_one_line(1_000, &line);
        let out = human(&handler(false), &diagnostics);
        assert_eq!(
            out.matches("problem ").count(),
            1_000,
            "every one is listed"
        );
        assert!(out.contains("995 more on a.ron:1:"), "{}", &out[..2000]);
        // Five full reports, each showing at most a window of the 100,000-byte line.
        assert!(out.len() < 5 * 2_000 + 1_000 * 80, "{} bytes", out.len());
    }

    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_span() {
        let text = format!("{}ERR{}\n", "a".repeat(5_000), "b".repeat(5_000));
        let file = Arc::new(SourceFile::new("a.ron", "a.ron", text));
        let d = Diagnostic {
            code: "geometry::off-map",
            severity: Severity::Error,
            message: "here".to_string(),
            file,
            span: 5_000..5_003,
            label: None,
            labels: Vec::new(),
            help: None,
            note: None,
        };
        let out = each(&handler(false), std::slice::from_ref(&d));
        assert!(out.contains("a.ron:1:5001"), "{out}");
        assert!(out.contains("ERR"), "{out}");
        assert!(out.len() < 1_000, "{} bytes: {out}", out.len());
    }

    /// The excerpt is escaped, and the carets and the header's column still point at the
    /// span: hidden characters before it on its line, and one inside it.
    #[test]
    fn an_escaped_excerpt_keeps_its_carets_under_the_span() {
        let text = "a: \"\x1b[31m\u{202e}\", b: \"ERR\u{fffe}X\", c: 1\r\nnext\n";
        let file = Arc::new(SourceFile::new("a\x1b.ron", "a\x1b.ron", text.to_string()));
        let start = text.find("ERR").unwrap();
        let end = text.find('X').unwrap() + 1;
        let d = Diagnostic {
            code: "geometry::off-map",
            severity: Severity::Error,
            message: "bad\x07".to_string(),
            file: file.clone(),
            span: start..end,
            label: Some("this\u{202e}".to_string()),
            labels: Vec::new(),
            help: Some("fix\nit".to_string()),
            note: Some("note\r".to_string()),
        };
        let out = each(&handler(false), std::slice::from_ref(&d));
        for raw in ['\x1b', '\x07', '\r', '\u{202e}', '\u{fffe}'] {
            assert!(!out.contains(raw), "raw U+{:04X} in:\n{out}", raw as u32);
        }
        assert!(
            out.contains("bad\\u{7}") && out.contains("fix\\nit"),
            "{out}"
        );
        assert!(
            out.contains("note\\r") && out.contains("this\\u{202e}"),
            "{out}"
        );
        // The header names the file escaped, at the span's column in the file's characters.
        let column = file.line_col(start).column;
        assert!(
            out.contains(&format!("[a\\u{{1b}}.ron:1:{column}]")),
            "{out}"
        );
        let lines: Vec<&str> = out.lines().collect();
        let source = lines
            .iter()
            .position(|l| l.contains("ERR"))
            .expect("the excerpt");
        assert!(lines[source].contains("a: \"\\u{1b}[31m\\u{202e}\", b: \"ERR\\u{fffe}X\""));
        // The underline starts under `E` and ends under `X`: columns on screen, in characters.
        let col = |l: &str, i: usize| l[..i].chars().count();
        let e = col(lines[source], lines[source].find("ERR").unwrap());
        let x = col(lines[source], lines[source].find("X\"").unwrap());
        let marks = lines[source + 1];
        let first = marks
            .char_indices()
            .find(|&(_, c)| c != ' ' && c != '·')
            .unwrap()
            .0;
        let last = marks
            .char_indices()
            .rev()
            .find(|&(_, c)| c != ' ')
            .unwrap()
            .0;
        // The gutter is drawn the same on both lines; compare from after it.
        assert_eq!(col(marks, first), e, "{out}");
        assert_eq!(col(marks, last), x, "{out}");
        // The next line is there, with the CR of the CRLF laid out as a line break.
        assert!(out.contains("next"), "{out}");
    }

    #[test]
    fn github_escapes() {
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
        assert_eq!(escape_data("x\ny"), "x%0Ay");
    }
}
