//! `muster watch --serve`: a live preview in the browser. The watch loop publishes a
//! [`Snapshot`] after every round (the round's `Db` and diagnostics); the server draws
//! the page asked for from the latest snapshot, and tells open pages about each new
//! round through server-sent events, on which they fetch their content again.
//!
//! tiny_http is synchronous: one thread accepts, each request gets a thread of its own,
//! and an event stream is a raw writer on the socket that its thread keeps until the
//! browser goes away.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use muster_check::load::Document;
use muster_check::project::{Db, Resolution, normalize};
use muster_check::{Diagnostic, Severity};
use muster_model::FileKind;
use muster_render::Options;
use muster_render::svg::esc;
use tiny_http::{Header, Method, Request, Response, Server};

/// How often an idle event stream sends a comment, so that proxies and the browser
/// keep it open and a closed tab is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// How long a request made before the first round waits for it.
const FIRST_ROUND: Duration = Duration::from_secs(60);
/// Requests handled at once (event streams included); more get 503.
const MAX_REQUESTS: usize = 256;

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
    server: Arc<Server>,
    thread: Option<JoinHandle<()>>,
    /// `http://127.0.0.1:7878/`.
    pub url: String,
}

impl Preview {
    /// Binds `addr` and starts accepting requests for the project at `root`.
    pub fn start(addr: &str, root: PathBuf) -> Result<Preview, String> {
        let server =
            Server::http(addr).map_err(|e| format!("cannot serve the preview on `{addr}`: {e}"))?;
        let url = match server.server_addr().to_ip() {
            Some(ip) => format!("http://{ip}/"),
            None => format!("http://{addr}/"),
        };
        let server = Arc::new(server);
        let published = Arc::new(Published::default());
        let site = Arc::new(Site {
            root,
            published: published.clone(),
            busy: AtomicUsize::new(0),
        });
        let accept = server.clone();
        let thread = std::thread::Builder::new()
            .name("preview".to_string())
            .spawn(move || accept_loop(&accept, &site))
            .map_err(|e| format!("cannot start the preview server: {e}"))?;
        Ok(Preview {
            published,
            server,
            thread: Some(thread),
            url,
        })
    }

    /// Stops accepting and ends the event streams.
    pub fn stop(mut self) {
        self.published.stop();
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

struct Site {
    root: PathBuf,
    published: Arc<Published>,
    busy: AtomicUsize,
}

fn accept_loop(server: &Server, site: &Arc<Site>) {
    loop {
        if site.published.lock().stopped {
            return;
        }
        let request = match server.recv_timeout(Duration::from_millis(250)) {
            Ok(Some(request)) => request,
            Ok(None) => continue,
            Err(_) => return,
        };
        if site.busy.fetch_add(1, Ordering::SeqCst) >= MAX_REQUESTS {
            site.busy.fetch_sub(1, Ordering::SeqCst);
            let _ = request.respond(message(503, "<p>Too many requests at once.</p>"));
            continue;
        }
        let worker = site.clone();
        let spawned = std::thread::Builder::new()
            .name("preview request".to_string())
            .spawn(move || {
                handle(&worker, request);
                worker.busy.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            site.busy.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// One request, answered whatever happens: a panic while drawing gives a 500 page.
fn handle(site: &Site, request: Request) {
    if !matches!(request.method(), Method::Get | Method::Head) {
        let _ = request.respond(message(405, "<p>Only GET is served here.</p>"));
        return;
    }
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    if path == "/events" {
        let since = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("since="))
            .and_then(|v| v.parse().ok());
        let last_id = request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Last-Event-ID"))
            .and_then(|h| h.value.as_str().trim().parse().ok());
        events(&site.published, request, last_id.or(since));
        return;
    }
    let answer =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| respond(site, path, query)));
    let response = answer.unwrap_or_else(|_| {
        message(
            500,
            "<h1>Internal error</h1><p>muster failed while drawing this page; the terminal says why.</p>",
        )
    });
    let _ = request.respond(response);
}

fn respond(site: &Site, path: &str, query: &str) -> Response<std::io::Cursor<Vec<u8>>> {
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
/// published after `since`, a comment every [`KEEP_ALIVE`] otherwise. Ends when a write
/// fails (the browser went away) or the watch loop stops.
fn events(published: &Published, request: Request, since: Option<u64>) {
    let mut writer = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\nretry: 1000\n\n";
    if writer
        .write_all(head.as_bytes())
        .and_then(|()| writer.flush())
        .is_err()
    {
        return;
    }
    let mut last = since.unwrap_or_else(|| published.lock().generation);
    loop {
        let guard = published.lock();
        let (guard, _) = published
            .changed
            .wait_timeout_while(guard, KEEP_ALIVE, |s| s.generation == last && !s.stopped)
            .unwrap_or_else(|p| p.into_inner());
        if guard.stopped {
            return;
        }
        let generation = guard.generation;
        drop(guard);
        let message = if generation == last {
            ": keep-alive\n\n".to_string()
        } else {
            last = generation;
            format!("id: {generation}\nevent: update\ndata: {generation}\n\n")
        };
        if writer
            .write_all(message.as_bytes())
            .and_then(|()| writer.flush())
            .is_err()
        {
            return;
        }
    }
}

/// A short page around `body` (errors and the like).
fn message(status: u16, body: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    html(
        status,
        format!(
            "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>muster preview</title></head>\n<body>\n{body}\n</body>\n</html>\n"
        ),
    )
}

/// HTML as it is: a whole page or the fragment a live page swaps in.
fn html(status: u16, body: String) -> Response<std::io::Cursor<Vec<u8>>> {
    let mut response = Response::from_string(body).with_status_code(status);
    for (field, value) in [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Cache-Control", "no-store"),
    ] {
        if let Ok(header) = Header::from_bytes(field, value) {
            response.add_header(header);
        }
    }
    response
}

fn not_found() -> Response<std::io::Cursor<Vec<u8>>> {
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
}
