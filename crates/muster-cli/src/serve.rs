//! `muster watch --serve`: a live preview in the browser. The watch loop publishes a
//! [`Snapshot`] after every round (the round's `Db` and diagnostics); the server draws
//! the page asked for from the latest snapshot, and tells open pages about each new
//! round through server-sent events, on which they fetch their content again.
//!
//! The server is ours, on std's sockets and threads, around `httparse` (hyper's parser of
//! request heads): one thread accepts, each connection gets a thread with a small stack
//! that reads one request head into a fixed buffer and answers it, then closes. Nothing a
//! local client sends can grow it: the request line is capped ([`Limits::request_line`],
//! 414), the head too ([`Limits::head`], 431), a head must arrive within
//! [`Limits::head_deadline`] (slowloris), connections are capped (the oldest one waiting
//! on its client, not drawing nor streaming, is dropped for a new one), a `Host` that is
//! not this server's gets 421 (DNS rebinding), and event streams are capped per client
//! and overall (503), each polling its socket so that a closed page frees its place
//! within [`POLL`].

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use muster_db::load::Document;
use muster_db::project::{Db, Resolution, normalize};
use muster_db::{Diagnostic, Severity};
use muster_model::FileKind;
use muster_render::Options;
use muster_render::svg::esc;

/// How often an idle event stream sends a comment, so that proxies and the browser
/// keep it open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// How often an event stream looks whether its page went away (and whether the watch
/// loop stopped).
const POLL: Duration = Duration::from_millis(250);
/// How long a request made before the first round waits for it.
const FIRST_ROUND: Duration = Duration::from_secs(60);
/// How long an answer may take to be taken by its client.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// After an error answer, what is still read (and dropped) before closing, so that the
/// client sees the answer instead of a reset.
const LINGER_BYTES: usize = 1 << 20;
const LINGER: Duration = Duration::from_secs(2);
/// The stack of a connection's thread: reading a head and writing an answer. Pages are
/// drawn on a thread of their own with the default stack.
const CONNECTION_STACK: usize = 256 * 1024;

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

/// Diagnostics per file (normalized path), as the watch loop keeps them.
pub type Report = BTreeMap<PathBuf, Vec<Diagnostic>>;

/// One published round, as a request sees it.
struct Round {
    generation: u64,
    db: Arc<Db>,
    report: Arc<Report>,
}

/// What the last round left: enough to draw any page of the project.
#[derive(Default)]
pub struct Snapshot {
    /// Rounds published so far (0: none yet).
    pub generation: u64,
    pub db: Option<Arc<Db>>,
    /// Diagnostics per file (normalized path), as the round's report.
    pub report: Arc<Report>,
    /// The watch loop has stopped: event streams end.
    pub stopped: bool,
}

/// The snapshot shared between the watch loop and the server's threads.
#[derive(Default)]
pub struct Published {
    snapshot: Mutex<Snapshot>,
    changed: Condvar,
}

impl Published {
    fn lock(&self) -> MutexGuard<'_, Snapshot> {
        self.snapshot.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Publishes a round and wakes every event stream.
    pub fn publish(&self, db: Arc<Db>, report: &Report) {
        let mut snapshot = self.lock();
        snapshot.generation += 1;
        snapshot.db = Some(db);
        snapshot.report = Arc::new(report.clone());
        drop(snapshot);
        self.changed.notify_all();
    }

    fn stop(&self) {
        self.lock().stopped = true;
        self.changed.notify_all();
    }

    fn stopped(&self) -> bool {
        self.lock().stopped
    }

    /// The latest round; waits for the first one.
    fn current(&self) -> Option<Round> {
        let guard = self.lock();
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, FIRST_ROUND, |s| s.db.is_none() && !s.stopped)
            .unwrap_or_else(|p| p.into_inner());
        Some(Round {
            generation: guard.generation,
            db: guard.db.clone()?,
            report: guard.report.clone(),
        })
    }
}

/// The running preview server.
pub struct Preview {
    pub published: Arc<Published>,
    addr: SocketAddr,
    thread: Option<JoinHandle<()>>,
    /// `http://127.0.0.1:7878/`.
    pub url: String,
}

impl Preview {
    /// Binds `addr` and starts accepting requests for the project at `root`.
    pub fn start(addr: &str, root: PathBuf) -> Result<Preview, String> {
        Preview::start_with(addr, root, Limits::default())
    }

    /// [`Preview::start`] with other limits (the tests use small ones).
    pub fn start_with(addr: &str, root: PathBuf, limits: Limits) -> Result<Preview, String> {
        let cannot = |e: std::io::Error| format!("cannot serve the preview on `{addr}`: {e}");
        let listener = TcpListener::bind(addr).map_err(cannot)?;
        let bound = listener.local_addr().map_err(cannot)?;
        let published = Arc::new(Published::default());
        let site = Arc::new(Site {
            root,
            published: published.clone(),
            bound,
            limits,
            connections: Mutex::new(Connections::default()),
            streams: Streams::default(),
        });
        let thread = std::thread::Builder::new()
            .name("preview".to_string())
            .spawn(move || accept_loop(&listener, &site))
            .map_err(|e| format!("cannot start the preview server: {e}"))?;
        Ok(Preview {
            published,
            addr: bound,
            thread: Some(thread),
            url: format!("http://{bound}/"),
        })
    }

    /// Stops accepting and ends the event streams.
    pub fn stop(mut self) {
        self.published.stop();
        // Wake the accepting thread, blocked in `accept`.
        let _ = TcpStream::connect_timeout(&reachable(self.addr), Duration::from_secs(1));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Where a client on this machine reaches a server bound to `addr` (`0.0.0.0` is not an
/// address to connect to).
fn reachable(addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => (Ipv4Addr::LOCALHOST, addr.port()).into(),
        IpAddr::V6(ip) if ip.is_unspecified() => (Ipv6Addr::LOCALHOST, addr.port()).into(),
        _ => addr,
    }
}

struct Site {
    root: PathBuf,
    published: Arc<Published>,
    bound: SocketAddr,
    limits: Limits,
    connections: Mutex<Connections>,
    streams: Streams,
}

/// The open connections, with a handle on each socket so that one waiting on its
/// client can be dropped when a new one needs its place.
#[derive(Default)]
struct Connections {
    next: u64,
    open: Vec<Open>,
}

struct Open {
    id: u64,
    opened: Instant,
    /// Waiting on its client: sending its head, taking its answer or closing (it may be
    /// dropped for a new connection). Not while its page is drawn or its event stream
    /// is open (those are capped on their own).
    waiting: bool,
    socket: TcpStream,
}

impl Site {
    fn connections(&self) -> MutexGuard<'_, Connections> {
        self.connections.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for a new connection: `None` when every place is taken by a connection
    /// drawing or streaming. Otherwise, at the cap, the oldest connection waiting on its
    /// client is shut down for it.
    fn admit(&self, socket: &TcpStream) -> Option<u64> {
        let mut connections = self.connections();
        if connections.open.len() >= self.limits.connections {
            let oldest = (connections.open.iter().enumerate())
                .filter(|(_, open)| open.waiting)
                .min_by_key(|(_, open)| open.opened)
                .map(|(i, _)| i)?;
            let dropped = connections.open.swap_remove(oldest);
            let _ = dropped.socket.shutdown(Shutdown::Both);
        }
        let socket = socket.try_clone().ok()?;
        connections.next += 1;
        let id = connections.next;
        connections.open.push(Open {
            id,
            opened: Instant::now(),
            waiting: true,
            socket,
        });
        Some(id)
    }

    /// While `busy` (drawing, streaming), the connection keeps its place.
    fn busy(&self, id: u64, busy: bool) {
        if let Some(open) = self.connections().open.iter_mut().find(|o| o.id == id) {
            open.waiting = !busy;
        }
    }

    fn closed(&self, id: u64) {
        self.connections().open.retain(|o| o.id != id);
    }
}

/// Event streams open, overall and per client address.
#[derive(Default)]
struct Streams {
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// An event stream's place, given back when dropped.
struct StreamPlace<'a> {
    streams: &'a Streams,
    client: IpAddr,
}

impl Streams {
    fn lock(&self) -> MutexGuard<'_, (usize, HashMap<IpAddr, usize>)> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn open(&self, client: IpAddr, limits: &Limits) -> Option<StreamPlace<'_>> {
        let mut open = self.lock();
        let (total, per_client) = &mut *open;
        let mine = per_client.entry(client).or_insert(0);
        if *total >= limits.events || *mine >= limits.events_per_client {
            if *mine == 0 {
                per_client.remove(&client);
            }
            return None;
        }
        *mine += 1;
        *total += 1;
        Some(StreamPlace {
            streams: self,
            client,
        })
    }
}

impl Drop for StreamPlace<'_> {
    fn drop(&mut self) {
        let mut open = self.streams.lock();
        let (total, per_client) = &mut *open;
        *total -= 1;
        if let Some(mine) = per_client.get_mut(&self.client) {
            *mine -= 1;
            if *mine == 0 {
                per_client.remove(&self.client);
            }
        }
    }
}

fn accept_loop(listener: &TcpListener, site: &Arc<Site>) {
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

/// A request head, as far as the server reads it.
#[derive(Clone, Debug, PartialEq)]
struct Head {
    method: String,
    target: String,
    host: Option<String>,
    last_event_id: Option<String>,
}

/// How reading a request head ended.
#[derive(Debug, PartialEq)]
enum Received {
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
fn read_socket_head(socket: &mut TcpStream, limits: &Limits) -> Received {
    let deadline = Instant::now() + limits.head_deadline;
    read_head(&mut TimedRead { socket, deadline }, limits)
}

/// A socket whose every read waits at most until the deadline.
struct TimedRead<'a> {
    socket: &'a mut TcpStream,
    deadline: Instant,
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
fn host_allowed(host: &str, bound: SocketAddr) -> bool {
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

/// An answer that ends the connection before its request was read to the end.
fn refuse(socket: &mut TcpStream, page: &Page) {
    if answer(socket, page, false).is_ok() {
        linger(socket);
    }
}

/// Closes our side and reads what the client still sends (up to [`LINGER_BYTES`], for
/// at most [`LINGER`]), so that it reads the answer before the connection is reset.
fn linger(socket: &mut TcpStream) {
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
struct Page {
    status: u16,
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
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

fn answer(mut socket: &TcpStream, page: &Page, head_only: bool) -> std::io::Result<()> {
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n",
        page.status,
        reason(page.status),
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

fn respond(site: &Site, path: &str, query: &str) -> Page {
    let Some(path) = percent_decode(path) else {
        return not_found();
    };
    if path == "/" || path == "/index.html" {
        let Some(round) = site.published.current() else {
            return message(503, "<p>The project has not been checked yet.</p>");
        };
        return html(200, index(&site.root, &round));
    }
    let Some(rel) = path.strip_prefix("/view/") else {
        return not_found();
    };
    let Some(file) = inside(&site.root, rel) else {
        return not_found();
    };
    let Some(round) = site.published.current() else {
        return message(503, "<p>The project has not been checked yet.</p>");
    };
    let db = &round.db;
    let Some(index) = db.index_of(&file).filter(|&i| drawable(db, &site.root, i)) else {
        return not_found();
    };
    let content = query.split('&').any(|kv| kv == "content=1");
    html(200, view(&site.root, &round, index, content))
}

/// A project file named by a relative path: no `..`, nothing absolute, inside the root.
fn inside(root: &Path, rel: &str) -> Option<PathBuf> {
    if rel.is_empty() || rel.contains('\\') || rel.contains('\0') {
        return None;
    }
    let rel = Path::new(rel);
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return None;
    }
    let file = normalize(&root.join(rel));
    file.starts_with(root).then_some(file)
}

/// Maps and scenarios inside the project are drawn.
fn drawable(db: &Db, root: &Path, index: usize) -> bool {
    let loaded = &db.files[index];
    matches!(loaded.kind, Some(FileKind::Map | FileKind::Scenario))
        && normalize(&loaded.file.path).starts_with(root)
}

fn relative(root: &Path, path: &Path) -> String {
    let path = normalize(path);
    path.strip_prefix(root)
        .unwrap_or(&path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// The page (or its content) of the map or scenario at `index`.
fn view(root: &Path, round: &Round, index: usize, content: bool) -> String {
    let (db, report) = (&*round.db, &*round.report);
    let path = normalize(&db.files[index].file.path);
    let mut diagnostics: Vec<Diagnostic> = report.get(&path).cloned().unwrap_or_default();
    // A scenario is drawn on its map: the map's problems are shown too.
    if let Some(Document::Scenario(s)) = db.doc(index)
        && let Resolution::Found(m) = db.resolve(index, &s.map, FileKind::Map)
        && m != index
        && let Some(map_diagnostics) = report.get(&normalize(&db.files[m].file.path))
    {
        diagnostics.extend(map_diagnostics.iter().cloned());
    }
    diagnostics.sort_by_key(Diagnostic::sort_key);
    let rendered = muster_render::render(db, index, &diagnostics, &Options::default());
    let name_of = |d: &Diagnostic| relative(root, &d.file.path);
    if content {
        muster_render::html::content(&rendered, &diagnostics, &name_of)
    } else {
        let live = format!("/events?since={}", round.generation);
        muster_render::html::page(&rendered, &diagnostics, &name_of, Some(&live))
    }
}

/// Every map and scenario of the project with its counts.
fn index(root: &Path, round: &Round) -> String {
    let (db, report, generation) = (&*round.db, &*round.report, round.generation);
    let mut files: Vec<(String, &'static str, Option<&Vec<Diagnostic>>)> = (0..db.files.len())
        .filter(|&i| drawable(db, root, i))
        .map(|i| {
            let path = normalize(&db.files[i].file.path);
            let what = match db.files[i].kind {
                Some(FileKind::Map) => "map",
                _ => "scenario",
            };
            (relative(root, &path), what, report.get(&path))
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files.dedup_by(|a, b| a.0 == b.0);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} - muster preview</title>\n<style>{INDEX_STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n<p>Maps and scenarios of the project, checked on every save.</p>\n<table>\n<thead><tr><th>file</th><th>kind</th><th>errors</th><th>warnings</th></tr></thead>\n<tbody>\n",
        esc(&project_name(root)),
        esc(&project_name(root)),
    );
    for (rel, what, diagnostics) in &files {
        let (errors, warnings) = diagnostics.map_or((None, None), |list| {
            let errors = list
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count();
            let warnings = list
                .iter()
                .filter(|d| d.severity == Severity::Warning)
                .count();
            (Some(errors), Some(warnings))
        });
        let count = |n: Option<usize>, class: &str| match n {
            Some(0) => "<td>0</td>".to_string(),
            Some(n) => format!("<td class=\"{class}\">{n}</td>"),
            None => "<td class=\"unchecked\">not checked</td>".to_string(),
        };
        let _ = writeln!(
            out,
            "<tr data-file=\"{}\"><td><a href=\"/view/{}\">{}</a></td><td>{what}</td>{}{}</tr>",
            esc(rel),
            esc(&percent_encode(rel)),
            esc(rel),
            count(errors, "errors"),
            count(warnings, "warnings"),
        );
    }
    if files.is_empty() {
        out.push_str("<tr><td colspan=\"4\">No maps or scenarios found.</td></tr>\n");
    }
    let _ = write!(
        out,
        "</tbody>\n</table>\n<script>\nnew EventSource('/events?since={generation}').addEventListener('update', () => location.reload());\n</script>\n</body>\n</html>\n"
    );
    out
}

fn project_name(root: &Path) -> String {
    root.file_name().map_or("muster project".to_string(), |n| {
        n.to_string_lossy().into_owned()
    })
}

/// A server-sent event stream: `update` with the generation whenever a round is
/// published after `since`, a comment after [`KEEP_ALIVE`] without one. Every [`POLL`]
/// it looks whether the page closed its end; it ends then, when a write fails, or when
/// the watch loop stops.
fn events(published: &Published, socket: &mut TcpStream, since: Option<u64>) {
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

/// A short page around `body` (errors and the like).
fn message(status: u16, body: &str) -> Page {
    html(
        status,
        format!(
            "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>muster preview</title></head>\n<body>\n{body}\n</body>\n</html>\n"
        ),
    )
}

/// HTML as it is: a whole page or the fragment a live page swaps in.
fn html(status: u16, body: String) -> Page {
    Page { status, body }
}

fn not_found() -> Page {
    message(
        404,
        "<h1>Not found</h1><p>No map or scenario of the project is at this address. <a href=\"/\">All files</a></p>",
    )
}

/// `%20` and the like; `None` when the result is not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(byte as char);
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

const INDEX_STYLE: &str = "
body{margin:0;padding:8px 16px;font-family:'DejaVu Sans',Verdana,Arial,sans-serif;background:#f6f3ea;color:#1f1f1f}
table{border-collapse:collapse;background:#fff}th,td{padding:4px 10px;border-bottom:1px solid #e2dccb;text-align:left}
td.errors{color:#d0021b;font-weight:bold}td.warnings{color:#e07b00;font-weight:bold}td.unchecked{color:#888}
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_project() {
        let root = Path::new("/p");
        assert_eq!(
            inside(root, "scenarios/a.scenario.ron"),
            Some(PathBuf::from("/p/scenarios/a.scenario.ron"))
        );
        for bad in ["", "../x", "a/../../x", "/etc/passwd", "./a", "a\\..\\b"] {
            assert_eq!(inside(root, bad), None, "{bad}");
        }
    }

    #[test]
    fn percent_round_trip() {
        let name = "scenarios/a b%c.scenario.ron";
        assert_eq!(percent_decode(&percent_encode(name)).as_deref(), Some(name));
        assert_eq!(percent_decode("%2e%2e/x").as_deref(), Some("../x"));
        assert_eq!(percent_decode("%zz").as_deref(), Some("%zz"));
    }

    #[test]
    fn snapshots_can_be_shared() {
        fn shared<T: Send + Sync>() {}
        shared::<Published>();
    }

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

    #[test]
    fn event_streams_are_capped_per_client_and_overall() {
        let limits = Limits {
            events: 3,
            events_per_client: 2,
            ..Limits::default()
        };
        let streams = Streams::default();
        let [a, b, c]: [IpAddr; 3] =
            ["127.0.0.1", "127.0.0.2", "::1"].map(|ip| ip.parse().unwrap());
        let first = streams.open(a, &limits).unwrap();
        let second = streams.open(a, &limits).unwrap();
        assert!(
            streams.open(a, &limits).is_none(),
            "a third stream for one client"
        );
        let other = streams.open(b, &limits).unwrap();
        assert!(
            streams.open(c, &limits).is_none(),
            "a fourth stream overall"
        );
        drop(first);
        let again_a = streams.open(a, &limits).unwrap();
        assert!(streams.open(c, &limits).is_none(), "overall, three again");
        drop(other);
        let again_c = streams.open(c, &limits).unwrap();
        assert!(streams.open(b, &limits).is_none());
        drop((second, again_a, again_c));
        assert_eq!(streams.lock().0, 0);
        assert!(streams.lock().1.is_empty());
    }

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
