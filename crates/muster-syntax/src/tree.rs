//! The tree: flat vectors of tokens and nodes, and a borrowed [`Node`] handle to walk it.

use std::ops::Range;

use crate::error::SyntaxError;
use crate::lexer::Token;
use crate::{Dialect, TokenKind};

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// The whole file; its one child is the top-level value (none if the file is empty).
    Document,
    /// `Name(field: value, ...)` or `(field: value)`: children are `Field`s.
    Struct,
    /// `Name(value, ...)`, `(value, ...)`, `Name()` and `()`: children are values.
    Tuple,
    /// `name: value` inside a struct: one child, the value.
    Field,
    /// `[value, ...]`
    List,
    /// `{key: value, ...}` (RON maps and JSON objects): children are `Entry`s.
    Map,
    /// `key: value` inside a map: two children, key then value.
    Entry,
    /// A bare identifier: a unit variant (`North`), `None`, `inf`, ...
    Ident,
    /// `true` or `false`.
    Bool,
    /// JSON `null`.
    Null,
    /// `"..."` or `r#"..."#`.
    String,
    /// `'c'`
    Char,
    /// `b"..."` (RON only).
    ByteString,
    /// Any number literal; its reading depends on the type it is read as.
    Number,
    /// Text that could not be read as a value (its error is in [`Tree::errors`]).
    Error,
}

pub(crate) const NONE: u32 = u32::MAX;

#[derive(Clone, Copy)]
pub(crate) struct NodeData {
    pub kind: NodeKind,
    /// A `"..."` string without escapes (nor, in JSON, control characters): its text
    /// is the text between the quotes, read without decoding.
    pub plain: bool,
    pub start: u32,
    pub end: u32,
    /// Name of a struct/tuple, key of a field, the token of a literal.
    pub token: u32,
    pub open: u32,
    pub close: u32,
    pub children_start: u32,
    pub children_len: u32,
    pub parent: u32,
}

impl std::fmt::Debug for NodeData {
    // `plain` is a cache of the token's text, not part of the tree.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeData")
            .field("kind", &self.kind)
            .field("start", &self.start)
            .field("end", &self.end)
            .field("token", &self.token)
            .field("open", &self.open)
            .field("close", &self.close)
            .field("children_start", &self.children_start)
            .field("children_len", &self.children_len)
            .field("parent", &self.parent)
            .finish()
    }
}

/// A node id, valid for the tree that produced it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A lossless syntax tree for one file (see the crate documentation for the layout).
#[derive(Debug, Clone)]
pub struct Tree {
    /// The text, shared with whoever handed it over ([`crate::parse_shared`]).
    pub(crate) text: std::sync::Arc<String>,
    pub(crate) dialect: Dialect,
    pub(crate) tokens: Vec<Token>,
    /// Positions in `tokens` of the number and identifier tokens, in order.
    pub(crate) words: Vec<u32>,
    /// Positions in `tokens` of the comments, in order.
    pub(crate) comments: Vec<u32>,
    pub(crate) nodes: Vec<NodeData>,
    pub(crate) children: Vec<u32>,
    pub(crate) errors: Vec<SyntaxError>,
}

/// One token: its kind, byte range and text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenRef<'t> {
    pub kind: TokenKind,
    pub range: (usize, usize),
    pub text: &'t str,
}

impl TokenRef<'_> {
    pub fn range(&self) -> Range<usize> {
        self.range.0..self.range.1
    }
}

/// A `//` or `/* */` comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comment<'t> {
    pub range: (usize, usize),
    /// The whole comment, delimiters included.
    pub text: &'t str,
    pub block: bool,
    token: u32,
}

impl<'t> Comment<'t> {
    pub fn range(&self) -> Range<usize> {
        self.range.0..self.range.1
    }

    /// The text without `//` or `/*` `*/`, trimmed.
    pub fn body(&self) -> &'t str {
        let t = self.text;
        let inner = if self.block {
            t.strip_prefix("/*")
                .map(|s| s.strip_suffix("*/").unwrap_or(s))
                .unwrap_or(t)
        } else {
            t.strip_prefix("//").unwrap_or(t)
        };
        inner.trim()
    }
}

/// What a comment is attached to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentAnchor<'t> {
    /// The comment ends the line of this node (`turns: 5, // assumed: ...`).
    Trailing(Node<'t>),
    /// The comment stands on its own line(s) before this node.
    Leading(Node<'t>),
}

impl<'t> CommentAnchor<'t> {
    pub fn node(self) -> Node<'t> {
        match self {
            CommentAnchor::Trailing(n) | CommentAnchor::Leading(n) => n,
        }
    }
}

impl Tree {
    /// The text the tree was parsed from.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Syntax errors in source order of discovery; empty for a well-formed file.
    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    /// The `Document` node.
    pub fn root(&self) -> Node<'_> {
        Node { tree: self, id: 0 }
    }

    /// The top-level value, if there is one.
    pub fn value(&self) -> Option<Node<'_>> {
        self.root().children().next()
    }

    pub fn node(&self, id: NodeId) -> Option<Node<'_>> {
        (id.index() < self.nodes.len()).then_some(Node {
            tree: self,
            id: id.0,
        })
    }

    #[inline]
    pub(crate) fn data(&self, id: u32) -> &NodeData {
        &self.nodes[id as usize]
    }

    #[inline]
    pub(crate) fn token(&self, i: u32) -> Option<TokenRef<'_>> {
        let t = self.tokens.get(i as usize)?;
        Some(TokenRef {
            kind: t.kind,
            range: (t.start as usize, t.end as usize),
            text: self
                .text
                .get(t.start as usize..t.end as usize)
                .unwrap_or(""),
        })
    }

    /// Every token, trivia included, in order. Their texts concatenate to [`Tree::text`].
    pub fn tokens(&self) -> impl Iterator<Item = TokenRef<'_>> + '_ {
        (0..self.tokens.len() as u32).filter_map(|i| self.token(i))
    }

    /// The kind and text of every number and identifier token, in order, found through
    /// an index the lexer keeps (a file has many more tokens than numbers and words).
    pub fn numbers_and_words(&self) -> impl Iterator<Item = (TokenKind, &str)> + '_ {
        self.words.iter().filter_map(|&i| {
            let t = self.tokens.get(i as usize)?;
            Some((
                t.kind,
                self.text
                    .get(t.start as usize..t.end as usize)
                    .unwrap_or(""),
            ))
        })
    }

    /// Every comment in order, found through an index the lexer keeps.
    pub fn comments(&self) -> impl Iterator<Item = Comment<'_>> + '_ {
        self.comments.iter().filter_map(|&i| {
            let t = self.tokens.get(i as usize)?;
            let block = match t.kind {
                TokenKind::LineComment => false,
                TokenKind::BlockComment => true,
                _ => return None,
            };
            Some(Comment {
                range: (t.start as usize, t.end as usize),
                text: self.text.get(t.start as usize..t.end as usize)?,
                block,
                token: i,
            })
        })
    }

    /// The smallest node whose range covers `offset` (the root if none does).
    pub fn node_at(&self, offset: usize) -> Node<'_> {
        let mut node = self.root();
        loop {
            // Children are in text order and do not overlap, so their ends (an empty
            // child counted one byte long) never decrease: the first that ends after
            // `offset` is found by halving, and covers it if it starts at or before it.
            // A long list then costs its depth, not its length.
            let children = node.child_ids();
            let ends_after = |id: &u32| {
                let r = (Node {
                    tree: self,
                    id: *id,
                })
                .range();
                r.end.max(r.start + 1) > offset
            };
            let i = children.partition_point(|id| !ends_after(id));
            match children.get(i) {
                Some(&id) if (Node { tree: self, id }).range().start <= offset => {
                    node = Node { tree: self, id };
                }
                _ => return node,
            }
        }
    }

    /// The outermost node that starts exactly at `offset`.
    fn outermost_starting_at(&self, offset: u32) -> Option<Node<'_>> {
        // Nodes are numbered in pre-order, so their starts never decrease.
        let i = self.nodes.partition_point(|n| n.start < offset);
        let n = self.nodes.get(i)?;
        (n.start == offset && i != 0).then_some(Node {
            tree: self,
            id: i as u32,
        })
    }

    /// The outermost node that ends exactly at `offset` (never the document).
    fn outermost_ending_at(&self, offset: u32) -> Option<Node<'_>> {
        let mut best: Option<u32> = None;
        for (i, n) in self.nodes.iter().enumerate().skip(1) {
            if n.end == offset && n.start < n.end {
                match best {
                    Some(b) if self.nodes[b as usize].start <= n.start => {}
                    _ => best = Some(i as u32),
                }
            }
        }
        best.map(|id| Node { tree: self, id })
    }

    /// The node a comment belongs to: the value or field it trails on the same line, or
    /// else the first node after it (`// muster: allow(...)` above a field).
    pub fn comment_anchor(&self, comment: &Comment<'_>) -> Option<CommentAnchor<'_>> {
        let before = self.tokens[..comment.token as usize]
            .iter()
            .rev()
            .find(|t| !t.kind.is_trivia() && t.kind != TokenKind::Comma);
        if let Some(t) = before {
            let between = self
                .text
                .get(t.end as usize..comment.range.0)
                .unwrap_or("\n");
            if !between.contains('\n')
                && let Some(node) = self.outermost_ending_at(t.end)
            {
                return Some(CommentAnchor::Trailing(node));
            }
        }
        let after = self.tokens[comment.token as usize + 1..]
            .iter()
            .find(|t| !t.kind.is_trivia())?;
        self.outermost_starting_at(after.start)
            .map(CommentAnchor::Leading)
    }
}

/// A node of a [`Tree`]: cheap to copy, borrows the tree.
#[derive(Clone, Copy)]
pub struct Node<'t> {
    pub(crate) tree: &'t Tree,
    pub(crate) id: u32,
}

impl PartialEq for Node<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.tree, other.tree) && self.id == other.id
    }
}

impl Eq for Node<'_> {}

impl std::fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}@{:?}", self.kind(), self.range())
    }
}

/// A field of a struct (or an entry of a map) found by name.
#[derive(Debug, Clone, Copy)]
pub struct FieldRef<'t> {
    /// The `Field` or `Entry` node.
    pub node: Node<'t>,
    /// The key as written (identifier or string token).
    pub key_range: (usize, usize),
    pub value: Option<Node<'t>>,
}

impl FieldRef<'_> {
    pub fn key_range(&self) -> Range<usize> {
        self.key_range.0..self.key_range.1
    }
}

impl<'t> Node<'t> {
    #[inline]
    fn data(&self) -> &'t NodeData {
        self.tree.data(self.id)
    }

    pub fn id(&self) -> NodeId {
        NodeId(self.id)
    }

    pub fn tree(&self) -> &'t Tree {
        self.tree
    }

    #[inline]
    pub fn kind(&self) -> NodeKind {
        self.data().kind
    }

    /// Byte range, without surrounding trivia.
    pub fn range(&self) -> Range<usize> {
        let d = self.data();
        d.start as usize..d.end as usize
    }

    #[inline]
    pub fn text(&self) -> &'t str {
        self.tree.text.get(self.range()).unwrap_or("")
    }

    pub fn parent(&self) -> Option<Node<'t>> {
        let p = self.data().parent;
        (p != NONE).then_some(Node {
            tree: self.tree,
            id: p,
        })
    }

    #[inline]
    pub fn children(&self) -> impl ExactSizeIterator<Item = Node<'t>> + 't {
        let tree = self.tree;
        self.child_ids().iter().map(move |&id| Node { tree, id })
    }

    /// The ids of this node's children, in text order.
    fn child_ids(&self) -> &'t [u32] {
        let d = self.data();
        let start = d.children_start as usize;
        self.tree
            .children
            .get(start..start + d.children_len as usize)
            .unwrap_or(&[])
    }

    /// This node's position among its parent's children, found by halving the parent's
    /// children by where they start (they are in text order), so asking it of every item
    /// of a long list costs no scan of the list per item.
    pub fn index_in_parent(&self) -> Option<usize> {
        let parent = self.parent()?;
        let d = parent.data();
        let start = d.children_start as usize;
        let ids = self
            .tree
            .children
            .get(start..start + d.children_len as usize)?;
        let here = self.data().start;
        let first = ids.partition_point(|&id| self.tree.nodes[id as usize].start < here);
        ids[first..]
            .iter()
            .take_while(|&&id| self.tree.nodes[id as usize].start == here)
            .position(|&id| id == self.id)
            .map(|k| first + k)
            .or_else(|| ids.iter().position(|&id| id == self.id))
    }

    #[inline]
    pub fn child(&self, index: usize) -> Option<Node<'t>> {
        self.children().nth(index)
    }

    #[inline]
    pub(crate) fn child_count(&self) -> usize {
        self.data().children_len as usize
    }

    /// The main token: the name of a struct or tuple, the key of a field, the literal.
    #[inline]
    pub fn token(&self) -> Option<TokenRef<'t>> {
        let t = self.data().token;
        if t == NONE { None } else { self.tree.token(t) }
    }

    /// The struct or tuple name (`Scenario` in `Scenario(...)`), raw prefix removed.
    #[inline]
    pub fn name(&self) -> Option<&'t str> {
        match self.kind() {
            NodeKind::Struct | NodeKind::Tuple | NodeKind::Ident | NodeKind::Field => {
                self.token().map(|t| ident_text(t.text))
            }
            _ => None,
        }
    }

    #[inline]
    pub fn name_range(&self) -> Option<Range<usize>> {
        match self.kind() {
            NodeKind::Struct | NodeKind::Tuple | NodeKind::Ident | NodeKind::Field => {
                self.token().map(|t| t.range())
            }
            _ => None,
        }
    }

    /// The opening bracket's range, for containers.
    pub fn open_range(&self) -> Option<Range<usize>> {
        let t = self.data().open;
        if t == NONE {
            None
        } else {
            self.tree.token(t).map(|t| t.range())
        }
    }

    /// The closing bracket's range, if the container is closed.
    pub fn close_range(&self) -> Option<Range<usize>> {
        let t = self.data().close;
        if t == NONE {
            None
        } else {
            self.tree.token(t).map(|t| t.range())
        }
    }

    /// For a struct or a map with string keys: the field (entry) called `name`.
    pub fn field(&self, name: &str) -> Option<FieldRef<'t>> {
        self.fields().find(|(key, _)| *key == name).map(|(_, f)| f)
    }

    /// The fields of a struct or the string-keyed entries of a map, with their key text
    /// (identifiers as written without `r#`, JSON/RON string keys without quotes when
    /// they contain no escapes).
    pub fn fields(&self) -> impl Iterator<Item = (&'t str, FieldRef<'t>)> + 't {
        let kind = self.kind();
        self.children()
            .filter_map(move |child| match (kind, child.kind()) {
                (NodeKind::Struct, NodeKind::Field) => {
                    let t = child.token()?;
                    Some((
                        ident_text(t.text),
                        FieldRef {
                            node: child,
                            key_range: t.range,
                            value: child.child(0),
                        },
                    ))
                }
                (NodeKind::Map, NodeKind::Entry) => {
                    let key = child.child(0)?;
                    let text = key.text();
                    let unquoted = text.strip_prefix('"')?.strip_suffix('"')?;
                    if unquoted.contains('\\') {
                        return None;
                    }
                    Some((
                        unquoted,
                        FieldRef {
                            node: child,
                            key_range: (key.range().start, key.range().end),
                            value: child.child(1),
                        },
                    ))
                }
                _ => None,
            })
    }
}

/// Identifier text without the `r#` of raw identifiers.
#[inline]
pub(crate) fn ident_text(text: &str) -> &str {
    text.strip_prefix("r#").unwrap_or(text)
}
