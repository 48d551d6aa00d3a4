//! The span index: a small, tolerant reader of RON (and JSON, which it reads as RON
//! maps) that records the byte span of every value, so that a JSON pointer coming from
//! a semantic check or a schema error (`/sides/0/forces/Placed/setup/2/at/Hexes/1`)
//! resolves to the exact place in the author's file.
//!
//! `ron` does the real parsing into typed values; it exposes positions only in its
//! errors. This reader never fails: on anything unexpected it stops and keeps what it
//! has, and lookups fall back to the nearest enclosing value.

use std::ops::Range;

/// A value with its byte span in the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub span: Range<usize>,
    pub kind: NodeKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// Strings, numbers, chars, booleans.
    Scalar,
    /// A bare identifier: a unit enum variant, `None`, `true`.
    Ident(String),
    /// `Name(a: 1, b: 2)` or `(a: 1)`: named fields, with the span of each key.
    Struct {
        name: Option<String>,
        fields: Vec<(String, Range<usize>, Node)>,
    },
    /// `Name(1, 2)`, `(1, 2)`, `Some(x)`.
    Tuple {
        name: Option<String>,
        items: Vec<Node>,
    },
    List(Vec<Node>),
    /// `{ "key": value }`; string keys are stored unquoted.
    Map(Vec<(String, Range<usize>, Node)>),
}

/// Deep nesting is refused by `ron` too; stopping here keeps the reader off the stack limit.
const MAX_DEPTH: usize = 200;

/// Reads a whole document. Returns `None` only for an empty or unreadable start.
pub fn parse(text: &str) -> Option<Node> {
    let mut reader = Reader {
        src: text.as_bytes(),
        text,
        pos: 0,
    };
    reader.skip_trivia();
    // Inner attributes such as `#![enable(implicit_some)]`.
    while reader.src[reader.pos..].starts_with(b"#!") {
        while reader.pos < reader.src.len() && reader.src[reader.pos] != b']' {
            reader.pos += 1;
        }
        reader.pos = (reader.pos + 1).min(reader.src.len());
        reader.skip_trivia();
    }
    reader.value(0)
}

struct Reader<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn skip_trivia(&mut self) {
        loop {
            while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
                self.pos += 1;
            }
            let rest = &self.src[self.pos..];
            if rest.starts_with(b"//") {
                while self.peek().is_some_and(|b| b != b'\n') {
                    self.pos += 1;
                }
            } else if rest.starts_with(b"/*") {
                let mut depth = 0usize;
                while self.pos < self.src.len() {
                    let rest = &self.src[self.pos..];
                    if rest.starts_with(b"/*") {
                        depth += 1;
                        self.pos += 2;
                    } else if rest.starts_with(b"*/") {
                        depth -= 1;
                        self.pos += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        self.pos += 1;
                    }
                }
            } else {
                return;
            }
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_trivia();
        if self.peek() == Some(byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> Option<(String, Range<usize>)> {
        self.skip_trivia();
        let start = self.pos;
        if self.src[self.pos..].starts_with(b"r#") {
            self.pos += 2;
        }
        let body = self.pos;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80)
        {
            // Stay on char boundaries for non-ASCII identifiers.
            self.pos += 1;
            while self.pos < self.src.len() && !self.text.is_char_boundary(self.pos) {
                self.pos += 1;
            }
        }
        if self.pos == body {
            self.pos = start;
            return None;
        }
        Some((self.text[body..self.pos].to_string(), start..self.pos))
    }

    fn string(&mut self) -> Option<String> {
        let start = self.pos;
        if self.peek() == Some(b'r') {
            // Raw string r"..." or r#"..."#.
            let mut hashes = 0;
            self.pos += 1;
            while self.peek() == Some(b'#') {
                hashes += 1;
                self.pos += 1;
            }
            if self.peek() != Some(b'"') {
                self.pos = start;
                return None;
            }
            self.pos += 1;
            let body = self.pos;
            let closing: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while self.pos < self.src.len() && !self.src[self.pos..].starts_with(&closing) {
                self.pos += 1;
            }
            let end = self.pos.min(self.src.len());
            self.pos = (self.pos + closing.len()).min(self.src.len());
            return self.text.get(body..end).map(str::to_string);
        }
        let quote = self.peek()?;
        self.pos += 1;
        let body = self.pos;
        while let Some(b) = self.peek() {
            if b == b'\\' {
                self.pos += 2;
            } else if b == quote {
                break;
            } else {
                self.pos += 1;
            }
        }
        let end = self.pos.min(self.src.len());
        self.pos = (self.pos + 1).min(self.src.len());
        Some(self.text.get(body..end).unwrap_or_default().to_string())
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_trivia();
        let start = self.pos;
        let byte = self.peek()?;
        let kind = match byte {
            b'"' | b'\'' => {
                self.string()?;
                NodeKind::Scalar
            }
            b'r' if matches!(self.src.get(self.pos + 1), Some(b'"' | b'#'))
                && !self.src[self.pos..].starts_with(b"r#\"") =>
            {
                // `r#ident` is an identifier, `r#"..."#` a raw string.
                if self.src[self.pos..].starts_with(b"r#") {
                    return self.named(start, depth);
                }
                self.string()?;
                NodeKind::Scalar
            }
            b'r' if self.src[self.pos..].starts_with(b"r#\"") => {
                self.string()?;
                NodeKind::Scalar
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                while !self.eat(b']') {
                    let Some(v) = self.value(depth + 1) else {
                        break;
                    };
                    items.push(v);
                    if !self.eat(b',') {
                        self.eat(b']');
                        break;
                    }
                }
                NodeKind::List(items)
            }
            b'{' => {
                self.pos += 1;
                let mut entries = Vec::new();
                while !self.eat(b'}') {
                    self.skip_trivia();
                    let key_start = self.pos;
                    let Some(key) = self.value(depth + 1) else {
                        break;
                    };
                    let key_text = self.text[key.span.clone()].trim_matches('"').to_string();
                    if !self.eat(b':') {
                        break;
                    }
                    let Some(v) = self.value(depth + 1) else {
                        break;
                    };
                    entries.push((key_text, key_start..key.span.end, v));
                    if !self.eat(b',') {
                        self.eat(b'}');
                        break;
                    }
                }
                NodeKind::Map(entries)
            }
            b'(' => return self.parens(start, None, depth),
            b'-' | b'+' | b'.' | b'0'..=b'9' => {
                self.pos += 1;
                while self.peek().is_some_and(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'+' | b'-')
                }) {
                    self.pos += 1;
                }
                NodeKind::Scalar
            }
            _ => return self.named(start, depth),
        };
        Some(Node {
            span: start..self.pos,
            kind,
        })
    }

    /// An identifier, possibly followed by `(...)`.
    fn named(&mut self, start: usize, depth: usize) -> Option<Node> {
        let (name, _) = self.ident()?;
        let after = self.pos;
        self.skip_trivia();
        if self.peek() == Some(b'(') {
            return self.parens(start, Some(name), depth);
        }
        self.pos = after;
        let kind = match name.as_str() {
            "true" | "false" | "inf" | "NaN" => NodeKind::Scalar,
            _ => NodeKind::Ident(name),
        };
        Some(Node {
            span: start..self.pos,
            kind,
        })
    }

    /// `( ... )` after an optional name: named fields or a tuple.
    fn parens(&mut self, start: usize, name: Option<String>, depth: usize) -> Option<Node> {
        self.skip_trivia();
        self.pos += 1; // '('
        // Named fields start with `ident :` (but not `ident::`).
        let save = self.pos;
        let is_struct = match self.ident() {
            Some(_) => self.eat(b':') && self.peek() != Some(b':'),
            None => false,
        };
        self.pos = save;
        let kind = if is_struct {
            let mut fields = Vec::new();
            while !self.eat(b')') {
                let Some((key, key_span)) = self.ident() else {
                    break;
                };
                if !self.eat(b':') {
                    break;
                }
                let Some(v) = self.value(depth + 1) else {
                    break;
                };
                fields.push((key, key_span, v));
                if !self.eat(b',') {
                    self.eat(b')');
                    break;
                }
            }
            NodeKind::Struct { name, fields }
        } else {
            let mut items = Vec::new();
            while !self.eat(b')') {
                let Some(v) = self.value(depth + 1) else {
                    break;
                };
                items.push(v);
                if !self.eat(b',') {
                    self.eat(b')');
                    break;
                }
            }
            NodeKind::Tuple { name, items }
        };
        Some(Node {
            span: start..self.pos,
            kind,
        })
    }
}

/// What a pointer lookup found.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Span of the value the pointer names (or of the deepest value reached).
    pub span: Range<usize>,
    /// Span of the key, for pointers ending in a struct field or map entry.
    pub key: Option<Range<usize>>,
    /// Whether the whole pointer was resolved.
    pub exact: bool,
}

/// Splits a JSON pointer into unescaped segments.
pub fn segments(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

impl Node {
    /// Resolves a JSON pointer as `serde_json` would lay the typed value out:
    /// struct fields and map keys by name, sequence and tuple items by index, enum
    /// variants by their name (`/Placed/setup`), `Some(x)` and newtype wrappers transparent.
    pub fn lookup(&self, pointer: &str) -> Found {
        let segs = segments(pointer);
        let mut node = self;
        let mut key = None;
        let mut i = 0;
        while i < segs.len() {
            let seg = segs[i].as_str();
            match &node.kind {
                NodeKind::Struct { name, fields } => {
                    if let Some((_, k, v)) = fields.iter().find(|(f, _, _)| f == seg) {
                        key = Some(k.clone());
                        node = v;
                        i += 1;
                        continue;
                    }
                    if name.as_deref() == Some(seg) {
                        // Struct-like enum variant: the variant name is a pointer segment.
                        i += 1;
                        continue;
                    }
                    break;
                }
                NodeKind::Tuple { name, items } => {
                    if name.as_deref() == Some(seg) {
                        i += 1;
                        if items.len() == 1 {
                            node = &items[0];
                            key = None;
                        }
                        continue;
                    }
                    if let Ok(index) = seg.parse::<usize>()
                        && let Some(item) = items.get(index)
                        && items.len() > 1
                    {
                        node = item;
                        key = None;
                        i += 1;
                        continue;
                    }
                    if items.len() == 1 {
                        // `Some(x)` or a newtype wrapper: transparent.
                        node = &items[0];
                        key = None;
                        continue;
                    }
                    if let Ok(index) = seg.parse::<usize>()
                        && let Some(item) = items.get(index)
                    {
                        node = item;
                        key = None;
                        i += 1;
                        continue;
                    }
                    break;
                }
                NodeKind::List(items) => match seg.parse::<usize>().ok().and_then(|n| items.get(n))
                {
                    Some(item) => {
                        node = item;
                        key = None;
                        i += 1;
                    }
                    None => break,
                },
                NodeKind::Map(entries) => match entries.iter().find(|(k, _, _)| k == seg) {
                    Some((_, k, v)) => {
                        key = Some(k.clone());
                        node = v;
                        i += 1;
                    }
                    None => break,
                },
                NodeKind::Ident(name) if name == seg => {
                    i += 1;
                }
                _ => break,
            }
        }
        Found {
            span: node.span.clone(),
            key,
            exact: i == segs.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r##"// a scenario
Scenario(
    id: "x",
    sides: [
        (
            id: "franks", // comment
            forces: Placed(setup: [
                (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
                (units: [(counter: "c")], at: Range("0307", "0309")),
            ]),
            morale_threshold: Some(Fixed(18)),
        ),
    ],
    params: {"bonus": "two", "list": [1, 2]},
    unit: Draw,
    raw: r#"a"b"#,
)"##;

    fn text_at(pointer: &str) -> &'static str {
        let node = parse(DOC).unwrap();
        let found = node.lookup(pointer);
        assert!(found.exact, "{pointer} not resolved");
        &DOC[found.span]
    }

    #[test]
    fn resolves_struct_fields_lists_and_variants() {
        assert_eq!(text_at("/id"), "\"x\"");
        assert_eq!(text_at("/sides/0/id"), "\"franks\"");
        assert_eq!(
            text_at("/sides/0/forces/Placed/setup/0/at/Hexes/1"),
            "\"1004\""
        );
        assert_eq!(
            text_at("/sides/0/forces/Placed/setup/1/at/Range/0"),
            "\"0307\""
        );
        assert_eq!(text_at("/sides/0/forces/Placed/setup/0/units/0/count"), "2");
        assert_eq!(text_at("/sides/0/morale_threshold/Fixed"), "18");
        assert_eq!(text_at("/params/bonus"), "\"two\"");
        assert_eq!(text_at("/params/list/1"), "2");
        assert_eq!(text_at("/unit"), "Draw");
        assert_eq!(text_at("/raw"), "r#\"a\"b\"#");
    }

    #[test]
    fn unknown_pointer_falls_back_to_the_nearest_value() {
        let node = parse(DOC).unwrap();
        let found = node.lookup("/sides/0/nothing");
        assert!(!found.exact);
        assert!(DOC[found.span].starts_with("(\n            id: \"franks\""));
    }

    #[test]
    fn reads_json_as_maps() {
        let json = r#"{"id": "x", "sides": [{"id": "a"}]}"#;
        let node = parse(json).unwrap();
        assert_eq!(&json[node.lookup("/sides/0/id").span], "\"a\"");
    }

    #[test]
    fn never_panics_on_garbage() {
        for text in [
            "",
            "(",
            "((((",
            "[1,",
            "{\"a\"",
            "r#",
            "\"abc",
            "/* x",
            "Foo(a:",
            "\u{0}\u{1}",
            "r#\"x",
        ] {
            let _ = parse(text).map(|n| n.lookup("/a/0/b"));
        }
        let deep = "[".repeat(100_000);
        assert!(parse(&deep).is_some());
    }
}
