//! Reading a request head: into a fixed buffer, within [`Limits`], and whether its
//! `Host` names this server.

use std::io::{ErrorKind, Read};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// What one client may take of the server.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Bytes of the request line (method, target, version); longer is 414.
    pub request_line: usize,
    /// Bytes of the whole request head; longer is 431.
    pub head: usize,
    /// Header fields; more is 431.
    pub headers: usize,
    /// How long a client has to send its request head; then 408 and the end.
    pub head_deadline: Duration,
    /// Connections open at once.
    pub connections: usize,
    /// Event streams open at once.
    pub events: usize,
    /// Event streams open at once from one address.
    pub events_per_client: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            request_line: 8 * 1024,
            head: 16 * 1024,
            headers: 64,
            head_deadline: Duration::from_secs(10),
            connections: 512,
            events: 64,
            events_per_client: 32,
        }
    }
}

/// A request head, as far as the server reads it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Head {
    pub(super) method: String,
    pub(super) target: String,
    pub(super) host: Option<String>,
    pub(super) last_event_id: Option<String>,
}

/// How reading a request head ended.
#[derive(Debug, PartialEq)]
pub(super) enum Received {
    Head(Head),
    /// The client went away (or was dropped for another) before its head was in.
    Gone,
    /// [`Limits::head_deadline`] passed; `true` if some of the head had come.
    Late(bool),
    LineTooLong,
    HeadTooLarge,
    Malformed,
}

/// [`read_head`] on a socket, within [`Limits::head_deadline`].
pub(super) fn read_socket_head(socket: &mut TcpStream, limits: &Limits) -> Received {
    let deadline = Instant::now() + limits.head_deadline;
    read_head(&mut TimedRead { socket, deadline }, limits)
}

/// A socket whose every read waits at most until the deadline.
pub(super) struct TimedRead<'a> {
    pub(super) socket: &'a mut TcpStream,
    pub(super) deadline: Instant,
}

impl Read for TimedRead<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self
            .deadline
            .checked_duration_since(Instant::now())
            .filter(|left| !left.is_zero())
            .ok_or(ErrorKind::TimedOut)?;
        self.socket.set_read_timeout(Some(left))?;
        self.socket.read(buf)
    }
}

/// Reads one request head into a buffer of [`Limits::head`] bytes, never more. A read
/// that times out (see [`TimedRead`]) is [`Received::Late`].
fn read_head(socket: &mut impl Read, limits: &Limits) -> Received {
    let mut buf = vec![0; limits.head.max(limits.request_line + 2)];
    let mut len = 0;
    // How far the searches for the end of the request line and of the head have gone,
    // so that a head dripped in a byte at a time is still read in linear time.
    let (mut line_start, mut line_end) = (0, None);
    let (mut line_searched, mut head_searched) = (0, 0_usize);
    loop {
        while line_end.is_none() {
            let Some(end) = buf[line_searched..len].iter().position(|&b| b == b'\n') else {
                line_searched = len;
                break;
            };
            let end = line_searched + end;
            line_searched = end + 1;
            // Blank lines before the request line are allowed (httparse skips them).
            if buf[line_start..end].iter().all(|&b| b == b'\r') {
                line_start = end + 1;
            } else {
                line_end = Some(end);
            }
        }
        match line_end {
            Some(end) if end - line_start > limits.request_line => return Received::LineTooLong,
            None if len - line_start > limits.request_line => return Received::LineTooLong,
            _ => {}
        }
        let start = head_searched.saturating_sub(3).max(line_start);
        let complete = buf[start..len].windows(2).any(|w| w == b"\n\n")
            || buf[start..len].windows(4).any(|w| w == b"\r\n\r\n");
        head_searched = len;
        if complete && line_end.is_some() {
            return parse_head(&buf[..len], limits);
        }
        if len >= limits.head {
            return Received::HeadTooLarge;
        }
        let room = limits.head - len;
        match socket.read(&mut buf[len..len + room]) {
            Ok(0) => return Received::Gone,
            Ok(n) => len += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Received::Late(len > 0);
            }
            Err(_) => return Received::Gone,
        }
    }
}

fn parse_head(bytes: &[u8], limits: &Limits) -> Received {
    let mut fields = vec![httparse::EMPTY_HEADER; limits.headers];
    let mut request = httparse::Request::new(&mut fields);
    match request.parse(bytes) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Received::Malformed,
        Err(httparse::Error::TooManyHeaders) => return Received::HeadTooLarge,
        Err(_) => return Received::Malformed,
    }
    let field = |name: &str| {
        request
            .headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .and_then(|h| std::str::from_utf8(h.value).ok())
            .map(|v| v.trim().to_string())
    };
    Received::Head(Head {
        method: request.method.unwrap_or_default().to_string(),
        target: request.path.unwrap_or_default().to_string(),
        host: field("Host"),
        last_event_id: field("Last-Event-ID"),
    })
}

/// Whether `host` (a `Host` header) names this server: `localhost`, a loopback address
/// or the bound one (any address when bound to all of them), with the bound port. A
/// name that is not `localhost` is refused, so that a page of another site whose name
/// was made to point here (DNS rebinding) cannot read the preview.
pub(super) fn host_allowed(host: &str, bound: SocketAddr) -> bool {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let Some((name, rest)) = rest.split_once(']') else {
            return false;
        };
        let port = match rest {
            "" => None,
            _ => match rest.strip_prefix(':') {
                Some(port) => Some(port),
                None => return false,
            },
        };
        let Ok(ip) = name.parse::<Ipv6Addr>() else {
            return false;
        };
        (Some(IpAddr::V6(ip)), port)
    } else {
        let (name, port) = match host.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        };
        if name.eq_ignore_ascii_case("localhost") {
            (None, port)
        } else {
            let Ok(ip) = name.parse::<Ipv4Addr>() else {
                return false;
            };
            (Some(IpAddr::V4(ip)), port)
        }
    };
    let port_ok = match port {
        Some(port) => {
            port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u16>() == Ok(bound.port())
        }
        None => bound.port() == 80,
    };
    let name_ok = match name {
        None => true,
        Some(ip) => ip.is_loopback() || ip == bound.ip() || bound.ip().is_unspecified(),
    };
    port_ok && name_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(addr: &str) -> SocketAddr {
        addr.parse().unwrap()
    }

    #[test]
    fn only_this_servers_own_names_are_served() {
        let local = bound("127.0.0.1:7878");
        for host in [
            "127.0.0.1:7878",
            "localhost:7878",
            "LocalHost:7878",
            "[::1]:7878",
            "127.0.0.2:7878",
        ] {
            assert!(host_allowed(host, local), "{host}");
        }
        for host in [
            "",
            "127.0.0.1",
            "127.0.0.1:7879",
            "127.0.0.1:+7878",
            "127.0.0.1:07878x",
            "localhost",
            "localhost.:7878",
            "evil.example:7878",
            "localhost.evil.example:7878",
            "7878",
            "192.168.1.5:7878",
            "[::1]",
            "[::1]7878",
            "::1:7878",
            "[evil]:7878",
            "127.0.0.1:7878:7878",
        ] {
            assert!(!host_allowed(host, local), "{host}");
        }
        // Bound to one address of the network: that address too.
        let lan = bound("192.168.1.5:8000");
        assert!(host_allowed("192.168.1.5:8000", lan));
        assert!(host_allowed("localhost:8000", lan));
        assert!(!host_allowed("192.168.1.6:8000", lan));
        assert!(!host_allowed("muster.lan:8000", lan));
        // Bound to every address: any address, never a name but localhost.
        let all = bound("0.0.0.0:8000");
        assert!(host_allowed("192.168.1.6:8000", all));
        assert!(host_allowed("[fe80::1]:8000", all));
        assert!(!host_allowed("muster.lan:8000", all));
        // Port 80 is left out by browsers.
        let web = bound("127.0.0.1:80");
        assert!(host_allowed("localhost", web) && host_allowed("127.0.0.1:80", web));
        assert!(!host_allowed("localhost:8080", web));
    }

    /// A client that sends its bytes `step` at a time.
    struct Drip<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Drip<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn received(bytes: &[u8], step: usize) -> Received {
        read_head(&mut Drip { bytes, step }, &Limits::default())
    }

    #[test]
    fn request_heads_are_read_whole_however_they_come() {
        let request =
            b"\r\nGET /events?since=3 HTTP/1.1\r\nHost: localhost:1\r\nLast-Event-ID: 7\r\n\r\n";
        let head = Head {
            method: "GET".to_string(),
            target: "/events?since=3".to_string(),
            host: Some("localhost:1".to_string()),
            last_event_id: Some("7".to_string()),
        };
        for step in [1, 2, 3, 5, 1 << 20] {
            assert_eq!(received(request, step), Received::Head(head.clone()));
        }
        let bare = received(b"HEAD / HTTP/1.0\n\n", 1);
        assert!(
            matches!(bare, Received::Head(Head { ref method, host: None, .. }) if method == "HEAD"),
            "{bare:?}"
        );
        assert_eq!(received(b"GET / HTTP/1.1\r\nHost: a", 4), Received::Gone);
        assert_eq!(received(b"", 4), Received::Gone);
        assert_eq!(
            received(b"\x16\x03\x01\x02\x00\r\n\r\n", 4),
            Received::Malformed
        );
    }

    #[test]
    fn request_heads_are_capped() {
        let limits = Limits::default();
        let url = "a".repeat(limits.request_line);
        let long_line = format!("GET /{url} HTTP/1.1\r\nHost: localhost:1\r\n\r\n");
        let just_fits = format!("GET /{} HTTP/1.1\r\n\r\n", &url[..limits.request_line - 20]);
        // A request line never ended: refused once the cap is passed, not at the end.
        let endless: Vec<u8> = b"GET /"
            .iter()
            .copied()
            .chain(std::iter::repeat_n(b'a', 1 << 24))
            .collect();
        let mut header_flood = b"GET / HTTP/1.1\r\n".to_vec();
        while header_flood.len() < 1 << 24 {
            header_flood
                .extend_from_slice(b"X-Flood: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n");
        }
        let mut many = b"GET / HTTP/1.1\r\n".to_vec();
        for i in 0..=limits.headers {
            many.extend_from_slice(format!("X-{i}: 1\r\n").as_bytes());
        }
        many.extend_from_slice(b"\r\n");
        let blank_flood = vec![b'\n'; 1 << 20];
        for step in [7, 4096] {
            assert_eq!(received(long_line.as_bytes(), step), Received::LineTooLong);
            assert_eq!(received(&endless, step), Received::LineTooLong);
            assert!(matches!(
                received(just_fits.as_bytes(), step),
                Received::Head(_)
            ));
            assert_eq!(received(&header_flood, step), Received::HeadTooLarge);
            assert_eq!(received(&many, step), Received::HeadTooLarge);
            assert_eq!(received(&blank_flood, step), Received::HeadTooLarge);
        }
    }
}
