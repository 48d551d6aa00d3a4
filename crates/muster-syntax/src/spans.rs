//! [`SpanIndex`]: where every value of a typed result came from, recorded by the
//! Deserializer itself while it reads, keyed by the serde layout of the value.

use std::borrow::Cow;

use crate::tree::{Node, NodeId, Tree};

/// One step from a value to one of its parts, in serde's data model: a struct field,
/// a map key or an enum variant name (`Key`), or a list/tuple position (`Index`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpanKey<'de> {
    Key(Cow<'de, str>),
    Index(u32),
}

#[derive(Debug, Clone)]
pub(crate) struct Record<'de> {
    pub parent: u32,
    pub key: SpanKey<'de>,
    pub node: NodeId,
}

/// The node of every value the Deserializer read, addressed by path.
///
/// Paths follow the serde layout of the typed value, which is exactly the layout of
/// `serde_json::to_value` of it: `["sides", 0, "forces", "Placed", "setup", 1, "at"]`,
/// where enum variants are keys (externally tagged), `Option` adds no step and
/// `Spanned` adds no step. Because the Deserializer records the path while it reads,
/// paths cannot drift from the serde layout. [`SpanIndex::pointer`] accepts the same
/// path as a JSON pointer string.
#[derive(Debug, Clone)]
pub struct SpanIndex<'de> {
    tree: &'de Tree,
    records: Vec<Record<'de>>,
}

impl<'de> SpanIndex<'de> {
    pub(crate) fn new(tree: &'de Tree, records: Vec<Record<'de>>) -> Self {
        Self { tree, records }
    }

    /// Number of values recorded (the root value is not counted).
    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn child(&self, parent: u32, step: &SpanKey<'_>) -> Option<u32> {
        // Records are in pre-order: children of `parent` come after it.
        let from = if parent == u32::MAX {
            0
        } else {
            parent as usize + 1
        };
        let mut i = from;
        while i < self.records.len() {
            let r = &self.records[i];
            if r.parent == parent && r.key == *step {
                return Some(i as u32);
            }
            i += 1;
        }
        None
    }

    /// The node of the value at `path` (an empty path is the top-level value).
    pub fn get(&self, path: &[SpanKey<'_>]) -> Option<Node<'de>> {
        let mut cur = u32::MAX;
        for step in path {
            cur = self.child(cur, step)?;
        }
        if cur == u32::MAX {
            return self.tree.value();
        }
        self.tree.node(self.records[cur as usize].node)
    }

    /// The node at a JSON pointer (`/sides/0/forces/Placed/setup/1/at`); numeric steps
    /// match list positions first, then keys.
    pub fn pointer(&self, pointer: &str) -> Option<Node<'de>> {
        if pointer.is_empty() {
            return self.tree.value();
        }
        let mut cur = u32::MAX;
        for raw in pointer.strip_prefix('/')?.split('/') {
            let step = raw.replace("~1", "/").replace("~0", "~");
            let by_index = step
                .parse::<u32>()
                .ok()
                .and_then(|i| self.child(cur, &SpanKey::Index(i)));
            cur = match by_index {
                Some(i) => i,
                None => self.child(cur, &SpanKey::Key(Cow::Owned(step)))?,
            };
        }
        self.tree.node(self.records[cur as usize].node)
    }

    /// Every recorded path as a JSON pointer with its node, in reading order.
    pub fn iter(&self) -> impl Iterator<Item = (String, Node<'de>)> + '_ {
        (0..self.records.len()).filter_map(move |i| {
            let node = self.tree.node(self.records[i].node)?;
            Some((self.pointer_of(i as u32), node))
        })
    }

    fn pointer_of(&self, mut i: u32) -> String {
        let mut steps = Vec::new();
        while i != u32::MAX {
            let r = &self.records[i as usize];
            steps.push(match &r.key {
                SpanKey::Key(k) => k.replace('~', "~0").replace('/', "~1"),
                SpanKey::Index(n) => n.to_string(),
            });
            i = r.parent;
        }
        steps.reverse();
        let mut out = String::new();
        for s in steps {
            out.push('/');
            out.push_str(&s);
        }
        out
    }
}

/// A step of a [`Spans`] record: a key kept as a range of the tree's text when it was
/// read from there (no allocation), an owned key otherwise, or a list position.
#[derive(Debug, Clone)]
enum DetachedKey {
    Text(u32, u32),
    Owned(Box<str>),
    Index(u32),
}

#[derive(Debug, Clone)]
struct DetachedRecord {
    parent: u32,
    key: DetachedKey,
    node: NodeId,
}

/// A [`SpanIndex`] detached from the borrow of its tree, so that it can be stored
/// beside the tree it indexes. Lookups take that tree again.
#[derive(Debug, Clone, Default)]
pub struct Spans {
    records: Vec<DetachedRecord>,
    /// The first record under each parent with each key, by the parent and a hash of
    /// the key: a step of a path is one lookup rather than a scan of the records that
    /// follow the parent (a file with many diagnostics would pay its size for each).
    children: foldhash::HashMap<(u32, u64), u32>,
    /// The records of list items by parent, in index order, while the indexes of a
    /// parent come in order from 0 (as a list is read); they stay out of `children`, so
    /// a list of a million items costs a vector, not a million hashed entries.
    items: foldhash::HashMap<u32, Vec<u32>>,
    /// The hash of the steps, seeded per index so that no file can choose keys that
    /// share one hash (a step whose hash is shared is looked up by a scan).
    steps: foldhash::fast::RandomState,
}

thread_local! {
    static EXAMINED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn examined(n: usize) {
    EXAMINED.with(|e| e.set(e.get().saturating_add(n as u64)));
}

/// The hash of a step, the same for a key read from the text, an owned key and a step
/// of a path asked for.
fn step_hash(steps: &foldhash::fast::RandomState, key: StepRef<'_>) -> u64 {
    use std::hash::BuildHasher;
    match key {
        StepRef::Index(i) => steps.hash_one((0u8, i)),
        StepRef::Key(k) => steps.hash_one((1u8, k)),
    }
}

#[derive(Clone, Copy)]
enum StepRef<'k> {
    Index(u32),
    Key(&'k str),
}

/// Where a path led: the node of the value, and whether every step of the path was
/// found (`exact`) or the node is the nearest enclosing value that was.
#[derive(Debug, Clone, Copy)]
pub struct Found<'t> {
    pub node: Node<'t>,
    pub exact: bool,
}

impl SpanIndex<'_> {
    /// The records without the borrow of the tree (see [`Spans`]).
    pub fn detach(self) -> Spans {
        let text = self.tree.text();
        let base = text.as_ptr() as usize;
        let records = self
            .records
            .into_iter()
            .map(|r| DetachedRecord {
                parent: r.parent,
                node: r.node,
                key: match r.key {
                    SpanKey::Index(i) => DetachedKey::Index(i),
                    SpanKey::Key(k) => {
                        let at = (k.as_ptr() as usize).wrapping_sub(base);
                        match text.get(at..at + k.len()) {
                            Some(slice) if slice.as_ptr() == k.as_ptr() => {
                                DetachedKey::Text(at as u32, k.len() as u32)
                            }
                            _ => DetachedKey::Owned(k.into()),
                        }
                    }
                },
            })
            .collect::<Vec<_>>();
        let steps = foldhash::fast::RandomState::default();
        let mut children: foldhash::HashMap<(u32, u64), u32> = foldhash::HashMap::default();
        let mut items: foldhash::HashMap<u32, Vec<u32>> = foldhash::HashMap::default();
        let mut gapped: foldhash::HashSet<u32> = foldhash::HashSet::default();
        for (i, r) in records.iter().enumerate() {
            let key = match &r.key {
                DetachedKey::Index(n) => {
                    let list = items.entry(r.parent).or_default();
                    match (*n as usize).cmp(&list.len()) {
                        // Given already: the first record keeps it.
                        std::cmp::Ordering::Less => continue,
                        std::cmp::Ordering::Equal if !gapped.contains(&r.parent) => {
                            list.push(i as u32);
                            continue;
                        }
                        // Out of order: this parent's later items are hashed.
                        _ => {
                            gapped.insert(r.parent);
                            StepRef::Index(*n)
                        }
                    }
                }
                DetachedKey::Owned(k) => StepRef::Key(k),
                DetachedKey::Text(at, len) => {
                    StepRef::Key(text.get(*at as usize..(*at + *len) as usize).unwrap_or(""))
                }
            };
            children
                .entry((r.parent, step_hash(&steps, key)))
                .or_insert(i as u32);
        }
        Spans {
            records,
            children,
            items,
            steps,
        }
    }
}

impl Spans {
    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// How many records the lookups of this thread have looked at so far (one per step
    /// of a path, unless two keys share a hash): a measure of the cost of finding spans
    /// that does not depend on the machine, for tests.
    pub fn records_examined() -> u64 {
        EXAMINED.with(std::cell::Cell::get)
    }

    fn matches(&self, tree: &Tree, record: &DetachedRecord, step: &SpanKey<'_>) -> bool {
        match (&record.key, step) {
            (DetachedKey::Index(i), SpanKey::Index(j)) => i == j,
            (DetachedKey::Owned(k), SpanKey::Key(step)) => **k == **step,
            (DetachedKey::Text(at, len), SpanKey::Key(step)) => tree
                .text()
                .get(*at as usize..(*at + *len) as usize)
                .is_some_and(|k| k == &**step),
            (DetachedKey::Index(_), SpanKey::Key(_))
            | (DetachedKey::Owned(_) | DetachedKey::Text(..), SpanKey::Index(_)) => false,
        }
    }

    fn child(&self, tree: &Tree, parent: u32, step: &SpanKey<'_>) -> Option<u32> {
        let key = match step {
            SpanKey::Index(i) => StepRef::Index(*i),
            SpanKey::Key(k) => StepRef::Key(k),
        };
        examined(1);
        if let StepRef::Index(n) = key
            && let Some(&item) = self.items.get(&parent).and_then(|l| l.get(n as usize))
        {
            return Some(item);
        }
        // No record under `parent` has a key of this hash: none has this key.
        let first = *self.children.get(&(parent, step_hash(&self.steps, key)))?;
        if self
            .records
            .get(first as usize)
            .is_some_and(|r| self.matches(tree, r, step))
        {
            return Some(first);
        }
        // Two keys with one hash: look the slow way.
        let from = if parent == u32::MAX {
            0
        } else {
            parent as usize + 1
        };
        (from..self.records.len())
            .find(|&i| {
                examined(1);
                let r = &self.records[i];
                r.parent == parent && self.matches(tree, r, step)
            })
            .map(|i| i as u32)
    }

    /// The node at `path`, in the serde layout of the value read (`["sides", 0,
    /// "forces", "Placed", "setup", 1, "at"]`: an `Index` step is a list position, a `Key`
    /// step a field, variant or map key), or the nearest enclosing value that was read,
    /// with `exact: false`. `None` only when the tree has no value at all.
    pub fn find<'t, 'k>(
        &self,
        tree: &'t Tree,
        path: impl IntoIterator<Item = SpanKey<'k>>,
    ) -> Option<Found<'t>> {
        let root = tree.value()?;
        let mut cur = u32::MAX;
        let mut exact = true;
        for step in path {
            match self.child(tree, cur, &step) {
                Some(next) => cur = next,
                None => {
                    exact = false;
                    break;
                }
            }
        }
        let node = if cur == u32::MAX {
            root
        } else {
            tree.node(self.records[cur as usize].node)?
        };
        Some(Found { node, exact })
    }
}
