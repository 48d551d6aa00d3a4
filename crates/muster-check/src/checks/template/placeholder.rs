use std::collections::{BTreeMap, BTreeSet};
use std::ops::{Range, RangeInclusive};

use muster_db::declare_check;
use muster_db::load::Document;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_db::source::SourceFile;
use muster_model::scenario::Forces;
use muster_semantic::FileCx;
use muster_semantic::placeholder::marks;
use muster_syntax::TokenKind;
use muster_syntax::TokenRef;

declare_check! {
    /// ## What it does
    /// Reports every line of a file marked with a comment that starts
    /// `// muster: placeholder`, except a scenario's setup lines (`setup::placeholder`
    /// reports those). `muster new system`, `muster new counters` and
    /// `muster new scenario` put the mark after every value they had to guess (a unit
    /// kind's name, a terrain cost, a counter's strength, the number of turns) so that
    /// the skeleton validates. The mark applies to its own line when data comes before
    /// it, else to the next line with data. The warning goes away when the comment is
    /// deleted.
    ///
    /// ## Why is this bad?
    /// A guessed value looks like any other: a game published with them validates and
    /// plays by rules nobody wrote.
    ///
    /// ## Example
    /// ```ron
    ///                 (id: "saxe", name: "Saxe", kind: "infantry", strength: 3, movement: 2.0), // muster: placeholder
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///                 (id: "saxe", name: "Saxe", kind: "infantry", strength: 4, movement: 2.0),
    /// ```
    pub META = ("template::placeholder", Warning, "a value still at the guess of `muster new`");
}

/// The lines of a scenario's setup groups, which `setup::placeholder` reports.
fn setup_lines(cx: &FileCx, file: &SourceFile) -> Vec<RangeInclusive<usize>> {
    let Document::Scenario(scenario) = cx.doc else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, side) in scenario.sides.iter().enumerate() {
        let Forces::Placed { setup, .. } = &side.forces else {
            continue;
        };
        for j in 0..setup.len() {
            if let Some(found) = file.find(&Place::setup_group(i, j)) {
                let range = found.node.range();
                out.push(file.line_col(range.start).line..=file.line_col(range.end).line);
            }
        }
    }
    out
}

/// The significant tokens (commas left out) of each of `lines`, in one pass.
fn tokens_of<'f>(
    file: &'f SourceFile,
    lines: &BTreeSet<usize>,
) -> BTreeMap<usize, Vec<TokenRef<'f>>> {
    let mut out: BTreeMap<usize, Vec<TokenRef<'f>>> = BTreeMap::new();
    for t in file.tree().tokens() {
        if t.kind.is_trivia() || t.kind == TokenKind::Comma {
            continue;
        }
        let line = file.line_col(t.range.0).line;
        if lines.contains(&line) {
            out.entry(line).or_default().push(t);
        }
    }
    out
}

/// The data of a line (its first to last significant token, commas and comments left
/// out) and the message naming it: the field it sets when the line starts `name:`, the
/// variant it writes when it starts `Name(`, else the thing whose `id` it gives.
fn line_data(tokens: &[TokenRef]) -> Option<(Range<usize>, Option<String>)> {
    let first = tokens.first()?;
    let last = tokens.last()?;
    let field = match (first.kind, tokens.get(1).map(|t| t.kind)) {
        (TokenKind::Ident, Some(TokenKind::Colon)) => Some(format!(
            "`{}` is still the value `muster new` guessed",
            first.text
        )),
        (TokenKind::Ident, Some(TokenKind::LParen)) => Some(format!(
            "`{}` still has values `muster new` guessed",
            first.text
        )),
        _ => tokens.windows(3).find_map(|w| {
            (w[0].kind == TokenKind::Ident
                && w[0].text == "id"
                && w[1].kind == TokenKind::Colon
                && w[2].kind == TokenKind::String)
                .then(|| {
                    format!(
                        "`{}` still has values `muster new` guessed",
                        w[2].text.trim_matches('"')
                    )
                })
        }),
    };
    Some((first.range.0..last.range.1, field))
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let file = &cx.loaded.file;
    let marks = marks(file);
    if marks.is_empty() {
        return;
    }
    let setup = setup_lines(cx, file);
    let marks: Vec<_> = marks
        .into_iter()
        .filter(|m| !setup.iter().any(|lines| lines.contains(&m.line)))
        .collect();
    let lines: BTreeSet<usize> = marks.iter().map(|m| m.line).collect();
    let tokens = tokens_of(file, &lines);
    for mark in &marks {
        let data = tokens.get(&mark.line).and_then(|t| line_data(t));
        let (at, message) = match data {
            Some((span, Some(field))) => (span, field),
            Some((span, None)) => (
                span,
                "this line still holds values `muster new` guessed".to_string(),
            ),
            None => (
                mark.span.clone(),
                "a placeholder mark with no value after it".to_string(),
            ),
        };
        let report = Report::new(&META, Loc::Span(at.clone()), message);
        let report = if at == mark.span {
            report.help("delete the `// muster: placeholder` comment")
        } else {
            report
                .label(Loc::Span(mark.span.clone()), "marked here")
                .help("put the value the rulebook gives, then delete the `// muster: placeholder` comment")
        };
        sink.push(report.note(
            "`muster new` guesses a value wherever the file needs one so that the skeleton validates; the guess says nothing about the game",
        ));
    }
}
