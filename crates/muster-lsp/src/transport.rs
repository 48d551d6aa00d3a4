//! Frames on standard input: `Content-Length` headers and a JSON-RPC body. A frame
//! whose body is not a JSON-RPC message, or whose header is malformed, is answered with
//! a parse error (`-32700`, id `null`, as JSON-RPC asks) and reading goes on; a length
//! over [`MAX_FRAME`] is refused without allocating it and its body is skipped.

use std::io::{BufRead, Read, Write};

use lsp_server::Message;

/// The largest body read: far above any buffer muster checks (4 MiB by default).
pub const MAX_FRAME: usize = 64 * 1024 * 1024;

#[derive(Debug)]
pub enum FrameError {
    /// The frame could not be read as a message; reading may go on.
    Malformed(String),
    /// The input failed or ended inside a frame.
    Io,
}

/// The next message, `None` at the end of input.
pub fn read_frame(input: &mut impl BufRead) -> Result<Option<Message>, FrameError> {
    let mut length: Option<usize> = None;
    let mut bad_header = None;
    let mut saw_header = false;
    loop {
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) if !saw_header => return Ok(None),
            Ok(0) => return Err(FrameError::Io),
            Ok(_) => {}
            Err(_) => return Err(FrameError::Io),
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if saw_header {
                break;
            }
            continue;
        }
        saw_header = true;
        match line.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                match value.trim().parse::<usize>() {
                    Ok(n) => length = Some(n),
                    Err(_) => bad_header = Some(format!("`{}` is not a length", value.trim())),
                }
            }
            Some(_) => {}
            None => bad_header = Some(format!("malformed header line `{line}`")),
        }
    }
    if let Some(why) = bad_header {
        return Err(FrameError::Malformed(why));
    }
    let Some(length) = length else {
        return Err(FrameError::Malformed(
            "a frame without Content-Length".to_string(),
        ));
    };
    if length > MAX_FRAME {
        // Skip the body without holding it.
        let skipped = std::io::copy(&mut input.take(length as u64), &mut std::io::sink())
            .map_err(|_| FrameError::Io)?;
        if skipped < length as u64 {
            return Err(FrameError::Io);
        }
        return Err(FrameError::Malformed(format!(
            "a frame of {length} bytes is over the limit of {MAX_FRAME}"
        )));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body).map_err(|_| FrameError::Io)?;
    serde_json::from_slice::<Message>(&body)
        .map(Some)
        .map_err(|e| FrameError::Malformed(format!("not a JSON-RPC message: {e}")))
}

/// A parse error to the client, written whole under the lock of standard output.
pub fn write_parse_error(why: &str) {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": why},
    })
    .to_string();
    let mut out = std::io::stdout().lock();
    let _ = write!(out, "Content-Length: {}\r\n\r\n{body}", body.len());
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn frames_good_bad_and_huge() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let text = format!(
            "{}{}Content-Length: 99999999999\r\n\r\n{}",
            frame("{not json"),
            frame(good),
            "x"
        );
        let mut input = std::io::Cursor::new(text.into_bytes());
        assert!(matches!(
            read_frame(&mut input),
            Err(FrameError::Malformed(_))
        ));
        assert!(matches!(
            read_frame(&mut input),
            Ok(Some(Message::Notification(_)))
        ));
        // Over the limit: refused, and the short body ends the input.
        assert!(matches!(read_frame(&mut input), Err(FrameError::Io)));
        assert!(matches!(read_frame(&mut input), Ok(None)));
        let mut input = std::io::Cursor::new(b"Content-Length: x\r\n\r\n".to_vec());
        assert!(matches!(
            read_frame(&mut input),
            Err(FrameError::Malformed(_))
        ));
        let mut empty = std::io::Cursor::new(Vec::new());
        assert!(matches!(read_frame(&mut empty), Ok(None)));
    }
}
