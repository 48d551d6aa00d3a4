//! Recursive descent over the token list. The parser never stops at an error: it
//! records it, skips what it must, and keeps building the tree. Nesting is bounded by
//! [`crate::MAX_DEPTH`]; deeper containers are skipped by counting brackets.

use crate::error::{SyntaxError, SyntaxErrorKind};
use crate::lexer::{self, Token};
use crate::number;
use crate::string;
use crate::tree::{NONE, NodeData, NodeKind, Tree};
use crate::{Dialect, MAX_DEPTH, TokenKind};

struct Parser<'a> {
    src: &'a str,
    dialect: Dialect,
    tokens: Vec<Token>,
    pos: usize,
    last_end: u32,
    nodes: Vec<NodeData>,
    children: Vec<u32>,
    scratch: Vec<u32>,
    errors: Vec<SyntaxError>,
    depth: usize,
}

impl TokenKind {
    /// Whitespace, comments and the byte order mark.
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            TokenKind::Whitespace
                | TokenKind::LineComment
                | TokenKind::BlockComment
                | TokenKind::Bom
        )
    }
}

impl<'a> Parser<'a> {
    fn peek(&mut self) -> Option<Token> {
        while let Some(t) = self.tokens.get(self.pos) {
            if !t.kind.is_trivia() {
                return Some(*t);
            }
            self.pos += 1;
        }
        None
    }

    /// The first significant token after token `i`.
    fn significant_after(&self, i: usize) -> Option<Token> {
        self.tokens
            .get(i + 1..)?
            .iter()
            .find(|t| !t.kind.is_trivia())
            .copied()
    }

    fn bump(&mut self) -> u32 {
        let i = self.pos;
        if let Some(t) = self.tokens.get(i) {
            self.last_end = t.end;
            self.pos += 1;
        }
        i as u32
    }

    fn text(&self, t: Token) -> &'a str {
        self.src.get(t.start as usize..t.end as usize).unwrap_or("")
    }

    fn error(&mut self, kind: SyntaxErrorKind, range: std::ops::Range<u32>) {
        self.errors.push(SyntaxError::new(
            kind,
            range.start as usize..range.end as usize,
        ));
    }

    fn eof_range(&self) -> std::ops::Range<u32> {
        let len = self.src.len() as u32;
        len..len
    }

    fn start_node(&mut self, kind: NodeKind, start: u32) -> (u32, usize) {
        let id = self.nodes.len() as u32;
        self.nodes.push(NodeData {
            kind,
            plain: false,
            start,
            end: start,
            token: NONE,
            open: NONE,
            close: NONE,
            children_start: 0,
            children_len: 0,
            parent: NONE,
        });
        (id, self.scratch.len())
    }

    fn finish_node(&mut self, id: u32, marker: usize) {
        let start = self.children.len() as u32;
        let kids = self.scratch.get(marker..).unwrap_or(&[]);
        let len = kids.len() as u32;
        for &child in kids {
            self.nodes[child as usize].parent = id;
        }
        self.children.extend_from_slice(kids);
        self.scratch.truncate(marker);
        let end = self.last_end.max(self.nodes[id as usize].start);
        let node = &mut self.nodes[id as usize];
        node.children_start = start;
        node.children_len = len;
        node.end = end;
        self.scratch.push(id);
    }

    /// A node of one token, without children: `start_node` and `finish_node` at once.
    fn leaf(&mut self, kind: NodeKind) {
        let id = self.nodes.len() as u32;
        let token = self.bump();
        let start = self.tokens.get(token as usize).map_or(0, |t| t.start);
        self.nodes.push(NodeData {
            kind,
            plain: false,
            start,
            end: self.last_end.max(start),
            token,
            open: NONE,
            close: NONE,
            children_start: self.children.len() as u32,
            children_len: 0,
            parent: NONE,
        });
        self.scratch.push(id);
    }

    /// Parses one value; returns false (consuming nothing) at a closer, comma or the end.
    fn value(&mut self, expected: &'static str) -> bool {
        let Some(t) = self.peek() else {
            self.error(
                SyntaxErrorKind::UnexpectedEof { expected },
                self.eof_range(),
            );
            return false;
        };
        let json = self.dialect == Dialect::Json;
        match t.kind {
            TokenKind::LParen if !json => self.group(false),
            TokenKind::LBracket => self.list(),
            TokenKind::LBrace => self.map(),
            TokenKind::Ident => {
                let text = self.text(t);
                if json {
                    match text {
                        "true" | "false" => self.leaf(NodeKind::Bool),
                        "null" => self.leaf(NodeKind::Null),
                        _ => {
                            self.error(
                                SyntaxErrorKind::UnexpectedToken { expected },
                                t.start..t.end,
                            );
                            self.leaf(NodeKind::Error);
                        }
                    }
                } else if self
                    .significant_after(self.pos)
                    .is_some_and(|n| n.kind == TokenKind::LParen)
                {
                    self.group(true);
                } else if matches!(text, "true" | "false") {
                    self.leaf(NodeKind::Bool);
                } else {
                    self.leaf(NodeKind::Ident);
                }
            }
            TokenKind::String | TokenKind::RawString => {
                let text = self.text(t);
                let plain = t.plain;
                if plain {
                    // Checked already: no escape to check.
                    self.leaf(NodeKind::String);
                    if let Some(node) = self.nodes.last_mut() {
                        node.plain = true;
                    }
                    return true;
                }
                if let Err((reason, range)) = match (self.dialect, t.kind) {
                    (Dialect::Json, _) => string::check_json(text),
                    (Dialect::Ron, TokenKind::String) => string::check_ron(text),
                    _ => Ok(()),
                } {
                    self.error(
                        SyntaxErrorKind::InvalidEscape { reason },
                        t.start + range.start as u32..t.start + range.end as u32,
                    );
                }
                self.leaf(NodeKind::String);
            }
            TokenKind::Char => {
                if let Err((reason, range)) = string::ron_char(self.text(t)).map(|_| ()) {
                    self.error(
                        SyntaxErrorKind::InvalidEscape { reason },
                        t.start + range.start as u32..t.start + range.end as u32,
                    );
                }
                self.leaf(NodeKind::Char);
            }
            TokenKind::ByteString => self.leaf(NodeKind::ByteString),
            TokenKind::ByteChar => {
                if string::ron_byte(self.text(t)).is_none() {
                    self.error(SyntaxErrorKind::InvalidNumber, t.start..t.end);
                }
                self.leaf(NodeKind::Number)
            }
            TokenKind::Number => {
                let text = self.text(t);
                let ok = match self.dialect {
                    Dialect::Ron => number::ron_any(text).is_some(),
                    Dialect::Json => number::json_number(text).is_some(),
                };
                if !ok {
                    self.error(SyntaxErrorKind::InvalidNumber, t.start..t.end);
                }
                self.leaf(NodeKind::Number);
            }
            TokenKind::RParen
            | TokenKind::RBracket
            | TokenKind::RBrace
            | TokenKind::Comma
            | TokenKind::Colon => {
                self.error(
                    SyntaxErrorKind::UnexpectedToken { expected },
                    t.start..t.end,
                );
                return false;
            }
            _ => {
                self.error(
                    SyntaxErrorKind::UnexpectedToken { expected },
                    t.start..t.end,
                );
                self.leaf(NodeKind::Error);
            }
        }
        true
    }

    /// Skips a container nested too deep: counts brackets up to its end.
    fn too_deep(&mut self, id: u32, marker: usize, open: Token) {
        self.error(SyntaxErrorKind::TooDeep, open.start..open.end);
        let mut level = 0usize;
        while let Some(t) = self.peek() {
            match t.kind {
                TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => level += 1,
                TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                    level = level.saturating_sub(1)
                }
                _ => {}
            }
            self.bump();
            if level == 0 {
                break;
            }
        }
        self.nodes[id as usize].kind = NodeKind::Error;
        self.finish_node(id, marker);
    }

    /// Opens a container at the current token; returns false if it was too deep.
    fn open(&mut self, id: u32, marker: usize) -> Option<Token> {
        let open = self.peek()?;
        if self.depth >= MAX_DEPTH {
            self.too_deep(id, marker, open);
            return None;
        }
        self.nodes[id as usize].open = self.bump();
        self.depth += 1;
        Some(open)
    }

    /// `Name(...)` or `(...)`: a struct if its elements are `name: value` fields, a
    /// tuple otherwise.
    fn group(&mut self, named: bool) {
        let start = self.peek().map_or(0, |t| t.start);
        let (id, marker) = self.start_node(NodeKind::Tuple, start);
        if named {
            self.nodes[id as usize].token = self.bump();
            self.peek();
        }
        let Some(open) = self.open(id, marker) else {
            return;
        };
        let mut kind: Option<NodeKind> = None;
        loop {
            let Some(t) = self.peek() else {
                self.error(
                    SyntaxErrorKind::Unclosed {
                        open: open.start as usize..open.end as usize,
                    },
                    self.eof_range(),
                );
                break;
            };
            match t.kind {
                TokenKind::RParen => {
                    self.nodes[id as usize].close = self.bump();
                    break;
                }
                TokenKind::RBracket | TokenKind::RBrace => {
                    self.error(
                        SyntaxErrorKind::Unclosed {
                            open: open.start as usize..open.end as usize,
                        },
                        t.start..t.end,
                    );
                    break;
                }
                TokenKind::Comma | TokenKind::Colon => {
                    self.error(
                        SyntaxErrorKind::UnexpectedToken {
                            expected: "a value or `)`",
                        },
                        t.start..t.end,
                    );
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let is_field = t.kind == TokenKind::Ident
                && self
                    .significant_after(self.pos)
                    .is_some_and(|n| n.kind == TokenKind::Colon);
            let this = if is_field {
                self.field();
                NodeKind::Struct
            } else {
                self.value("a value or `)`");
                NodeKind::Tuple
            };
            match kind {
                None => kind = Some(this),
                Some(k) if k != this => {
                    let expected = if k == NodeKind::Struct {
                        "a field `name: value`"
                    } else {
                        "a value (this tuple has no field names)"
                    };
                    self.error(
                        SyntaxErrorKind::UnexpectedToken { expected },
                        t.start..t.end,
                    );
                }
                Some(_) => {}
            }
            self.separator(TokenKind::RParen, "`,` or `)`");
        }
        self.depth -= 1;
        self.nodes[id as usize].kind = kind.unwrap_or(NodeKind::Tuple);
        self.finish_node(id, marker);
    }

    /// After an element: a comma, the closer (left for the caller) or an error.
    fn separator(&mut self, close: TokenKind, expected: &'static str) {
        match self.peek() {
            Some(t) if t.kind == TokenKind::Comma => {
                self.bump();
            }
            Some(t) if t.kind == close => {}
            Some(t)
                if matches!(
                    t.kind,
                    TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace
                ) => {}
            None => {}
            Some(t) => {
                self.error(
                    SyntaxErrorKind::UnexpectedToken { expected },
                    t.start..t.end,
                );
            }
        }
    }

    fn field(&mut self) {
        let start = self.peek().map_or(0, |t| t.start);
        let (id, marker) = self.start_node(NodeKind::Field, start);
        self.nodes[id as usize].token = self.bump();
        self.peek();
        self.bump(); // the colon, checked by the caller
        self.value("a value");
        self.finish_node(id, marker);
    }

    fn list(&mut self) {
        let start = self.peek().map_or(0, |t| t.start);
        let (id, marker) = self.start_node(NodeKind::List, start);
        let Some(open) = self.open(id, marker) else {
            return;
        };
        self.elements(
            id,
            open,
            TokenKind::RBracket,
            "a value or `]`",
            "`,` or `]`",
            false,
        );
        self.depth -= 1;
        self.finish_node(id, marker);
    }

    fn map(&mut self) {
        let start = self.peek().map_or(0, |t| t.start);
        let (id, marker) = self.start_node(NodeKind::Map, start);
        let Some(open) = self.open(id, marker) else {
            return;
        };
        let expected = match self.dialect {
            Dialect::Ron => "a key or `}`",
            Dialect::Json => "a string key or `}`",
        };
        self.elements(id, open, TokenKind::RBrace, expected, "`,` or `}`", true);
        self.depth -= 1;
        self.finish_node(id, marker);
    }

    fn elements(
        &mut self,
        id: u32,
        open: Token,
        close: TokenKind,
        expected: &'static str,
        expected_sep: &'static str,
        entries: bool,
    ) {
        let mut count = 0usize;
        let mut had_comma = true;
        loop {
            let Some(t) = self.peek() else {
                self.error(
                    SyntaxErrorKind::Unclosed {
                        open: open.start as usize..open.end as usize,
                    },
                    self.eof_range(),
                );
                return;
            };
            if t.kind == close {
                // JSON has no trailing commas.
                if self.dialect == Dialect::Json && count > 0 && had_comma {
                    self.error(
                        SyntaxErrorKind::UnexpectedToken {
                            expected: "a value",
                        },
                        t.start..t.end,
                    );
                }
                self.nodes[id as usize].close = self.bump();
                return;
            }
            match t.kind {
                TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                    self.error(
                        SyntaxErrorKind::Unclosed {
                            open: open.start as usize..open.end as usize,
                        },
                        t.start..t.end,
                    );
                    return;
                }
                TokenKind::Comma | TokenKind::Colon => {
                    self.error(
                        SyntaxErrorKind::UnexpectedToken { expected },
                        t.start..t.end,
                    );
                    self.bump();
                    continue;
                }
                _ => {}
            }
            if entries {
                self.entry();
            } else {
                self.value(expected);
            }
            count += 1;
            had_comma = self.peek().is_some_and(|t| t.kind == TokenKind::Comma);
            self.separator(close, expected_sep);
        }
    }

    fn entry(&mut self) {
        let start = self.peek().map_or(0, |t| t.start);
        let (id, marker) = self.start_node(NodeKind::Entry, start);
        if self.dialect == Dialect::Json
            && let Some(t) = self.peek()
            && t.kind != TokenKind::String
        {
            self.error(
                SyntaxErrorKind::UnexpectedToken {
                    expected: "a string key",
                },
                t.start..t.end,
            );
        }
        self.value("a key");
        match self.peek() {
            Some(t) if t.kind == TokenKind::Colon => {
                self.bump();
                self.value("a value");
            }
            Some(t) => self.error(
                SyntaxErrorKind::UnexpectedToken { expected: "`:`" },
                t.start..t.end,
            ),
            None => self.error(
                SyntaxErrorKind::UnexpectedEof { expected: "`:`" },
                self.eof_range(),
            ),
        }
        self.finish_node(id, marker);
    }
}

pub(crate) fn parse(shared: std::sync::Arc<String>, dialect: Dialect) -> Tree {
    let src: &str = &shared;
    if src.len() >= u32::MAX as usize {
        return Tree {
            text: std::sync::Arc::new(String::new()),
            dialect,
            tokens: Vec::new(),
            words: Vec::new(),
            comments: Vec::new(),
            nodes: vec![NodeData {
                kind: NodeKind::Document,
                plain: false,
                start: 0,
                end: 0,
                token: NONE,
                open: NONE,
                close: NONE,
                children_start: 0,
                children_len: 0,
                parent: NONE,
            }],
            children: Vec::new(),
            errors: vec![SyntaxError::new(SyntaxErrorKind::TooLarge, 0..0)],
        };
    }
    let lexer::Lexed {
        tokens,
        errors: lex_errors,
        words,
        comments,
    } = lexer::lex(src, dialect);
    let mut p = Parser {
        src,
        dialect,
        nodes: Vec::with_capacity(tokens.len() / 2 + 1),
        children: Vec::with_capacity(tokens.len() / 2 + 1),
        tokens,
        pos: 0,
        last_end: 0,
        scratch: Vec::new(),
        errors: lex_errors,
        depth: 0,
    };
    let (root, marker) = p.start_node(NodeKind::Document, 0);
    p.value("a value");
    if let Some(t) = p.peek() {
        p.error(
            SyntaxErrorKind::TrailingCharacters,
            t.start..src.len() as u32,
        );
    }
    p.last_end = src.len() as u32;
    p.finish_node(root, marker);
    p.nodes[root as usize].start = 0;
    // Lexical errors come first in the list; keep source order for readers.
    p.errors.sort_by_key(|e| (e.range.start, e.range.end));
    Tree {
        text: shared.clone(),
        dialect,
        tokens: p.tokens,
        words,
        comments,
        nodes: p.nodes,
        children: p.children,
        errors: p.errors,
    }
}
