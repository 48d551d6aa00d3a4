//! String and character literals: escape rules of ron 0.12 and of JSON. Errors carry a
//! reason and the byte range of the escape inside the token text.

use std::borrow::Cow;
use std::ops::Range;

pub(crate) type EscapeError = (&'static str, Range<usize>);

fn hex(c: u8) -> Option<u32> {
    (c as char).to_digit(16)
}

/// One RON escape after its backslash (`s` starts after the `\`): the decoded bytes
/// and the length consumed. `binary` is ron's byte-literal mode (`\xFF` is one byte).
fn ron_escape(s: &[u8], is_char: bool, binary: bool) -> Result<(Vec<u8>, usize), &'static str> {
    let simple = |b: u8| Ok((vec![b], 1));
    match s.first() {
        Some(b'\'') => simple(b'\''),
        Some(b'"') => simple(b'"'),
        Some(b'\\') => simple(b'\\'),
        Some(b'n') => simple(b'\n'),
        Some(b'r') => simple(b'\r'),
        Some(b't') => simple(b'\t'),
        Some(b'0') => simple(b'\0'),
        Some(b'x') => {
            let byte_at = |i: usize| -> Option<u8> {
                let h = hex(*s.get(i)?)?;
                let l = hex(*s.get(i + 1)?)?;
                Some((h * 16 + l) as u8)
            };
            let first = byte_at(1).ok_or("non-hex digit found")?;
            if binary || first < 0x80 {
                return Ok((vec![first], 3));
            }
            if is_char {
                return Err("not a valid byte-escaped Unicode character");
            }
            let mut bytes = vec![first];
            let mut pos = 3;
            for _ in 1..4 {
                if s.get(pos..pos + 2) != Some(b"\\x") {
                    return Err("not a valid byte-escaped Unicode character");
                }
                bytes.push(byte_at(pos + 2).ok_or("non-hex digit found")?);
                pos += 4;
                if let Ok(text) = std::str::from_utf8(&bytes)
                    && text.chars().next().is_some()
                {
                    return Ok((bytes, pos));
                }
            }
            Err("not a valid byte-escaped Unicode character")
        }
        Some(b'u') => {
            if s.get(1) != Some(&b'{') {
                return Err("missing { in Unicode escape");
            }
            let mut value: u32 = 0;
            let mut digits = 0;
            let mut pos = 2;
            while digits < 6 {
                match s.get(pos) {
                    None => return Err("unterminated Unicode escape"),
                    Some(b'}') => break,
                    Some(&c) => {
                        value = value * 16 + hex(c).ok_or("non-hex digit found")?;
                        digits += 1;
                        pos += 1;
                    }
                }
            }
            if digits == 0 {
                return Err("expected 1-6 digits, got 0 digits in Unicode escape");
            }
            if s.get(pos) != Some(&b'}') {
                return Err("no } at the end of Unicode escape");
            }
            let c = char::from_u32(value).ok_or("not a valid Unicode-escaped character")?;
            if binary {
                return Err("unexpected Unicode escape in byte literal");
            }
            let mut buf = [0u8; 4];
            Ok((c.encode_utf8(&mut buf).as_bytes().to_vec(), pos + 1))
        }
        _ => Err("unknown escape character"),
    }
}

/// Decodes the content of a RON `"..."` string (between the quotes).
fn decode_ron_content(content: &str) -> Result<Cow<'_, str>, EscapeError> {
    if !content.contains('\\') {
        return Ok(Cow::Borrowed(content));
    }
    let b = content.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let Some(rel) = b[i..].iter().position(|&c| c == b'\\') else {
            out.extend_from_slice(&b[i..]);
            break;
        };
        out.extend_from_slice(&b[i..i + rel]);
        let esc = i + rel;
        let after = &b[esc + 1..];
        let newline = if after.starts_with(b"\r\n") {
            2
        } else if after.starts_with(b"\n") {
            1
        } else {
            0
        };
        if newline > 0 {
            let mut j = esc + 1 + newline;
            while b
                .get(j)
                .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
            {
                j += 1;
            }
            i = j;
            continue;
        }
        match ron_escape(after, false, false) {
            Ok((bytes, len)) => {
                out.extend_from_slice(&bytes);
                i = esc + 1 + len;
            }
            Err(reason) => {
                let end = (esc + 2).min(b.len());
                let end = (end..=b.len())
                    .find(|e| content.is_char_boundary(*e))
                    .unwrap_or(b.len());
                return Err((reason, esc..end));
            }
        }
    }
    String::from_utf8(out)
        .map(Cow::Owned)
        .map_err(|_| ("invalid UTF-8 in escapes", 0..content.len()))
}

/// The text between the quotes of a `"..."` token (the closing one may be missing).
#[inline]
pub(crate) fn quoted_content(token: &str) -> &str {
    let content = token.strip_prefix('"').unwrap_or(token);
    content.strip_suffix('"').unwrap_or(content)
}

/// Whether a `"..."` token reads as its [`quoted_content`] unchanged: no escapes, and
/// for JSON no control characters (which are errors). [`decode_ron`] and
/// [`decode_json`] return that content, borrowed, for such a token. The lexer notes this
/// while it scans a string; this is the reference its test holds it to.
#[cfg(test)]
pub(crate) fn is_plain(token: &str, json: bool) -> bool {
    let content = quoted_content(token).as_bytes();
    if json {
        content.iter().all(|&c| c >= 0x20 && c != b'\\')
    } else {
        !content.contains(&b'\\')
    }
}

/// Decodes a RON string token (`"..."` or `r#"..."#`); ranges are within the token.
pub(crate) fn decode_ron(token: &str) -> Result<Cow<'_, str>, EscapeError> {
    if let Some(rest) = token.strip_prefix('r') {
        let hashes = rest.bytes().take_while(|&c| c == b'#').count();
        let inner = &rest[hashes..];
        let inner = inner.strip_prefix('"').unwrap_or(inner);
        let end = inner.len().saturating_sub(hashes + 1);
        return Ok(Cow::Borrowed(inner.get(..end).unwrap_or("")));
    }
    let content = token.strip_prefix('"').unwrap_or(token);
    let content = content.strip_suffix('"').unwrap_or(content);
    decode_ron_content(content).map_err(|(r, range)| (r, range.start + 1..range.end + 1))
}

pub(crate) fn check_ron(token: &str) -> Result<(), EscapeError> {
    if !token.contains('\\') {
        return Ok(());
    }
    decode_ron(token).map(|_| ())
}

/// One character or escape at the start of `s` (the inside of a char literal).
pub(crate) fn ron_escape_or_char(
    s: &str,
    is_char: bool,
    binary: bool,
) -> Result<(char, usize), &'static str> {
    let mut chars = s.chars();
    match chars.next() {
        None => Err("empty character literal"),
        Some('\\') => {
            let (bytes, len) = ron_escape(&s.as_bytes()[1..], is_char, binary)?;
            if binary {
                let b = bytes.first().copied().ok_or("empty escape")?;
                return Ok((char::from(b), len + 1));
            }
            let text = std::str::from_utf8(&bytes).map_err(|_| "invalid escape")?;
            let c = text.chars().next().ok_or("empty escape")?;
            Ok((c, len + 1))
        }
        Some(c) => Ok((c, c.len_utf8())),
    }
}

/// A RON `'c'` literal.
pub(crate) fn ron_char(token: &str) -> Result<char, EscapeError> {
    let full = 0..token.len();
    let inner = token
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .ok_or(("unterminated character literal", full.clone()))?;
    let (c, len) = ron_escape_or_char(inner, true, false).map_err(|r| (r, full.clone()))?;
    if len != inner.len() {
        return Err(("more than one character in a character literal", full));
    }
    Ok(c)
}

/// A RON `b'x'` literal as ron's integer reader sees it.
pub(crate) fn ron_byte(token: &str) -> Option<u8> {
    let inner = token.strip_prefix("b'")?.strip_suffix('\'')?;
    let (c, len) = ron_escape_or_char(inner, true, true).ok()?;
    if len != inner.len() {
        return None;
    }
    let escaped = inner.starts_with('\\');
    let code = u32::from(c);
    if !escaped && !c.is_ascii() {
        return None;
    }
    u8::try_from(code).ok()
}

/// Decodes a JSON string token (quotes included) as serde_json does.
pub(crate) fn decode_json(token: &str) -> Result<Cow<'_, str>, EscapeError> {
    let content = token.strip_prefix('"').unwrap_or(token);
    let content = content.strip_suffix('"').unwrap_or(content);
    let b = content.as_bytes();
    if let Some(i) = b.iter().position(|&c| c < 0x20) {
        return Err(("control character in string", i + 1..i + 2));
    }
    if !content.contains('\\') {
        return Ok(Cow::Borrowed(content));
    }
    let mut out = String::with_capacity(content.len());
    let mut i = 0;
    let read_hex4 = |at: usize| -> Option<u32> {
        let mut v = 0;
        for k in 0..4 {
            v = v * 16 + hex(*b.get(at + k)?)?;
        }
        Some(v)
    };
    while i < b.len() {
        let Some(rel) = b[i..].iter().position(|&c| c == b'\\') else {
            out.push_str(&content[i..]);
            break;
        };
        out.push_str(&content[i..i + rel]);
        let esc = i + rel;
        let bad = |reason| Err((reason, esc + 1..(esc + 3).min(b.len() + 1)));
        match b.get(esc + 1) {
            Some(b'"') => out.push('"'),
            Some(b'\\') => out.push('\\'),
            Some(b'/') => out.push('/'),
            Some(b'b') => out.push('\u{8}'),
            Some(b'f') => out.push('\u{c}'),
            Some(b'n') => out.push('\n'),
            Some(b'r') => out.push('\r'),
            Some(b't') => out.push('\t'),
            Some(b'u') => {
                let Some(first) = read_hex4(esc + 2) else {
                    return bad("invalid \\u escape");
                };
                let mut len = 6;
                let c = match first {
                    0xD800..=0xDBFF => {
                        if b.get(esc + 6..esc + 8) != Some(b"\\u") {
                            return bad("lone leading surrogate in hex escape");
                        }
                        let Some(second) = read_hex4(esc + 8) else {
                            return bad("invalid \\u escape");
                        };
                        if !(0xDC00..=0xDFFF).contains(&second) {
                            return bad("lone leading surrogate in hex escape");
                        }
                        len = 12;
                        char::from_u32(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                    }
                    0xDC00..=0xDFFF => return bad("unexpected end of hex escape"),
                    v => char::from_u32(v),
                };
                match c {
                    Some(c) => out.push(c),
                    None => return bad("invalid \\u escape"),
                }
                i = esc + len;
                continue;
            }
            _ => return bad("invalid escape"),
        }
        i = esc + 2;
    }
    Ok(Cow::Owned(out))
}

pub(crate) fn check_json(token: &str) -> Result<(), EscapeError> {
    decode_json(token).map(|_| ())
}
