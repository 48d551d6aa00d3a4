//! One thread accepts; each connection gets a thread of its own that reads one request
//! head, refuses it or routes it (a page, drawn on a scoped thread, or an event stream),
//! answers and ends.

use std::net::{IpAddr, Ipv4Addr, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use muster_render::svg::esc;

use super::answer::{answer, linger, message, refuse};
use super::events::events;
use super::head::{Received, host_allowed, read_socket_head};
use super::pages::respond;
use super::{Site, reachable};

/// How long an answer may take to be taken by its client.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// The stack of a connection's thread: reading a head and writing an answer. Pages are
/// drawn on a thread of their own with the default stack.
const CONNECTION_STACK: usize = 256 * 1024;

pub(super) fn accept_loop(listener: &TcpListener, site: &Arc<Site>) {
    for socket in listener.incoming() {
        if site.published.stopped() {
            return;
        }
        let Ok(socket) = socket else {
            // Out of file descriptors or the like: let some connections end.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let Some(id) = site.admit(&socket) else {
            // Every place is drawing or streaming: a short answer, without a thread.
            let _ = socket.set_nonblocking(true);
            let _ = answer(
                &socket,
                &message(503, "<p>Too many requests at once.</p>"),
                false,
            );
            continue;
        };
        let worker = site.clone();
        let spawned = std::thread::Builder::new()
            .name("preview connection".to_string())
            .stack_size(CONNECTION_STACK)
            .spawn(move || {
                connection(&worker, socket, id);
                worker.closed(id);
            });
        if spawned.is_err() {
            site.closed(id);
        }
    }
}

/// One connection: one request head read and answered, whatever happens (a panic while
/// drawing gives a 500 page), then the end.
fn connection(site: &Site, mut socket: TcpStream, id: u64) {
    let _ = socket.set_write_timeout(Some(WRITE_TIMEOUT));
    let head = match read_socket_head(&mut socket, &site.limits) {
        Received::Head(head) => head,
        Received::Gone | Received::Late(false) => return,
        refused => {
            let (status, body) = match refused {
                Received::LineTooLong => (414, "<p>This address is too long.</p>"),
                Received::HeadTooLarge => (431, "<p>The request's header is too large.</p>"),
                Received::Late(_) => (408, "<p>The request came too slowly.</p>"),
                _ => (400, "<p>This is not an HTTP request muster can read.</p>"),
            };
            refuse(&mut socket, &message(status, body));
            return;
        }
    };
    let head_only = head.method == "HEAD";
    if !head
        .host
        .as_deref()
        .is_some_and(|host| host_allowed(host, site.bound))
    {
        let body = format!(
            "<p>This preview answers only at its own address, such as <a href=\"{url}\">{url}</a>.</p>",
            url = esc(&format!("http://{}/", reachable(site.bound)))
        );
        refuse(&mut socket, &message(421, &body));
        return;
    }
    if !matches!(head.method.as_str(), "GET" | "HEAD") {
        refuse(
            &mut socket,
            &message(405, "<p>Only GET is served here.</p>"),
        );
        return;
    }
    let (path, query) = head.target.split_once('?').unwrap_or((&head.target, ""));
    if path == "/events" {
        let since = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("since="))
            .and_then(|v| v.parse().ok());
        let last_id = head.last_event_id.as_deref().and_then(|v| v.parse().ok());
        let client = socket
            .peer_addr()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip());
        match site.streams.open(client, &site.limits) {
            Some(_place) => {
                site.busy(id, true);
                events(&site.published, &mut socket, last_id.or(since));
            }
            None => refuse(
                &mut socket,
                &message(503, "<p>Too many live pages are open at once.</p>"),
            ),
        }
        return;
    }
    // Drawn on a thread with the default stack; a panic there is a 500 page.
    site.busy(id, true);
    let drawn = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("preview page".to_string())
            .spawn_scoped(scope, || respond(site, path, query))
            .map(|drawing| drawing.join())
    });
    let page = match drawn {
        Ok(Ok(page)) => page,
        Ok(Err(_)) => message(
            500,
            "<h1>Internal error</h1><p>muster failed while drawing this page; the terminal says why.</p>",
        ),
        Err(_) => message(503, "<p>Too many requests at once.</p>"),
    };
    site.busy(id, false);
    if answer(&socket, &page, head_only).is_ok() {
        linger(&mut socket);
    }
}

#[cfg(test)]
mod tests {
    use std::io::{ErrorKind, Read, Write};
    use std::path::PathBuf;
    use std::time::Instant;

    use super::super::{Limits, Preview};
    use super::*;

    /// Long enough for a slow machine: a server that does not answer fails the test
    /// instead of hanging it.
    const PATIENCE: Duration = Duration::from_secs(30);

    fn server(limits: Limits) -> (Preview, u16) {
        let preview =
            Preview::start_with("127.0.0.1:0", PathBuf::from("/nowhere"), limits).unwrap();
        let port = preview.addr.port();
        (preview, port)
    }

    fn connect(port: u16) -> TcpStream {
        let socket = TcpStream::connect(("127.0.0.1", port)).unwrap();
        socket.set_read_timeout(Some(PATIENCE)).unwrap();
        socket
    }

    /// The status and the whole answer (the server closes after each).
    fn exchange(port: u16, request: &str) -> (u16, String) {
        let mut socket = connect(port);
        socket.write_all(request.as_bytes()).unwrap();
        read_answer(&mut socket)
    }

    fn read_answer(socket: &mut TcpStream) -> (u16, String) {
        let mut answer = Vec::new();
        socket.read_to_end(&mut answer).unwrap();
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let status = answer
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {answer:?}"));
        (status, answer)
    }

    fn get(port: u16, target: &str) -> (u16, String) {
        exchange(
            port,
            &format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"),
        )
    }

    #[test]
    fn a_header_flood_is_refused_and_cut_off() {
        let (preview, port) = server(Limits::default());
        let mut socket = connect(port);
        let mut flood = socket.try_clone().unwrap();
        let sender = std::thread::spawn(move || {
            let line = b"X-Flood: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";
            let mut sent = flood.write_all(b"GET / HTTP/1.1\r\n").map(|()| 0);
            while let Ok(n) = sent
                && n < 64 << 20
            {
                sent = flood.write_all(line).map(|()| n + line.len());
            }
            sent
        });
        let (status, answer) = read_answer(&mut socket);
        assert_eq!(status, 431, "{answer}");
        assert!(answer.contains("too large"), "{answer}");
        // The server stopped taking the flood: the sender's writes fail long before
        // its 64 MB are out.
        assert!(
            sender.join().unwrap().is_err(),
            "the server took the whole flood"
        );
        assert_eq!(get(port, "/nothing").0, 404);
        preview.stop();
    }

    #[test]
    fn long_addresses_and_slow_or_foreign_requests_are_refused() {
        let limits = Limits {
            head_deadline: Duration::from_millis(300),
            ..Limits::default()
        };
        let (preview, port) = server(limits);
        let (status, answer) = get(port, &format!("/view/{}", "a".repeat(100_000)));
        assert_eq!(status, 414, "{answer}");
        // Slowloris: a head that never ends gets 408; a silent connection is closed.
        let mut slow = connect(port);
        slow.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            .unwrap();
        assert_eq!(read_answer(&mut slow).0, 408);
        let mut silent = connect(port);
        let mut rest = Vec::new();
        assert_eq!(silent.read_to_end(&mut rest).unwrap(), 0);
        // DNS rebinding: another name, or none.
        for host in [
            "Host: evil.example\r\n".to_string(),
            format!("Host: evil.example:{port}\r\n"),
            String::new(),
        ] {
            let (status, answer) = exchange(port, &format!("GET /nothing HTTP/1.1\r\n{host}\r\n"));
            assert_eq!(status, 421, "{host}: {answer}");
            assert!(
                answer.contains(&format!("http://127.0.0.1:{port}/")),
                "{answer}"
            );
        }
        let localhost = format!("GET /nothing HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n");
        assert_eq!(exchange(port, &localhost).0, 404);
        let post =
            format!("POST / HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Length: 0\r\n\r\n");
        let (status, answer) = exchange(port, &post);
        assert_eq!(status, 405);
        assert!(answer.contains("Allow: GET, HEAD"), "{answer}");
        let head = format!("HEAD /nothing HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n");
        let (status, answer) = exchange(port, &head);
        assert_eq!(status, 404);
        assert!(answer.ends_with("\r\n\r\n"), "a body after HEAD: {answer}");
        preview.stop();
    }

    #[test]
    fn idle_connections_give_way_to_new_ones() {
        let limits = Limits {
            connections: 4,
            head_deadline: PATIENCE * 4,
            ..Limits::default()
        };
        let (preview, port) = server(limits);
        let mut idle: Vec<TcpStream> = (0..8).map(|_| connect(port)).collect();
        for socket in &mut idle {
            socket.write_all(b"GET / HT").unwrap();
        }
        // Refused requests whose clients do not close give way too.
        let foreign: Vec<TcpStream> = (0..8)
            .map(|_| {
                let mut socket = connect(port);
                socket
                    .write_all(b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n")
                    .unwrap();
                socket
            })
            .collect();
        assert_eq!(get(port, "/nothing").0, 404);
        drop(foreign);
        // The oldest were shut down for the newer ones.
        let mut first = Vec::new();
        let ended = idle[0].read_to_end(&mut first);
        assert!(
            matches!(&ended, Ok(0))
                || matches!(&ended, Err(e) if e.kind() == ErrorKind::ConnectionReset),
            "{ended:?}"
        );
        preview.stop();
    }

    #[test]
    fn event_streams_beyond_the_cap_are_refused_and_closed_ones_give_way() {
        let limits = Limits {
            events: 2,
            ..Limits::default()
        };
        let (preview, port) = server(limits);
        let open = |since: &str| {
            let mut socket = connect(port);
            write!(
                socket,
                "GET /events{since} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
            )
            .unwrap();
            let mut head = [0; 12];
            socket.read_exact(&mut head).unwrap();
            (String::from_utf8_lossy(&head).into_owned(), socket)
        };
        let (first, stream) = open("");
        let (second, mut kept) = open("?since=0");
        assert_eq!(
            (first.as_str(), second.as_str()),
            ("HTTP/1.1 200", "HTTP/1.1 200")
        );
        let (third, _) = open("");
        assert_eq!(third, "HTTP/1.1 503");
        assert_eq!(
            get(port, "/nothing").0,
            404,
            "plain requests are still served"
        );
        drop(stream);
        let deadline = Instant::now() + PATIENCE;
        loop {
            let (status, _again) = open("");
            if status == "HTTP/1.1 200" {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the closed stream never gave its place back"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // Stopping ends the streams.
        preview.stop();
        let mut rest = Vec::new();
        kept.read_to_end(&mut rest).unwrap();
        assert!(String::from_utf8_lossy(&rest).contains("retry: 1000"));
    }
}
