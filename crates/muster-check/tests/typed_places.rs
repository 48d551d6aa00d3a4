//! Checks name places as typed `Place`s, never as JSON-pointer strings: this reads the
//! source of every check and of the semantic layer they read, and fails on anything that
//! builds a pointer string (`format!("/sides/{i}")`, `format!("{base}/at")`, `"/turns"`,
//! `Place::from_pointer`, `Loc::Value(format!(...))`).

use std::path::{Path, PathBuf};

/// One place in a source file that builds a pointer string.
#[derive(Debug, PartialEq, Eq)]
struct Offence {
    /// 1-based line.
    line: usize,
    what: &'static str,
}

/// Rust source split for the scan.
struct Lexed {
    /// The string literals, each with the line it starts on.
    literals: Vec<(usize, String)>,
    /// The code outside comments and literals, without white space: each character
    /// with its line.
    code: Vec<(char, usize)>,
}

fn lex(source: &str) -> Lexed {
    let chars: Vec<char> = source.chars().collect();
    let mut literals = Vec::new();
    let mut code = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && at(i + 1) == '/') {
                line += usize::from(chars[i] == '\n');
                i += 1;
            }
            i += 2;
        } else if c == '"'
            || (c == 'r'
                && matches!(at(i + 1), '"' | '#')
                && !(i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')))
        {
            // A string, or a raw string `r"..."`, `r#"..."#`.
            let raw = c == 'r';
            let mut hashes = 0;
            if raw {
                i += 1;
                while at(i) == '#' {
                    hashes += 1;
                    i += 1;
                }
                if at(i) != '"' {
                    // `r#ident`, not a string.
                    code.push(('r', line));
                    continue;
                }
            }
            let start = line;
            let mut text = String::new();
            i += 1;
            while i < chars.len() {
                let ch = chars[i];
                if ch == '"' && (0..hashes).all(|k| at(i + 1 + k) == '#') {
                    i += 1 + hashes;
                    break;
                }
                if ch == '\\' && !raw {
                    text.push(ch);
                    text.push(at(i + 1));
                    line += usize::from(at(i + 1) == '\n');
                    i += 2;
                    continue;
                }
                line += usize::from(ch == '\n');
                text.push(ch);
                i += 1;
            }
            literals.push((start, text));
            code.push(('"', start));
        } else if c == '\'' {
            // A character literal (`'"'`, `'\''`) or a lifetime (`'a`).
            if at(i + 1) == '\\' {
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
            }
            code.push(('\'', line));
        } else {
            if c == '\n' {
                line += 1;
            } else if !c.is_whitespace() {
                code.push((c, line));
            }
            i += 1;
        }
    }
    Lexed { literals, code }
}

/// Whether a string literal is a JSON pointer or the start of one: `/` then a name or a
/// placeholder (`"/turns"`, `"/sides/{i}"`), or placeholders then `/` and a name
/// (`"{base}/strength"`, `"{}/battles/{b}"`).
fn pointer_literal(text: &str) -> Option<&'static str> {
    let segment = |rest: &str| {
        rest.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '{')
    };
    if let Some(rest) = text.strip_prefix('/') {
        return segment(rest).then_some("a string that starts a JSON pointer (`\"/...\"`)");
    }
    let mut rest = text;
    let mut placeholders = 0;
    while let Some(after) = rest.strip_prefix('{') {
        let close = after.find('}')?;
        rest = &after[close + 1..];
        placeholders += 1;
    }
    let rest = rest.strip_prefix('/')?;
    (placeholders > 0 && segment(rest))
        .then_some("a string that extends a pointer (`\"{base}/...\"`)")
}

/// Everything in `source` that builds a pointer string.
fn offences(source: &str) -> Vec<Offence> {
    let Lexed { literals, code } = lex(source);
    let mut out: Vec<Offence> = literals
        .iter()
        .filter_map(|(line, text)| pointer_literal(text).map(|what| Offence { line: *line, what }))
        .collect();
    let text: String = code.iter().map(|(c, _)| *c).collect();
    let line_at = |byte: usize| {
        let nth = text[..byte].chars().count();
        code.get(nth).map_or(0, |(_, line)| *line)
    };
    for (needle, what) in [
        ("from_pointer", "a place read from a pointer string"),
        ("Loc::Value(format!", "a place formatted as a string"),
        ("Loc::Key(format!", "a place formatted as a string"),
    ] {
        for (byte, _) in text.match_indices(needle) {
            out.push(Offence {
                line: line_at(byte),
                what,
            });
        }
    }
    out.sort_by_key(|o| o.line);
    out
}

fn sources(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect()
}

#[test]
fn no_check_builds_a_pointer_string() {
    // The check catalogue and the semantic model it reads (hook parameters read their
    // places from the parsed value, which is what pointers are for).
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let src = crates.clone();
    let hooks = crates.join("muster-semantic/src/hooks");
    let files: Vec<PathBuf> = ["muster-check/src/checks", "muster-semantic/src"]
        .iter()
        .flat_map(|dir| sources(&crates.join(dir)))
        .filter(|file| !file.starts_with(&hooks))
        .collect();
    assert!(files.len() > 100, "read {} files", files.len());
    let mut found = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        for o in offences(&source) {
            found.push(format!(
                "{}:{}: {}",
                file.strip_prefix(&src).unwrap_or(file).display(),
                o.line,
                o.what
            ));
        }
    }
    assert!(
        found.is_empty(),
        "name these places with `Place` (muster_db::place) instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scanner_catches_pointer_strings() {
    let snippet = r##"
fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let a = format!("/sides/{i}/forces/Placed/setup/{j}/at");
    let b = format!("{base}/strength");
    let c = format!(
        "{}/battles/{b}",
        side.pointer
    );
    sink.push(Report::new(&META, "/turns", "x").label(Loc::Value(
        format!("{x}"),
    ), "y"));
    let d = Place::from_pointer(p);
    let e = Loc::Key(format!("{p}"));
    let f = r#"/map"#;
}
"##;
    let lines: Vec<usize> = offences(snippet).iter().map(|o| o.line).collect();
    assert_eq!(
        lines,
        [3, 4, 6, 9, 9, 12, 13, 14],
        "{:?}",
        offences(snippet)
    );
}

#[test]
fn the_scanner_passes_typed_places_and_prose() {
    let snippet = r#"
//! Reports `/sides/0/forces` as a `Place`: "/sides/{i}" in a comment is prose.
fn run<'a>(cx: &ScenarioCx<'a>, sink: &mut Sink) {
    /* format!("/sides/{i}") */
    let quote = '"';
    let slash = '/';
    let escaped = '\'';
    let at = Place::setup_group(i, j).field("at").variant("Hexes").index(k);
    let help = format!("{a} of {b}, 1/2 a hex, and/or {c}");
    let path = "a/b";
    let half = "1/2";
    sink.push(Report::new(&META, at, help).label(Place::top("turns"), "game length"));
}
"#;
    assert_eq!(offences(snippet), []);
}
