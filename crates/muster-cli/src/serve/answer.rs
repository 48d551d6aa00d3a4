//! Writing an answer: a [`Page`] with its status line and head, then closing politely.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use super::head::TimedRead;

/// After an error answer, what is still read (and dropped) before closing, so that the
/// client sees the answer instead of a reset.
const LINGER_BYTES: usize = 1 << 20;
const LINGER: Duration = Duration::from_secs(2);

/// An answer that ends the connection before its request was read to the end.
pub(super) fn refuse(socket: &mut TcpStream, page: &Page) {
    if answer(socket, page, false).is_ok() {
        linger(socket);
    }
}

/// Closes our side and reads what the client still sends (up to [`LINGER_BYTES`], for
/// at most [`LINGER`]), so that it reads the answer before the connection is reset.
pub(super) fn linger(socket: &mut TcpStream) {
    let _ = socket.shutdown(Shutdown::Write);
    let deadline = Instant::now() + LINGER;
    let mut timed = TimedRead { socket, deadline };
    let mut sink = [0; 16 * 1024];
    let mut drained = 0;
    while drained < LINGER_BYTES {
        match timed.read(&mut sink) {
            Ok(0) => return,
            Ok(n) => drained += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// A whole answer: status, head and body (not for `HEAD`).
pub(super) struct Page {
    status: u16,
    content_type: &'static str,
    body: String,
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        414 => "URI Too Long",
        421 => "Misdirected Request",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

pub(super) fn answer(mut socket: &TcpStream, page: &Page, head_only: bool) -> std::io::Result<()> {
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n",
        page.status,
        reason(page.status),
        page.content_type,
        page.body.len()
    );
    if page.status == 405 {
        out.push_str("Allow: GET, HEAD\r\n");
    }
    out.push_str("\r\n");
    if !head_only {
        out.push_str(&page.body);
    }
    socket.write_all(out.as_bytes())?;
    socket.flush()
}

/// A short page around `body` (errors and the like).
pub(super) fn message(status: u16, body: &str) -> Page {
    html(
        status,
        format!(
            "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>muster preview</title></head>\n<body>\n{body}\n</body>\n</html>\n"
        ),
    )
}

/// HTML as it is: a whole page or the fragment a live page swaps in.
pub(super) fn html(status: u16, body: String) -> Page {
    Page {
        status,
        content_type: "text/html; charset=utf-8",
        body,
    }
}

/// A JSON document (the rules engine's answers).
pub(super) fn json(status: u16, body: String) -> Page {
    Page {
        status,
        content_type: "application/json",
        body,
    }
}

pub(super) fn not_found() -> Page {
    message(
        404,
        "<h1>Not found</h1><p>No map or scenario of the project is at this address. <a href=\"/\">All files</a></p>",
    )
}
