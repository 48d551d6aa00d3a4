//! `file://` URIs to and from paths (percent-encoding, as editors send them).

use std::path::{Path, PathBuf};

use lsp_types::Uri;

/// The path of a `file://` URI, percent-decoded; `None` for other schemes.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///a/b` (empty authority) or `file://localhost/a/b`.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    let path = path.split(['?', '#']).next().unwrap_or("");
    let bytes = decode(path)?;
    let text = String::from_utf8(bytes).ok()?;
    // Windows drive paths arrive as `/C:/...`.
    let text = match text.as_bytes() {
        [b'/', d, b':', ..] if d.is_ascii_alphabetic() && cfg!(windows) => text[1..].to_string(),
        _ => text,
    };
    Some(PathBuf::from(text))
}

fn decode(s: &str) -> Option<Vec<u8>> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The `file://` URI of an absolute path, percent-encoding what a URI path may not hold.
pub fn from_path(path: &Path) -> Option<Uri> {
    let text = path.to_str()?.replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~:@!$&'()*+,;=".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_with_spaces_and_accents() {
        let path = Path::new("/tmp/les rois/Brissarthe é.scenario.ron");
        let uri = from_path(path).unwrap();
        assert_eq!(
            uri.as_str(),
            "file:///tmp/les%20rois/Brissarthe%20%C3%A9.scenario.ron"
        );
        assert_eq!(to_path(&uri).unwrap(), path);
        let other: Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(to_path(&other), None);
    }
}
