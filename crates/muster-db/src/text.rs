//! Text from data and file names, made safe to show: the one place that decides which
//! characters are never printed as they are and how they are written instead. Every
//! text format of the CLI (human, short, github) and the pictures (SVG, HTML) go
//! through it, so a string in a scenario or a file name cannot start a line, move the
//! cursor, recolour a terminal, reorder what is shown around it or break an XML file.
//!
//! A hidden character is written as a visible escape: `\n`, `\r` and `\t` by name, any
//! other as `\u{1b}` (its code point in lowercase hex), and a byte of a file name that
//! is not UTF-8 as `\xff`, so that the name shown identifies the file on disk. The
//! backslash itself is not escaped: Windows paths read as they are, and escaping twice
//! changes nothing (a file name already in its shown form can appear inside a message
//! that is escaped again when it is printed). The cost is that text which already reads
//! `\n` looks the same as an escaped line break.

use std::borrow::Cow;
use std::fmt::Write;
use std::path::Path;

/// Whether a character is never shown as it is: control characters (C0, DEL, C1), the
/// bidirectional controls that reorder the text around them, and Unicode's
/// non-characters (which XML 1.0 also forbids in part).
pub fn is_hidden(c: char) -> bool {
    let u = c as u32;
    u < 0x20
        || (0x7f..=0x9f).contains(&u)
        || matches!(u, 0x061c | 0x200e | 0x200f | 0x202a..=0x202e | 0x2066..=0x2069)
        || (0xfdd0..=0xfdef).contains(&u)
        || u & 0xfffe == 0xfffe
}

/// Appends the visible escape of a hidden character.
pub fn push_escape(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

/// The text with every hidden character escaped (borrowed when there is none).
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_except(text, |_| false)
}

/// The text with every hidden character escaped except those `keep` accepts (a source
/// excerpt keeps its line breaks and tabs, which the renderer lays out itself).
pub fn escape_except(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    let Some(first) = text.find(|c| is_hidden(c) && !keep(c)) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if is_hidden(c) && !keep(c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// How a path is shown: escaped as [`escape`] does, each byte that is not part of valid
/// UTF-8 written `\xNN`. Nothing is lost, so the name shown is the name on disk.
pub fn path(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(&escape(chunk.valid()));
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_the_controls_bidi_marks_and_non_characters() {
        for c in [
            '\0',
            '\n',
            '\r',
            '\t',
            '\x1b',
            '\x7f',
            '\u{80}',
            '\u{9f}',
            '\u{61c}',
            '\u{200e}',
            '\u{200f}',
            '\u{202a}',
            '\u{202e}',
            '\u{2066}',
            '\u{2069}',
            '\u{fdd0}',
            '\u{fdef}',
            '\u{fffe}',
            '\u{ffff}',
            '\u{1fffe}',
            '\u{10ffff}',
        ] {
            assert!(is_hidden(c), "{:x}", c as u32);
        }
        for c in [
            ' ',
            'a',
            '\\',
            'é',
            '\u{a0}',
            '\u{200d}',
            '\u{2065}',
            '\u{fdcf}',
            '\u{fdf0}',
            '\u{fffd}',
            '\u{1fffd}',
            '…',
        ] {
            assert!(!is_hidden(c), "{:x}", c as u32);
        }
    }

    #[test]
    fn escapes_are_visible_and_escaping_twice_changes_nothing() {
        let hostile = "x\n::error file=a::b\r\x1b[31m\x1b]8;;http://x\x07\0\u{202e}\u{fffe}\t";
        let once = escape(hostile);
        assert_eq!(
            once,
            "x\\n::error file=a::b\\r\\u{1b}[31m\\u{1b}]8;;http://x\\u{7}\\u{0}\\u{202e}\\u{fffe}\\t"
        );
        assert!(!once.chars().any(is_hidden));
        assert_eq!(escape(&once), once);
        assert!(matches!(escape("plain `1704`"), Cow::Borrowed(_)));
        assert_eq!(
            escape_except("a\tb\nc\x1b", |c| c == '\n'),
            "a\\tb\nc\\u{1b}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_path_that_is_not_utf8_is_shown_byte_for_byte() {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"scenarios/\xffbad\xc3\n.scenario.ron");
        let shown = path(Path::new(name));
        assert_eq!(shown, "scenarios/\\xffbad\\xc3\\n.scenario.ron");
        assert_eq!(path(Path::new("maps/é.map.ron")), "maps/é.map.ron");
    }
}
