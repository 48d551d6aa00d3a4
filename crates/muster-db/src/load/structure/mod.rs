//! Structure: the file must be readable text of a known kind that parses into the
//! model. These diagnostics come from the loader, not from a pass over the model.

mod duplicate_key;
mod missing_field;
mod not_text;
mod schema_violation;
mod syntax;
mod too_large;
mod unclosed;
mod unexpected_token;
mod unknown_field;
mod unknown_kind;
mod unknown_variant;
mod unreadable;
mod unterminated_string;
mod wrong_type;

pub use duplicate_key::DUPLICATE_KEY;
pub use missing_field::MISSING_FIELD;
pub use not_text::NOT_TEXT;
pub use schema_violation::SCHEMA_VIOLATION;
pub use syntax::SYNTAX;
pub use too_large::TOO_LARGE;
pub use unclosed::UNCLOSED;
pub use unexpected_token::UNEXPECTED_TOKEN;
pub use unknown_field::UNKNOWN_FIELD;
pub use unknown_kind::UNKNOWN_KIND;
pub use unknown_variant::UNKNOWN_VARIANT;
pub use unreadable::UNREADABLE;
pub use unterminated_string::UNTERMINATED_STRING;
pub use wrong_type::WRONG_TYPE;

use muster_syntax::{DeError, DeErrorKind, SyntaxError, SyntaxErrorKind, TokenKind, Tree};

use crate::report::{Loc, Report};
use crate::source::SourceFile;
use crate::suggest::did_you_mean;

/// The syntax errors of a file, in muster's words, each at the place the author must
/// look: the bracket that is never closed, the string that runs on, the token that
/// does not fit. Errors that only follow from an earlier one are left out: after a
/// string that runs on, the rest of the file is misread; inside a bracket that is never
/// closed, every later token is out of place.
pub(crate) fn from_syntax_errors(file: &SourceFile, tree: &Tree) -> Vec<Report> {
    let mut reports: Vec<Report> = Vec::new();
    // Brackets still open when the file ends: one is a forgotten closer; several mean
    // the file was cut short, and one report says so.
    let text_end = file.text.trim_end().len();
    let at_end: Vec<usize> = tree
        .errors()
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            matches!(e.kind, SyntaxErrorKind::Unclosed { .. }) && e.range.start >= text_end
        })
        .map(|(i, _)| i)
        .collect();
    if at_end.len() > 1 {
        let end = file.text.len();
        let mut report = Report::new(
            &SYNTAX,
            Loc::Span(end..end),
            format!(
                "the file ends early: {} brackets are still open",
                at_end.len()
            ),
        )
        .help("the file looks truncated: restore its end, or close every open bracket");
        if let Some(SyntaxErrorKind::Unclosed { open }) = at_end
            .last()
            .and_then(|&i| tree.errors().get(i))
            .map(|e| &e.kind)
        {
            report = report.label(Loc::Span(open.clone()), "the last bracket opened");
        }
        reports.push(report);
    }
    let told: crate::FastSet<usize> = if at_end.len() > 1 {
        at_end.into_iter().collect()
    } else {
        Default::default()
    };
    // Where reports already stand: one report per place, found in one lookup.
    let mut places: crate::FastSet<usize> = reports.iter().filter_map(span_start).collect();
    let marks = Marks::new(file, tree);
    for (i, err) in tree.errors().iter().enumerate() {
        if told.contains(&i) {
            continue;
        }
        let report = from_syntax_error(file, &marks, err);
        // One report per place: recovery can meet the same spot twice.
        if span_start(&report).is_none_or(|at| places.insert(at)) {
            reports.push(report);
        }
    }
    let start = |r: &Report| match &r.at {
        Loc::Span(s) => s.start,
        _ => 0,
    };
    if let Some(first) = reports
        .iter()
        .filter(|r| r.meta.code == UNTERMINATED_STRING.code)
        .map(start)
        .min()
    {
        reports.retain(|r| {
            start(r) < first || (r.meta.code == UNTERMINATED_STRING.code && start(r) == first)
        });
        reports.retain(|r| r.meta.code != UNCLOSED.code);
    } else if let Some(first) = reports
        .iter()
        .filter(|r| r.meta.code == UNCLOSED.code)
        .map(start)
        .min()
    {
        reports.retain(|r| r.meta.code == UNCLOSED.code || start(r) < first);
    }
    reports
}

/// Where a report given by a span starts (two such reports at one start are one place).
fn span_start(report: &Report) -> Option<usize> {
    match &report.at {
        Loc::Span(s) => Some(s.start),
        _ => None,
    }
}

/// The line breaks of a file and the tokens that hold data, found once for all its
/// syntax errors: each error then looks up the end of its line and the token before it
/// by binary search, so many errors on one long line cost the file, not its square.
struct Marks {
    text_len: usize,
    /// Offsets of every `\n` and `\r`.
    breaks: Vec<usize>,
    /// Tokens other than blanks, comments and a byte-order mark: start, range, and
    /// whether it is a string running over a line break.
    tokens: Vec<(usize, std::ops::Range<usize>, bool)>,
}

impl Marks {
    fn new(file: &SourceFile, tree: &Tree) -> Self {
        let text = &file.text;
        let breaks = text
            .bytes()
            .enumerate()
            .filter(|(_, b)| matches!(b, b'\n' | b'\r'))
            .map(|(i, _)| i)
            .collect();
        let tokens = tree
            .tokens()
            .filter(|t| {
                !matches!(
                    t.kind,
                    TokenKind::Whitespace
                        | TokenKind::LineComment
                        | TokenKind::BlockComment
                        | TokenKind::Bom
                )
            })
            .map(|t| {
                let multiline = t.kind == TokenKind::String && t.text.contains('\n');
                (t.range.0, t.range(), multiline)
            })
            .collect();
        Self {
            text_len: text.len(),
            breaks,
            tokens,
        }
    }

    /// The end of the line that `at` is on (without the line break).
    fn line_end(&self, at: usize) -> usize {
        let at = at.min(self.text_len);
        self.breaks
            .get(self.breaks.partition_point(|&b| b < at))
            .copied()
            .unwrap_or(self.text_len)
    }

    /// The string that ends just before the token at `at`, if it runs across a line
    /// break: the usual sign of a missing closing quote, since RON strings may span
    /// lines and the next quote closes it instead.
    fn run_on_string(&self, at: usize) -> Option<std::ops::Range<usize>> {
        let before = self.tokens.partition_point(|(start, _, _)| *start < at);
        let (_, range, multiline) = self.tokens.get(before.checked_sub(1)?)?;
        multiline.then(|| range.clone())
    }
}

/// What a bracket is called, and the one that closes it.
fn bracket_words(open: &str) -> (&'static str, &'static str) {
    match open {
        "(" => ("parenthesis", ")"),
        "[" => ("bracket", "]"),
        _ => ("brace", "}"),
    }
}

fn from_syntax_error(file: &SourceFile, marks: &Marks, err: &SyntaxError) -> Report {
    let text = &file.text;
    let line_end = |_: &str, at: usize| marks.line_end(at);
    let range = err.range.start.min(text.len())..err.range.end.min(text.len());
    match &err.kind {
        SyntaxErrorKind::Unclosed { open } => {
            let open_text = text.get(open.clone()).unwrap_or("(");
            let (word, close) = bracket_words(open_text);
            let line = file.line_col(open.start).line;
            Report::new(
                &UNCLOSED,
                Loc::Span(open.clone()),
                format!("this opening {word} `{open_text}` on line {line} is never closed"),
            )
            .primary("opened here")
            .help(format!(
                "add the closing `{close}` where this value ends; brackets close in the reverse order they were opened"
            ))
        }
        SyntaxErrorKind::UnterminatedString => Report::new(
            &UNTERMINATED_STRING,
            Loc::Span(range.start..line_end(text, range.start)),
            "this string has no closing quote before the end of the file",
        )
        .help("end the text with `\"`"),
        SyntaxErrorKind::UnterminatedChar => Report::new(
            &UNTERMINATED_STRING,
            Loc::Span(range.start..line_end(text, range.start)),
            "this character has no closing `'`",
        )
        .help("text values are written in double quotes: `\"...\"`"),
        SyntaxErrorKind::UnexpectedToken { expected } => {
            if let Some(string) = marks.run_on_string(range.start) {
                let first_line = string.start..line_end(text, string.start);
                return Report::new(
                    &UNTERMINATED_STRING,
                    Loc::Span(first_line),
                    "this string is not closed on its line, so it runs on to the next quote",
                )
                .label(
                    Loc::Span(range.clone()),
                    format!("so this is read as text outside a string (expected {expected})"),
                )
                .help("add the missing `\"` at the end of the text on this line");
            }
            let found = describe_token(text, &range);
            Report::new(
                &UNEXPECTED_TOKEN,
                Loc::Span(range),
                format!("expected {expected}, found {found}"),
            )
            .help_opt(unexpected_help(expected, &found))
        }
        SyntaxErrorKind::UnexpectedEof { expected } => Report::new(
            &SYNTAX,
            Loc::Span(text.len()..text.len()),
            format!("the file ends early: expected {expected}"),
        )
        .help("the file looks truncated: close every open bracket"),
        SyntaxErrorKind::UnterminatedComment => Report::new(
            &SYNTAX,
            Loc::Span(range.start..(range.start + 2).min(text.len())),
            "this `/*` comment is never closed",
        )
        .help("end the comment with `*/`"),
        SyntaxErrorKind::InvalidNumber => Report::new(
            &SYNTAX,
            Loc::Span(range),
            "this is not a number muster can read",
        )
        .help("write whole numbers as `7` and decimals as `2.5`"),
        SyntaxErrorKind::InvalidEscape { reason } => Report::new(
            &SYNTAX,
            Loc::Span(range),
            format!("invalid escape in a string: {reason}"),
        )
        .help("inside a string, `\\` starts an escape: write `\\\\` for a backslash"),
        SyntaxErrorKind::TrailingCharacters => Report::new(
            &SYNTAX,
            Loc::Span(range.start..line_end(text, range.start)),
            "more text after the end of the file's value",
        )
        .help("a file holds one value; remove the text after its closing bracket"),
        SyntaxErrorKind::TooDeep => Report::new(
            &SYNTAX,
            Loc::Span(range),
            format!(
                "values are nested more than {} levels deep here",
                muster_syntax::MAX_DEPTH
            ),
        )
        .help("no muster file needs this depth; look for brackets opened by mistake"),
        SyntaxErrorKind::TooLarge => {
            Report::new(&SYNTAX, Loc::Span(0..0), "the file is too large to read")
        }
    }
}

fn describe_token(text: &str, range: &std::ops::Range<usize>) -> String {
    let token = text.get(range.clone()).unwrap_or_default();
    if token.is_empty() {
        return "the end of the file".to_string();
    }
    let shown: String = token.chars().take(30).collect();
    let ellipsis = if shown.len() < token.len() { "..." } else { "" };
    format!("`{shown}{ellipsis}`")
}

fn unexpected_help(expected: &str, found: &str) -> Option<String> {
    if found == "`,`" {
        return Some("remove the extra comma".to_string());
    }
    if expected.contains("`,`") {
        return Some("separate values and fields with `,`".to_string());
    }
    None
}

/// A typed error (the text parses but does not fit the format) in muster's words.
pub(crate) fn from_de_error(file: &SourceFile, err: &DeError) -> Report {
    let range = err.range.clone().map_or(0..0, |r| {
        r.start.min(file.text.len())..r.end.min(file.text.len())
    });
    let at = Loc::Span(range);
    let field = field_name(err);
    match &err.kind {
        DeErrorKind::UnknownField {
            field: found,
            expected,
        } => Report::new(
            &UNKNOWN_FIELD,
            at,
            format!("unknown field `{found}`{}", context(file, err, 1)),
        )
        .help(
            did_you_mean(found, expected.iter().copied())
                .unwrap_or_else(|| format!("known fields: {}", list(expected))),
        ),
        DeErrorKind::UnknownVariant { variant, expected } => Report::new(
            &UNKNOWN_VARIANT,
            at,
            format!("unknown variant `{variant}`{}", within(err, 0)),
        )
        .help(
            did_you_mean(variant, expected.iter().copied())
                .unwrap_or_else(|| format!("known variants: {}", list(expected))),
        ),
        DeErrorKind::MissingField { field: missing } => {
            let mut report = Report::new(
                &MISSING_FIELD,
                at,
                format!("missing field `{missing}`{}", context(file, err, 0)),
            )
            .primary(format!("`{missing}` is required here"))
            .help(format!("add `{missing}: ...`"));
            if let Some(end) = &err.secondary {
                report = report.label(Loc::Span(end.clone()), "the value ends here");
            }
            report
        }
        DeErrorKind::DuplicateKey { key } => {
            let mut report = Report::new(
                &DUPLICATE_KEY,
                at,
                format!("`{key}` is given twice{}", within(err, 1)),
            )
            .help("keep one of the two");
            if let Some(first) = &err.secondary {
                report = report.label(Loc::Span(first.clone()), "first given here");
            }
            report
        }
        DeErrorKind::WrongStructName { found, expected } => Report::new(
            &WRONG_TYPE,
            at,
            format!("expected `{expected}(...)` here, found `{found}(...)`"),
        )
        .help(format!("rename it `{expected}`, or leave the name out")),
        DeErrorKind::InvalidType { found, expected }
        | DeErrorKind::InvalidValue { found, expected } => Report::new(
            &WRONG_TYPE,
            at,
            match &field {
                Some(f) => format!("`{f}` expects {}, found {found}", expects(expected, found)),
                None => format!("expected {}, found {found}", expects(expected, found)),
            },
        )
        .help_opt(type_help(expected, found)),
        DeErrorKind::InvalidLength { len, expected } => Report::new(
            &WRONG_TYPE,
            at,
            match &field {
                Some(f) => format!("`{f}` expects {}, found {len} values", words(expected)),
                None => format!("expected {}, found {len} values", words(expected)),
            },
        ),
        DeErrorKind::Custom(message) => Report::new(&WRONG_TYPE, at, lower(message)),
        DeErrorKind::Syntax => Report::new(&SYNTAX, at, "this text is not a value"),
    }
}

/// A key given twice in a `{}` map: the last value would count without a word.
pub(crate) fn from_duplicate_key(file: &SourceFile, err: &DeError) -> Report {
    let key = match &err.kind {
        DeErrorKind::DuplicateKey { key } => key.as_str(),
        _ => "",
    };
    let range = err.range.clone().unwrap_or(0..0);
    let place = path_to(file.tree(), range.start);
    let place = if place.is_empty() {
        String::new()
    } else {
        format!(" in `{place}`")
    };
    let mut report = Report::new(
        &DUPLICATE_KEY,
        Loc::Span(range),
        format!("`{key}` is given twice{place}"),
    )
    .help("only the last value would count; keep one");
    if let Some(first) = &err.secondary {
        report = report.label(Loc::Span(first.clone()), "first given here");
    }
    report
}

/// Where the map or struct holding `offset` sits in the document, as a path of field
/// names and list positions (`special_rules[1].params`).
fn path_to(tree: &Tree, offset: usize) -> String {
    use muster_syntax::NodeKind;
    let mut steps: Vec<String> = Vec::new();
    let mut node = Some(tree.node_at(offset));
    // Start from the container of the key, not from the key itself.
    while let Some(n) = node {
        if matches!(n.kind(), NodeKind::Map | NodeKind::Struct) {
            break;
        }
        node = n.parent();
    }
    while let Some(n) = node {
        let Some(parent) = n.parent() else { break };
        match parent.kind() {
            NodeKind::Field => {
                if let Some(token) = parent.token() {
                    steps.push(token.text.to_string());
                }
            }
            NodeKind::Entry => {
                if let Some(key) = parent.child(0).filter(|k| k.id() != n.id()) {
                    steps.push(key.text().trim_matches('"').to_string());
                }
            }
            NodeKind::List | NodeKind::Tuple => {
                if let Some(i) = parent.children().position(|c| c.id() == n.id()) {
                    steps.push(format!("[{i}]"));
                }
            }
            _ => {}
        }
        node = Some(parent);
    }
    steps.reverse();
    let mut out = String::new();
    for step in steps {
        if !step.starts_with('[') && !out.is_empty() {
            out.push('.');
        }
        out.push_str(&step);
    }
    out
}

/// The innermost field name on the error's path.
fn field_name(err: &DeError) -> Option<String> {
    err.path.iter().rev().find_map(|s| match s {
        muster_syntax::PathSegment::Field(f) => Some(f.clone()),
        muster_syntax::PathSegment::Index(_) => None,
    })
}

/// ` in `Scenario`` when the struct around the error's place is named, else where it
/// is (` in `sides[0]``).
fn context(file: &SourceFile, err: &DeError, skip: usize) -> String {
    let tree = file.tree();
    let named = err.range.as_ref().and_then(|r| {
        let mut node = Some(tree.node_at(r.start));
        while let Some(n) = node {
            if matches!(n.kind(), muster_syntax::NodeKind::Struct) {
                return n.name();
            }
            node = n.parent();
        }
        None
    });
    match named {
        Some(name) => format!(" in `{name}`"),
        None => within(err, skip),
    }
}

/// ` in `sides[0].forces`` for an error below the top level, leaving out the last
/// `skip` steps (an unknown field's own name is the last step).
fn within(err: &DeError, skip: usize) -> String {
    let keep = err.path.len().saturating_sub(skip);
    if keep == 0 {
        return String::new();
    }
    let trimmed = DeError {
        path: err.path[..keep].to_vec(),
        ..err.clone()
    };
    format!(" in `{}`", trimmed.path_string())
}

/// What a value expects when something else was found: the type's range only when a
/// number out of it was found (for text in place of a number the range adds nothing,
/// and the schema may narrow it: `turns` starts at 1, not 0).
fn expects(expected: &str, found: &str) -> String {
    let numeric_found = found.starts_with("the number");
    match expected.trim() {
        "u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize"
            if !numeric_found =>
        {
            "a whole number".to_string()
        }
        _ => words(expected),
    }
}

/// serde's names of what a type expects, in muster's words.
fn words(expected: &str) -> String {
    let e = expected.trim();
    match e {
        "u8" => "a whole number from 0 to 255".to_string(),
        "u16" => "a whole number from 0 to 65535".to_string(),
        "u32" | "u64" | "usize" => "a whole number of 0 or more".to_string(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".to_string(),
        "f32" | "f64" => "a number".to_string(),
        "a string" | "a borrowed string" => "text in double quotes".to_string(),
        "a boolean" => "`true` or `false`".to_string(),
        _ if e.starts_with("struct ") => format!("a `{}(...)` value", &e["struct ".len()..]),
        _ if e.starts_with("enum ") => format!("one of the `{}` variants", &e["enum ".len()..]),
        _ => lower(e),
    }
}

fn type_help(expected: &str, found: &str) -> Option<String> {
    let numeric = [
        "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize", "f32", "f64",
    ]
    .contains(&expected.trim());
    if numeric && found.starts_with("the string \"") {
        let inner = found
            .trim_start_matches("the string \"")
            .trim_end_matches('"');
        // Only a string that holds a number is a number in quotes.
        if inner.trim().parse::<f64>().is_ok() {
            return Some(format!("write the number without quotes: `{inner}`"));
        }
        return None;
    }
    if (expected.contains("string")) && !found.starts_with("the string") {
        return Some("put the text in double quotes".to_string());
    }
    if expected.contains("sequence") {
        return Some("write a list in square brackets: `[...]`".to_string());
    }
    None
}

fn list(items: &[&str]) -> String {
    items
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn lower(text: &str) -> String {
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_lowercase().to_string());
    let rest: String = chars.collect();
    first.unwrap_or_default() + rest.trim_end_matches('.')
}

#[cfg(test)]
mod tests {
    use super::{expects, type_help};

    #[test]
    fn only_a_number_in_quotes_is_told_to_lose_them() {
        assert_eq!(
            type_help("u16", "the string \"7\"").as_deref(),
            Some("write the number without quotes: `7`")
        );
        assert_eq!(type_help("u16", "the string \"x\""), None);
    }

    #[test]
    fn the_type_range_is_named_only_for_a_number_out_of_it() {
        assert_eq!(expects("u8", "the string \"7\""), "a whole number");
        assert_eq!(
            expects("u8", "the number 300"),
            "a whole number from 0 to 255"
        );
        assert_eq!(expects("f64", "the string \"x\""), "a number");
    }
}
