//! The places the server gives out: connections (the oldest one waiting on its client
//! gives way to a new one) and event streams (capped per client and overall).

use std::collections::HashMap;
use std::net::{IpAddr, Shutdown, TcpStream};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use super::Site;
use super::head::Limits;

/// The open connections, with a handle on each socket so that one waiting on its
/// client can be dropped when a new one needs its place.
#[derive(Default)]
pub(super) struct Connections {
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
    pub(super) fn admit(&self, socket: &TcpStream) -> Option<u64> {
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
    pub(super) fn busy(&self, id: u64, busy: bool) {
        if let Some(open) = self.connections().open.iter_mut().find(|o| o.id == id) {
            open.waiting = !busy;
        }
    }

    pub(super) fn closed(&self, id: u64) {
        self.connections().open.retain(|o| o.id != id);
    }
}

/// Event streams open, overall and per client address.
#[derive(Default)]
pub(super) struct Streams {
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// An event stream's place, given back when dropped.
pub(super) struct StreamPlace<'a> {
    streams: &'a Streams,
    client: IpAddr,
}

impl Streams {
    fn lock(&self) -> MutexGuard<'_, (usize, HashMap<IpAddr, usize>)> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(super) fn open(&self, client: IpAddr, limits: &Limits) -> Option<StreamPlace<'_>> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
