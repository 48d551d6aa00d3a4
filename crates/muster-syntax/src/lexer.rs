//! Splits text into tokens that cover every byte. Lexing never fails: bytes that start
//! no token become one-character `Unknown` tokens, and unterminated strings or comments
//! run to the end of the input with an error.

use crate::error::{SyntaxError, SyntaxErrorKind};
use crate::{Dialect, TokenKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    /// A `"..."` string without escapes (nor, in JSON, control characters): what
    /// `string::is_plain` says of its text, noted while the lexer scans it.
    pub plain: bool,
    pub start: u32,
    pub end: u32,
}

/// Whitespace as ron 0.12 counts it (more than ASCII, less than `char::is_whitespace`).
pub(crate) fn is_ron_whitespace(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t'
            | '\n'
            | '\r'
            | '\x0B'
            | '\x0C'
            | '\u{85}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

fn is_json_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

pub(crate) fn is_ident_start(c: char) -> bool {
    c == '_' || unicode_ident::is_xid_start(c)
}

pub(crate) fn is_ident_continue(c: char) -> bool {
    unicode_ident::is_xid_continue(c)
}

/// Characters a raw identifier (`r#a.b`) may contain.
pub(crate) fn is_ident_raw_char(c: char) -> bool {
    matches!(c, '.' | '+' | '-') || unicode_ident::is_xid_continue(c)
}

/// Characters that continue a number token. The token is deliberately greedy: ron never
/// accepts a number directly followed by one of these, so a longer token only turns one
/// error into another, and the typed reader re-parses the whole text the way ron does.
fn is_number_continue(c: char) -> bool {
    c == '.' || c == '+' || c == '-' || unicode_ident::is_xid_continue(c)
}

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
    errors: Vec<SyntaxError>,
    /// Positions in `tokens` of the number and identifier tokens.
    words: Vec<u32>,
    /// Positions in `tokens` of the comments.
    comments: Vec<u32>,
}

/// A lexed text: its tokens (their texts concatenate to the text), the lexical errors,
/// and where the number and identifier tokens, and the comments, are among the tokens.
pub(crate) struct Lexed {
    pub tokens: Vec<Token>,
    pub errors: Vec<SyntaxError>,
    pub words: Vec<u32>,
    pub comments: Vec<u32>,
}

impl<'a> Lexer<'a> {
    /// The character at `pos + offset` (`None` at the end or inside a character).
    #[inline]
    fn peek_at(&self, offset: usize) -> Option<char> {
        let at = self.pos + offset;
        match self.bytes.get(at) {
            // An ASCII byte is always a whole character.
            Some(&b) if b.is_ascii() => Some(b as char),
            Some(_) => self.src.get(at..).and_then(|s| s.chars().next()),
            None => None,
        }
    }

    #[inline]
    fn peek(&self) -> Option<char> {
        self.peek_at(0)
    }

    #[inline(always)]
    fn push(&mut self, kind: TokenKind, start: usize) {
        match kind {
            TokenKind::Number | TokenKind::Ident => self.words.push(self.tokens.len() as u32),
            TokenKind::LineComment | TokenKind::BlockComment => {
                self.comments.push(self.tokens.len() as u32);
            }
            _ => {}
        }
        self.tokens.push(Token {
            kind,
            plain: false,
            start: start as u32,
            end: self.pos as u32,
        });
    }

    /// Advances over the characters that satisfy `f`. ASCII bytes are tested without
    /// decoding; other characters are decoded (`pos` is always at a char boundary).
    #[inline(always)]
    fn eat_while(&mut self, f: impl Fn(char) -> bool) {
        while let Some(&b) = self.bytes.get(self.pos) {
            if b.is_ascii() {
                if !f(b as char) {
                    break;
                }
                self.pos += 1;
            } else {
                match self.peek() {
                    Some(c) if f(c) => self.pos += c.len_utf8(),
                    _ => break,
                }
            }
        }
    }

    /// Skips runs of eight spaces (indentation) at once; the caller eats the rest.
    #[inline(always)]
    fn skip_spaces(&mut self) {
        while self.bytes.get(self.pos..self.pos + 8) == Some(b"        ") {
            self.pos += 8;
        }
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }

    fn error(&mut self, kind: SyntaxErrorKind, start: usize, end: usize) {
        self.errors.push(SyntaxError::new(kind, start..end));
    }

    /// A `"` string (already at the quote); backslash skips the next character. Notes
    /// whether the string is plain (see [`Token::plain`]): in JSON, the scan also stops
    /// at control characters.
    fn quoted(&mut self, kind: TokenKind, start: usize, json: bool) {
        self.pos += 1;
        let mut plain = true;
        loop {
            // Bytes of multi-byte characters are never `"`, `\\` or below 0x20: scan bytes.
            let rest = &self.bytes[self.pos..];
            match rest
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || (json && b < 0x20))
            {
                None => {
                    self.pos = self.bytes.len();
                    self.error(SyntaxErrorKind::UnterminatedString, start, self.pos);
                    break;
                }
                Some(i) if rest[i] == b'"' => {
                    self.pos += i + 1;
                    break;
                }
                Some(i) if rest[i] == b'\\' => {
                    plain = false;
                    self.pos += i + 1;
                    self.bump();
                }
                Some(i) => {
                    plain = false;
                    self.pos += i + 1;
                }
            }
        }
        self.push(kind, start);
        if let Some(token) = self.tokens.last_mut() {
            token.plain = plain && kind == TokenKind::String;
        }
    }

    /// `r#*"..."#*` with `pos` at the first `#` or `"`.
    fn raw_string(&mut self, kind: TokenKind, start: usize) {
        let hashes_start = self.pos;
        while self.bytes.get(self.pos) == Some(&b'#') {
            self.pos += 1;
        }
        let hashes = self.pos - hashes_start;
        if self.bytes.get(self.pos) != Some(&b'"') {
            self.push(TokenKind::Unknown, start);
            return;
        }
        self.pos += 1;
        let rest = &self.bytes[self.pos..];
        let mut found = None;
        let mut i = 0;
        while i < rest.len() {
            if rest[i] == b'"'
                && rest.len() >= i + 1 + hashes
                && rest[i + 1..i + 1 + hashes].iter().all(|b| *b == b'#')
            {
                found = Some(i);
                break;
            }
            i += 1;
        }
        match found {
            Some(i) => self.pos += i + 1 + hashes,
            None => {
                self.pos = self.bytes.len();
                self.error(SyntaxErrorKind::UnterminatedString, start, self.pos);
            }
        }
        self.push(kind, start);
    }

    /// `'c'` or `'\n'` (already at the quote).
    fn char_literal(&mut self, kind: TokenKind, start: usize) {
        self.pos += 1;
        match self.peek() {
            Some('\\') => {
                self.pos += 1;
                self.bump();
                while let Some(c) = self.peek() {
                    if c == '\'' || c == '\n' {
                        break;
                    }
                    self.pos += c.len_utf8();
                }
            }
            Some(_) => self.bump(),
            None => {}
        }
        if self.peek() == Some('\'') {
            self.pos += 1;
        } else {
            self.error(SyntaxErrorKind::UnterminatedChar, start, self.pos);
        }
        self.push(kind, start);
    }

    fn comment(&mut self, start: usize) -> bool {
        match self.bytes.get(self.pos + 1) {
            Some(b'/') => {
                while let Some(&b) = self.bytes.get(self.pos) {
                    if b == b'\n' {
                        break;
                    }
                    self.pos += 1;
                }
                // The loop stops on an ASCII byte or at the end, so `pos` is a boundary.
                self.push(TokenKind::LineComment, start);
                true
            }
            Some(b'*') => {
                self.pos += 2;
                let mut level = 1u32;
                while level > 0 {
                    match self.bytes.get(self.pos..self.pos + 2) {
                        Some(b"/*") => {
                            level += 1;
                            self.pos += 2;
                        }
                        Some(b"*/") => {
                            level -= 1;
                            self.pos += 2;
                        }
                        _ => {
                            if self.pos >= self.bytes.len() {
                                self.error(SyntaxErrorKind::UnterminatedComment, start, self.pos);
                                break;
                            }
                            // Skip to the next `/` or `*` (never inside a multi-byte
                            // character), or one byte if it stands here.
                            let rest = &self.bytes[self.pos + 1..];
                            self.pos += 1 + rest
                                .iter()
                                .position(|&b| b == b'/' || b == b'*')
                                .unwrap_or(rest.len());
                        }
                    }
                }
                self.push(TokenKind::BlockComment, start);
                true
            }
            _ => false,
        }
    }

    fn punct(&mut self, c: char, start: usize) -> bool {
        let kind = match c {
            '(' => TokenKind::LParen,
            ')' => TokenKind::RParen,
            '[' => TokenKind::LBracket,
            ']' => TokenKind::RBracket,
            '{' => TokenKind::LBrace,
            '}' => TokenKind::RBrace,
            ',' => TokenKind::Comma,
            ':' => TokenKind::Colon,
            _ => return false,
        };
        self.pos += 1;
        self.push(kind, start);
        true
    }

    /// The rest of a RON number token; `=` joins it right after `..` (ranges `1..=3`,
    /// which ron reads in untyped positions).
    fn number_rest(&mut self) {
        loop {
            self.eat_while(is_number_continue);
            if self.bytes.get(self.pos) == Some(&b'=')
                && self.pos >= 2
                && self.bytes.get(self.pos - 2..self.pos) == Some(b"..")
            {
                self.pos += 1;
                continue;
            }
            break;
        }
    }

    fn ron_token(&mut self) {
        let start = self.pos;
        let Some(&b) = self.bytes.get(self.pos) else {
            return;
        };
        // The common ASCII tokens first, by byte.
        match b {
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0B' | b'\x0C' => {
                self.pos += 1;
                self.skip_spaces();
                self.eat_while(is_ron_whitespace);
                self.push(TokenKind::Whitespace, start);
                return;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' if !matches!(b, b'r' | b'b') => {
                self.pos += 1;
                self.eat_while(is_ident_continue);
                self.push(TokenKind::Ident, start);
                return;
            }
            b'0'..=b'9' => {
                self.number_rest();
                self.push(TokenKind::Number, start);
                return;
            }
            _ => {}
        }
        let Some(c) = self.peek() else { return };
        if is_ron_whitespace(c) {
            self.eat_while(is_ron_whitespace);
            self.push(TokenKind::Whitespace, start);
            return;
        }
        if self.punct(c, start) {
            return;
        }
        match c {
            '/' if self.comment(start) => {}
            '"' => self.quoted(TokenKind::String, start, false),
            '\'' => self.char_literal(TokenKind::Char, start),
            'r' if matches!(self.peek_at(1), Some('"'))
                || (self.peek_at(1) == Some('#')
                    && matches!(self.peek_at(2), Some('"') | Some('#'))) =>
            {
                self.pos += 1;
                self.raw_string(TokenKind::RawString, start);
            }
            'r' if self.peek_at(1) == Some('#')
                && self.peek_at(2).is_some_and(is_ident_raw_char) =>
            {
                self.pos += 2;
                self.eat_while(is_ident_raw_char);
                self.push(TokenKind::Ident, start);
            }
            'b' if self.peek_at(1) == Some('"') => {
                self.pos += 1;
                self.quoted(TokenKind::ByteString, start, false);
            }
            'b' if self.peek_at(1) == Some('\'') => {
                self.pos += 1;
                self.char_literal(TokenKind::ByteChar, start);
            }
            'b' if self.peek_at(1) == Some('r') && matches!(self.peek_at(2), Some('"' | '#')) => {
                self.pos += 2;
                self.raw_string(TokenKind::ByteString, start);
            }
            '0'..='9' => {
                self.number_rest();
                self.push(TokenKind::Number, start);
            }
            '+' | '-' if self.peek_at(1).is_some_and(is_number_continue) => {
                self.pos += 1;
                self.number_rest();
                self.push(TokenKind::Number, start);
            }
            '.' if self
                .peek_at(1)
                .is_some_and(|c| c.is_ascii_digit() || c == '.') =>
            {
                self.number_rest();
                self.push(TokenKind::Number, start);
            }
            c if is_ident_start(c) => {
                self.pos += c.len_utf8();
                self.eat_while(is_ident_continue);
                self.push(TokenKind::Ident, start);
            }
            _ => {
                self.bump();
                self.push(TokenKind::Unknown, start);
            }
        }
    }

    fn json_token(&mut self) {
        let start = self.pos;
        let Some(c) = self.peek() else { return };
        if is_json_whitespace(c) {
            self.pos += 1;
            self.skip_spaces();
            self.eat_while(is_json_whitespace);
            self.push(TokenKind::Whitespace, start);
            return;
        }
        if self.punct(c, start) {
            return;
        }
        match c {
            '"' => self.quoted(TokenKind::String, start, true),
            '-' | '0'..='9' => {
                self.pos += 1;
                self.eat_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '_'));
                self.push(TokenKind::Number, start);
            }
            c if c.is_ascii_alphabetic() => {
                self.eat_while(|c| c.is_ascii_alphanumeric() || c == '_');
                self.push(TokenKind::Ident, start);
            }
            _ => {
                self.bump();
                self.push(TokenKind::Unknown, start);
            }
        }
    }
}

/// Tokens for the whole input (their texts concatenate to `src`) and lexical errors.
pub(crate) fn lex(src: &str, dialect: Dialect) -> Lexed {
    let mut lexer = Lexer {
        src,
        bytes: src.as_bytes(),
        pos: 0,
        tokens: Vec::with_capacity(src.len() / 3 + 4),
        errors: Vec::new(),
        words: Vec::new(),
        comments: Vec::new(),
    };
    if src.starts_with('\u{FEFF}') {
        lexer.pos = '\u{FEFF}'.len_utf8();
        lexer.push(TokenKind::Bom, 0);
    }
    while lexer.pos < src.len() {
        let before = lexer.pos;
        match dialect {
            Dialect::Ron => lexer.ron_token(),
            Dialect::Json => lexer.json_token(),
        }
        if lexer.pos == before {
            // Cannot happen (every branch consumes), but never loop forever.
            lexer.bump();
            lexer.push(TokenKind::Unknown, before);
        }
    }
    Lexed {
        tokens: lexer.tokens,
        errors: lexer.errors,
        words: lexer.words,
        comments: lexer.comments,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plainness the lexer notes is what `string::is_plain` says of the token.
    #[test]
    fn plain_strings_are_noted_as_is_plain_says() {
        let samples = [
            r#"("a", "b\"c", "", "é漢", "tab	in", "ctl\u{1}x", "back\\", "\\n")"#,
            "{\"k\": \"v\", \"e\": \"\\u00e9\", \"nl\": \"a\nb\", \"open",
            "b\"bytes\" r#\"raw\"# \"unterminated \\",
            "\"ends with backslash-quote\\\"",
        ];
        for text in samples {
            for (dialect, json) in [(Dialect::Ron, false), (Dialect::Json, true)] {
                let lexed = lex(text, dialect);
                for t in &lexed.tokens {
                    let token = &text[t.start as usize..t.end as usize];
                    let expected =
                        t.kind == TokenKind::String && crate::string::is_plain(token, json);
                    assert_eq!(t.plain, expected, "{dialect:?}: {token:?} in {text:?}");
                }
            }
        }
    }
}
