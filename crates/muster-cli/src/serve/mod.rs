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
//! within [`events::POLL`].
//!
//! Beside the pages, `/reach` and `/combat` give the rules engine's answers about a
//! scenario's board as JSON ([`rules`]): the live page asks them when a counter is
//! clicked.

mod answer;
mod connection;
mod events;
mod head;
mod pages;
mod places;
mod rules;

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use muster_db::Diagnostic;
use muster_db::project::Db;

pub use head::Limits;
use places::{Connections, Streams};

/// How long a request made before the first round waits for it.
const FIRST_ROUND: Duration = Duration::from_secs(60);

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
            .spawn(move || connection::accept_loop(&listener, &site))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshots_can_be_shared() {
        fn shared<T: Send + Sync>() {}
        shared::<Published>();
    }
}
