//! `/events`: the server-sent event stream that tells a live page about each new round.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::Published;

/// How often an idle event stream sends a comment, so that proxies and the browser
/// keep it open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// How often an event stream looks whether its page went away (and whether the watch
/// loop stopped).
const POLL: Duration = Duration::from_millis(250);

/// A server-sent event stream: `update` with the generation whenever a round is
/// published after `since`, a comment after [`KEEP_ALIVE`] without one. Every [`POLL`]
/// it looks whether the page closed its end; it ends then, when a write fails, or when
/// the watch loop stops.
pub(super) fn events(published: &Published, socket: &mut TcpStream, since: Option<u64>) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\nretry: 1000\n\n";
    if socket
        .write_all(head.as_bytes())
        .and_then(|()| socket.flush())
        .is_err()
    {
        return;
    }
    let mut last = since.unwrap_or_else(|| published.lock().generation);
    let mut quiet_since = Instant::now();
    loop {
        let guard = published.lock();
        let (guard, _) = published
            .changed
            .wait_timeout_while(guard, POLL, |s| s.generation == last && !s.stopped)
            .unwrap_or_else(|p| p.into_inner());
        if guard.stopped {
            return;
        }
        let generation = guard.generation;
        drop(guard);
        let message = if generation != last {
            last = generation;
            Some(format!(
                "id: {generation}\nevent: update\ndata: {generation}\n\n"
            ))
        } else if quiet_since.elapsed() >= KEEP_ALIVE {
            Some(": keep-alive\n\n".to_string())
        } else {
            None
        };
        if let Some(message) = message {
            quiet_since = Instant::now();
            if socket
                .write_all(message.as_bytes())
                .and_then(|()| socket.flush())
                .is_err()
            {
                return;
            }
        }
        if hung_up(socket) {
            return;
        }
    }
}

/// Whether the client closed its end (what it sends on an event stream is dropped).
fn hung_up(socket: &mut TcpStream) -> bool {
    if socket.set_nonblocking(true).is_err() {
        return true;
    }
    let mut sink = [0; 512];
    let read = socket.read(&mut sink);
    if socket.set_nonblocking(false).is_err() {
        return true;
    }
    match read {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => !matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted),
    }
}
