//! The serde `Deserializer` over a [`Tree`]. It reads RON trees the way ron 0.12 reads
//! text with `IMPLICIT_SOME` (muster's options) and JSON trees the way serde_json does,
//! and attaches the byte range of the offending node to every error.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::ops::Range;

use serde::de::{self, DeserializeSeed, Expected, IntoDeserializer, Visitor};

use crate::Dialect;
use crate::error::{DeError, DeErrorKind, PathSegment};
use crate::number::{self, AnyNumber, FloatTy, IntError, IntTy, JsonNumber, RonNumber};
use crate::spanned::{SPANNED_FIELDS, SPANNED_NAME};
use crate::spans::{Record, SpanIndex, SpanKey};
use crate::string;
use crate::tree::{Node, NodeKind, Tree, ident_text};

type Result<T> = std::result::Result<T, Box<DeError>>;

/// A key read in a struct or map: its [`fingerprint`], its text and where it stands.
type SeenKey<'de> = (u64, Cow<'de, str>, Range<usize>);

pub(crate) struct Ctx<'de> {
    tree: &'de Tree,
    json: bool,
    records: Option<RefCell<Vec<Record<'de>>>>,
    current: Cell<u32>,
    /// Keys given twice in a `{}` map: reported, and reading goes on (the last value
    /// counts, as in ron).
    duplicates: RefCell<Vec<DeError>>,
    /// The keys read so far in the structs and maps being read, innermost last: each
    /// one owns the part from where it started (one buffer for the whole reading). Each
    /// key comes with its [`fingerprint`], compared before the text.
    keys: RefCell<Vec<SeenKey<'de>>>,
}

impl<'de> Ctx<'de> {
    pub(crate) fn new(tree: &'de Tree, record: bool) -> Self {
        Ctx {
            tree,
            json: tree.dialect() == Dialect::Json,
            // About one record per node: sized once instead of grown.
            records: record.then(|| RefCell::new(Vec::with_capacity(tree.nodes.len()))),
            current: Cell::new(u32::MAX),
            duplicates: RefCell::new(Vec::new()),
            keys: RefCell::new(Vec::with_capacity(32)),
        }
    }

    /// Where the keys of a struct or map about to be read start in [`Ctx::keys`].
    fn keys_start(&self) -> usize {
        self.keys.borrow().len()
    }

    /// Forgets the keys of a struct or map read from `start` on.
    fn keys_end(&self, start: usize) {
        self.keys.borrow_mut().truncate(start);
    }

    /// Remembers `key` among the keys of the struct or map read from `start` on, or
    /// returns the duplicate-key error if it is there already.
    fn check_duplicate(&self, start: usize, key: Cow<'de, str>, range: Range<usize>) -> Result<()> {
        let mut keys = self.keys.borrow_mut();
        let seen = keys.get(start..).unwrap_or(&[]);
        let print = fingerprint(&key);
        if let Some((_, _, first)) = seen.iter().find(|(p, k, _)| *p == print && *k == key) {
            return Err(Box::new(DeError {
                kind: DeErrorKind::DuplicateKey {
                    key: key.to_string(),
                },
                range: Some(range),
                secondary: Some(first.clone()),
                path: Vec::new(),
            }));
        }
        keys.push((print, key, range));
        Ok(())
    }

    /// The duplicate keys met in `{}` maps, in reading order.
    pub(crate) fn take_duplicates(&self) -> Vec<DeError> {
        self.duplicates.take()
    }

    pub(crate) fn into_index(self) -> SpanIndex<'de> {
        SpanIndex::new(
            self.tree,
            self.records.map(RefCell::into_inner).unwrap_or_default(),
        )
    }

    fn node(&self, id: u32) -> Node<'de> {
        Node {
            tree: self.tree,
            id,
        }
    }

    /// Runs `f` with `key -> node` recorded as a child of the current record.
    fn record<T>(&self, key: SpanKey<'de>, node: u32, f: impl FnOnce() -> T) -> T {
        let Some(records) = &self.records else {
            return f();
        };
        let parent = self.current.get();
        let index = {
            let mut r = records.borrow_mut();
            r.push(Record {
                parent,
                key,
                node: crate::tree::NodeId(node),
            });
            (r.len() - 1) as u32
        };
        self.current.set(index);
        let out = f();
        self.current.set(parent);
        out
    }
}

/// The length and first seven bytes of a key, packed: equal keys have equal
/// fingerprints, and most unequal ones (a struct's field names) differ in them, so
/// finding a key given twice rarely compares whole texts.
fn fingerprint(key: &str) -> u64 {
    let bytes = key.as_bytes();
    let mut packed = [0u8; 8];
    let n = bytes.len().min(7);
    packed[..n].copy_from_slice(&bytes[..n]);
    packed[7] = bytes.len() as u8;
    u64::from_le_bytes(packed)
}

/// Deserializes one node of the tree.
pub(crate) struct ValueDe<'a, 'de> {
    pub(crate) cx: &'a Ctx<'de>,
    pub(crate) id: u32,
}

impl<'a, 'de> ValueDe<'a, 'de> {
    fn node(&self) -> Node<'de> {
        self.cx.node(self.id)
    }

    fn range(&self) -> Range<usize> {
        self.node().range()
    }

    fn text(&self) -> &'de str {
        self.node().text()
    }

    /// The raw main token text (`r#None` stays `r#None`, as ron's keyword checks see it).
    fn raw_name(&self) -> Option<&'de str> {
        match self.node().kind() {
            NodeKind::Struct | NodeKind::Tuple | NodeKind::Ident | NodeKind::Bool => {
                self.node().token().map(|t| t.text)
            }
            _ => None,
        }
    }

    fn child(&self, node: Node<'de>) -> ValueDe<'a, 'de> {
        ValueDe {
            cx: self.cx,
            id: node.id,
        }
    }

    /// The value in words, for "expected X, found Y".
    fn found(&self) -> String {
        let node = self.node();
        let short = |s: &str| -> String {
            if s.chars().count() > 40 {
                format!("{}...", s.chars().take(40).collect::<String>())
            } else {
                s.to_string()
            }
        };
        match node.kind() {
            NodeKind::String => match self.decode_str() {
                Ok(s) => format!("the string {:?}", short(&s)),
                Err(_) => "a malformed string".to_string(),
            },
            NodeKind::Number => {
                let t = self.text();
                if t.starts_with('-') {
                    format!("the negative number {}", short(t))
                } else {
                    format!("the number {}", short(t))
                }
            }
            NodeKind::Bool => format!("the boolean `{}`", self.text()),
            NodeKind::Null => "`null`".to_string(),
            NodeKind::Char => format!("the character {}", self.text()),
            NodeKind::ByteString => "a byte string".to_string(),
            NodeKind::Ident => format!("the identifier `{}`", node.name().unwrap_or("")),
            NodeKind::List => "a list".to_string(),
            NodeKind::Map => {
                if self.cx.json {
                    "an object".to_string()
                } else {
                    "a map".to_string()
                }
            }
            NodeKind::Struct => match node.name() {
                Some(name) => format!("the struct `{name}(...)`"),
                None => "a struct".to_string(),
            },
            NodeKind::Tuple => match (node.name(), node.child_count()) {
                (Some(name), _) => format!("`{name}(...)`"),
                (None, 0) => "`()`".to_string(),
                (None, _) => "a tuple".to_string(),
            },
            NodeKind::Error => "invalid syntax".to_string(),
            NodeKind::Document | NodeKind::Field | NodeKind::Entry => "nothing".to_string(),
        }
    }

    fn invalid_type(&self, exp: &dyn Expected) -> Box<DeError> {
        if self.node().kind() == NodeKind::Error {
            return DeError::at(DeErrorKind::Syntax, self.range());
        }
        DeError::at(
            DeErrorKind::InvalidType {
                found: self.found(),
                expected: exp.to_string(),
            },
            self.range(),
        )
    }

    fn decode_str(&self) -> Result<Cow<'de, str>> {
        let token = self.text();
        if self.cx.tree.data(self.id).plain {
            return Ok(Cow::Borrowed(string::quoted_content(token)));
        }
        let decoded = if self.cx.json {
            string::decode_json(token)
        } else {
            string::decode_ron(token)
        };
        decoded.map_err(|_| DeError::at(DeErrorKind::Syntax, self.range()))
    }

    fn visit_str<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value> {
        match self.decode_str()? {
            Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
            Cow::Owned(s) => visitor.visit_string(s),
        }
    }

    fn at<T>(&self, r: Result<T>) -> Result<T> {
        r.map_err(|e| e.or_at(self.range()))
    }

    fn visit_ron_number<V: Visitor<'de>>(n: RonNumber, visitor: V) -> Result<V::Value> {
        match n {
            RonNumber::I8(v) => visitor.visit_i8(v),
            RonNumber::I16(v) => visitor.visit_i16(v),
            RonNumber::I32(v) => visitor.visit_i32(v),
            RonNumber::I64(v) => visitor.visit_i64(v),
            RonNumber::U8(v) => visitor.visit_u8(v),
            RonNumber::U16(v) => visitor.visit_u16(v),
            RonNumber::U32(v) => visitor.visit_u32(v),
            RonNumber::U64(v) => visitor.visit_u64(v),
            RonNumber::F32(v) => visitor.visit_f32(v),
            RonNumber::F64(v) => visitor.visit_f64(v),
        }
    }

    fn json_number<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value> {
        if self.node().kind() != NodeKind::Number {
            return Err(self.invalid_type(&visitor));
        }
        let n = number::json_number(self.text())
            .ok_or_else(|| DeError::at(DeErrorKind::Syntax, self.range()))?;
        self.at(match n {
            JsonNumber::U64(v) => visitor.visit_u64(v),
            JsonNumber::I64(v) => visitor.visit_i64(v),
            JsonNumber::F64(v) => visitor.visit_f64(v),
        })
    }

    fn ron_int<V: Visitor<'de>>(&self, ty: IntTy, visitor: V) -> Result<V::Value> {
        if self.node().kind() != NodeKind::Number {
            return Err(self.invalid_type(&visitor));
        }
        let text = self.text();
        match number::ron_integer(text, ty) {
            Ok(n) => self.at(Self::visit_ron_number(n, visitor)),
            Err(IntError::OutOfRange { .. }) => {
                let found = if text.starts_with('-') {
                    format!("the negative number {text}")
                } else {
                    format!("the number {text}")
                };
                Err(DeError::at(
                    DeErrorKind::InvalidValue {
                        found,
                        expected: format!("{} ({})", visitor_words(&visitor), range_words(ty)),
                    },
                    self.range(),
                ))
            }
            Err(IntError::Invalid { .. }) => {
                let found = if text.starts_with('-') && ty.name().starts_with('u') {
                    format!("the negative number {text}")
                } else {
                    format!("the number `{text}`")
                };
                Err(DeError::at(
                    DeErrorKind::InvalidType {
                        found,
                        expected: format!("an integer ({})", ty.name()),
                    },
                    self.range(),
                ))
            }
        }
    }

    fn ron_float<V: Visitor<'de>>(&self, ty: FloatTy, visitor: V) -> Result<V::Value> {
        let ok_kind = match self.node().kind() {
            NodeKind::Number => true,
            NodeKind::Ident => self.raw_name().is_some_and(number::is_float_ident),
            _ => false,
        };
        if !ok_kind {
            return Err(self.invalid_type(&visitor));
        }
        match number::ron_float(self.text(), ty) {
            Some(n) => self.at(Self::visit_ron_number(n, visitor)),
            None => Err(DeError::at(
                DeErrorKind::InvalidType {
                    found: format!("the number `{}`", self.text()),
                    expected: "a floating point number".to_string(),
                },
                self.range(),
            )),
        }
    }

    fn seq<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value> {
        let node = self.node();
        let mut access = SeqAccess {
            cx: self.cx,
            children: node.children(),
            index: 0,
        };
        let value = self.at(visitor.visit_seq(&mut access))?;
        if let Some(extra) = access.children.next() {
            return Err(DeError::at(
                DeErrorKind::InvalidLength {
                    len: node.child_count(),
                    expected: format!("{} elements", access.index),
                },
                extra.range(),
            ));
        }
        Ok(value)
    }

    /// Struct fields (RON `Struct`, or an empty tuple) or object members (JSON `Map`).
    fn struct_map<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value> {
        let node = self.node();
        let mut access = FieldAccess {
            cx: self.cx,
            node,
            children: node.children(),
            pending: None,
            keys: self.cx.keys_start(),
        };
        let value = visitor.visit_map(&mut access);
        self.cx.keys_end(access.keys);
        let value = value.map_err(|e| self.missing_at(e))?;
        if access.pending.is_some() || access.children.next().is_some() {
            return Err(DeError::at(
                DeErrorKind::Custom("unexpected extra field".to_string()),
                self.range(),
            ));
        }
        Ok(value)
    }

    /// A missing field points at the struct's name (or opening bracket) and its end.
    fn missing_at(&self, mut e: Box<DeError>) -> Box<DeError> {
        if e.range.is_none() && matches!(e.kind, DeErrorKind::MissingField { .. }) {
            let node = self.node();
            let start = node
                .name_range()
                .filter(|_| node.kind() != NodeKind::Field)
                .or_else(|| node.open_range())
                .unwrap_or_else(|| node.range());
            e.range = Some(start);
            e.secondary = node
                .close_range()
                .or_else(|| Some(node.range().end..node.range().end));
            return e;
        }
        e.or_at(self.range())
    }

    fn check_name(&self, expected: &'static str) -> Result<()> {
        let node = self.node();
        if let Some(found) = node.name()
            && found != expected
        {
            return Err(DeError::at(
                DeErrorKind::WrongStructName {
                    found: found.to_string(),
                    expected,
                },
                node.name_range().unwrap_or_else(|| node.range()),
            ));
        }
        Ok(())
    }

    fn spanned<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value> {
        let r = self.range();
        visitor.visit_map(SpannedAccess {
            start: Some(r.start),
            end: Some(r.end),
            value: Some(ValueDe {
                cx: self.cx,
                id: self.id,
            }),
        })
    }

    fn enum_parts(
        &self,
        exp: &dyn Expected,
    ) -> Result<(Cow<'de, str>, Range<usize>, Option<Node<'de>>)> {
        let node = self.node();
        if self.cx.json {
            return match node.kind() {
                NodeKind::String => Ok((self.decode_str()?, self.range(), None)),
                NodeKind::Map if node.child_count() == 1 => {
                    let entry = node.child(0);
                    let key = entry.and_then(|e| e.child(0));
                    let value = entry.and_then(|e| e.child(1));
                    match (key, value) {
                        (Some(key), Some(value)) if key.kind() == NodeKind::String => {
                            let name = self.child(key).decode_str()?;
                            Ok((name, key.range(), Some(value)))
                        }
                        _ => Err(DeError::at(DeErrorKind::Syntax, self.range())),
                    }
                }
                NodeKind::Map => Err(DeError::at(
                    DeErrorKind::InvalidType {
                        found: format!("an object with {} members", node.child_count()),
                        expected: format!("{} (an object with one member)", exp_words(exp)),
                    },
                    self.range(),
                )),
                _ => Err(self.invalid_type(exp)),
            };
        }
        match node.kind() {
            NodeKind::Ident | NodeKind::Bool => {
                Ok((Cow::Borrowed(ident_text(self.text())), self.range(), None))
            }
            NodeKind::Struct | NodeKind::Tuple if node.token().is_some() => {
                let name = node.name().unwrap_or("");
                let range = node.name_range().unwrap_or_else(|| node.range());
                Ok((Cow::Borrowed(name), range, Some(node)))
            }
            _ => Err(self.invalid_type(exp)),
        }
    }
}

fn visitor_words(exp: &dyn Expected) -> String {
    exp.to_string()
}

fn exp_words(exp: &dyn Expected) -> String {
    exp.to_string()
}

fn range_words(ty: IntTy) -> &'static str {
    match ty {
        IntTy::I8 => "-128 to 127",
        IntTy::I16 => "-32768 to 32767",
        IntTy::I32 => "-2147483648 to 2147483647",
        IntTy::I64 => "a 64-bit signed range",
        IntTy::U8 => "0 to 255",
        IntTy::U16 => "0 to 65535",
        IntTy::U32 => "0 to 4294967295",
        IntTy::U64 => "0 to 18446744073709551615",
    }
}

macro_rules! int_method {
    ($method:ident, $ty:expr) => {
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            if self.cx.json {
                self.json_number(visitor)
            } else {
                self.ron_int($ty, visitor)
            }
        }
    };
}

impl<'a, 'de> de::Deserializer<'de> for ValueDe<'a, 'de> {
    type Error = Box<DeError>;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let node = self.node();
        if self.cx.json {
            return match node.kind() {
                NodeKind::Null => self.at(visitor.visit_unit()),
                NodeKind::Bool => self.at(visitor.visit_bool(self.text() == "true")),
                NodeKind::Number => self.json_number(visitor),
                NodeKind::String => self.at(self.visit_str(visitor)),
                NodeKind::List => self.seq(visitor),
                NodeKind::Map => self.at(self.map_entries(visitor)),
                _ => Err(DeError::at(DeErrorKind::Syntax, self.range())),
            };
        }
        let raw = self.raw_name();
        let keyword = |k: &str| raw == Some(k);
        let not_here = || {
            DeError::at(
                DeErrorKind::InvalidType {
                    found: self.found(),
                    expected: "a value".to_string(),
                },
                self.range(),
            )
        };
        match node.kind() {
            NodeKind::Bool => self.at(visitor.visit_bool(self.text() == "true")),
            NodeKind::Ident => {
                let text = self.text();
                if text == "None" {
                    self.at(visitor.visit_none())
                } else if text == "Some" {
                    Err(not_here())
                } else if number::is_float_ident(text) {
                    match number::ron_any_number(text) {
                        Some(n) => self.at(Self::visit_ron_number(n, visitor)),
                        None => Err(not_here()),
                    }
                } else {
                    self.at(visitor.visit_unit())
                }
            }
            NodeKind::Number => match number::ron_any(self.text()) {
                Some(AnyNumber::Number(n)) => self.at(Self::visit_ron_number(n, visitor)),
                Some(AnyNumber::Unit) => self.at(visitor.visit_unit()),
                Some(AnyNumber::Range { start, end }) => self.at(visitor.visit_map(RangeAccess {
                    start,
                    end,
                    value: None,
                })),
                None => Err(DeError::at(DeErrorKind::Syntax, self.range())),
            },
            NodeKind::String => self.at(self.visit_str(visitor)),
            NodeKind::Char => match string::ron_char(self.text()) {
                Ok(c) => self.at(visitor.visit_char(c)),
                Err(_) => Err(DeError::at(DeErrorKind::Syntax, self.range())),
            },
            NodeKind::ByteString => Err(self.invalid_type(&visitor)),
            NodeKind::List => self.seq(visitor),
            NodeKind::Map => self.at(self.map_entries(visitor)),
            NodeKind::Struct | NodeKind::Tuple => {
                let reserved = ["Some", "None", "true", "false"].into_iter().any(&keyword)
                    || raw.is_some_and(number::is_float_ident);
                if keyword("Some") && node.kind() == NodeKind::Tuple && node.child_count() == 1 {
                    let inner = node.child(0).map(|c| self.child(c));
                    return match inner {
                        Some(inner) => self.at(visitor.visit_some(inner)),
                        None => Err(not_here()),
                    };
                }
                if reserved {
                    return Err(not_here());
                }
                if node.kind() == NodeKind::Struct {
                    return self.struct_map(visitor);
                }
                if raw.is_none() && node.child_count() == 0 && self.text() == "()" {
                    return self.at(visitor.visit_unit());
                }
                self.seq(visitor)
            }
            _ => Err(DeError::at(DeErrorKind::Syntax, self.range())),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node().kind() {
            NodeKind::Bool => self.at(visitor.visit_bool(self.text() == "true")),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    int_method!(deserialize_i8, IntTy::I8);
    int_method!(deserialize_i16, IntTy::I16);
    int_method!(deserialize_i32, IntTy::I32);
    int_method!(deserialize_i64, IntTy::I64);
    int_method!(deserialize_u8, IntTy::U8);
    int_method!(deserialize_u16, IntTy::U16);
    int_method!(deserialize_u32, IntTy::U32);
    int_method!(deserialize_u64, IntTy::U64);

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.cx.json {
            self.json_number(visitor)
        } else {
            self.ron_float(FloatTy::F32, visitor)
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.cx.json {
            self.json_number(visitor)
        } else {
            self.ron_float(FloatTy::F64, visitor)
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node().kind() {
            NodeKind::String if self.cx.json => self.at(self.visit_str(visitor)),
            NodeKind::Char if !self.cx.json => match string::ron_char(self.text()) {
                Ok(c) => self.at(visitor.visit_char(c)),
                Err(_) => Err(DeError::at(DeErrorKind::Syntax, self.range())),
            },
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node().kind() {
            NodeKind::String => self.at(self.visit_str(visitor)),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node().kind() {
            NodeKind::String if self.cx.json => {
                let s = self.decode_str()?;
                self.at(visitor.visit_bytes(s.as_bytes()))
            }
            NodeKind::List => self.seq(visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let node = self.node();
        if self.cx.json {
            return match node.kind() {
                NodeKind::Null => self.at(visitor.visit_none()),
                _ => visitor.visit_some(self),
            };
        }
        let raw = self.raw_name();
        match (node.kind(), raw) {
            (NodeKind::Ident, Some("None")) => self.at(visitor.visit_none()),
            (NodeKind::Tuple, Some("Some")) if node.child_count() == 1 => match node.child(0) {
                Some(inner) => {
                    let inner = self.child(inner);
                    self.at(visitor.visit_some(inner))
                }
                None => Err(DeError::at(DeErrorKind::Syntax, self.range())),
            },
            (NodeKind::Tuple | NodeKind::Struct | NodeKind::Ident, Some("Some" | "None")) => {
                Err(DeError::at(
                    DeErrorKind::InvalidType {
                        found: self.found(),
                        expected: "`None` or `Some(value)` with one value".to_string(),
                    },
                    self.range(),
                ))
            }
            // ron's IMPLICIT_SOME: any other value is the content of `Some`.
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let node = self.node();
        let ok = if self.cx.json {
            node.kind() == NodeKind::Null
        } else {
            node.kind() == NodeKind::Tuple && node.token().is_none() && self.text() == "()"
        };
        if ok {
            self.at(visitor.visit_unit())
        } else {
            Err(self.invalid_type(&visitor))
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        let node = self.node();
        if !self.cx.json && node.kind() == NodeKind::Ident && node.name() == Some(name) {
            return self.at(visitor.visit_unit());
        }
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == SPANNED_NAME {
            return self.spanned(visitor);
        }
        if self.cx.json {
            return visitor.visit_newtype_struct(self);
        }
        let node = self.node();
        if node.kind() == NodeKind::Tuple && node.child_count() == 1 {
            self.check_name(name)?;
            if let Some(inner) = node.child(0) {
                let inner = self.child(inner);
                return self.at(visitor.visit_newtype_struct(inner));
            }
        }
        Err(self.invalid_type(&visitor))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node().kind() {
            NodeKind::List => self.seq(visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        let node = self.node();
        match node.kind() {
            NodeKind::List if self.cx.json => self.seq(visitor),
            NodeKind::Tuple if !self.cx.json && node.token().is_none() => self.seq(visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        let node = self.node();
        match node.kind() {
            NodeKind::List if self.cx.json => self.seq(visitor),
            NodeKind::Tuple if !self.cx.json => {
                self.check_name(name)?;
                self.seq(visitor)
            }
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node().kind() {
            NodeKind::Map => self.at(self.map_entries(visitor)),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if name == SPANNED_NAME && fields == SPANNED_FIELDS {
            return self.spanned(visitor);
        }
        let node = self.node();
        if self.cx.json {
            return match node.kind() {
                NodeKind::Map => self.struct_map(visitor),
                NodeKind::List => self.seq(visitor),
                _ => Err(self.invalid_type(&visitor)),
            };
        }
        match node.kind() {
            NodeKind::Struct => {
                self.check_name(name)?;
                self.struct_map(visitor)
            }
            NodeKind::Tuple if node.child_count() == 0 => {
                self.check_name(name)?;
                self.struct_map(visitor)
            }
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let (variant, variant_range, content) = self.enum_parts(&visitor)?;
        let access = EnumAccess {
            de: ValueDe {
                cx: self.cx,
                id: self.id,
            },
            variant,
            variant_range,
            content,
        };
        self.at(visitor.visit_enum(access))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node().kind() {
            NodeKind::String if self.cx.json => self.at(self.visit_str(visitor)),
            NodeKind::Ident | NodeKind::Bool if !self.cx.json => {
                self.at(visitor.visit_borrowed_str(ident_text(self.text())))
            }
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }
}

impl<'a, 'de> ValueDe<'a, 'de> {
    /// `{key: value}` maps (RON and JSON): keys are read as values of the key type.
    fn map_entries<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value> {
        let node = self.node();
        let mut access = EntryAccess {
            cx: self.cx,
            children: node.children(),
            pending: None,
            keys: self.cx.keys_start(),
        };
        let value = visitor.visit_map(&mut access);
        self.cx.keys_end(access.keys);
        value
    }
}

struct SeqAccess<'a, 'de, I> {
    cx: &'a Ctx<'de>,
    children: I,
    index: usize,
}

impl<'a, 'de, I: Iterator<Item = Node<'de>>> de::SeqAccess<'de> for SeqAccess<'a, 'de, I> {
    type Error = Box<DeError>;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(child) = self.children.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        let de = ValueDe {
            cx: self.cx,
            id: child.id,
        };
        self.cx
            .record(SpanKey::Index(index as u32), child.id, || {
                seed.deserialize(de)
            })
            .map(Some)
            .map_err(|e| e.or_at(child.range()).in_path(PathSegment::Index(index)))
    }

    /// The elements left, so that a list is allocated once at its size.
    fn size_hint(&self) -> Option<usize> {
        match self.children.size_hint() {
            (low, Some(high)) if low == high => Some(low),
            _ => None,
        }
    }
}

/// Fields of a RON struct, or members of a JSON object read as a struct.
struct FieldAccess<'a, 'de, I> {
    cx: &'a Ctx<'de>,
    node: Node<'de>,
    children: I,
    pending: Option<(Node<'de>, Cow<'de, str>)>,
    /// Where this struct's or map's keys start in [`Ctx::keys`].
    keys: usize,
}

impl<'a, 'de, I: Iterator<Item = Node<'de>>> de::MapAccess<'de> for FieldAccess<'a, 'de, I> {
    type Error = Box<DeError>;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(child) = self.children.next() else {
            return Ok(None);
        };
        let (key, key_range, value) = match child.kind() {
            NodeKind::Field => {
                let token = child
                    .token()
                    .ok_or_else(|| DeError::at(DeErrorKind::Syntax, child.range()))?;
                (
                    Cow::Borrowed(ident_text(token.text)),
                    token.range(),
                    child.child(0),
                )
            }
            NodeKind::Entry => {
                let key = child
                    .child(0)
                    .filter(|k| k.kind() == NodeKind::String)
                    .ok_or_else(|| DeError::at(DeErrorKind::Syntax, child.range()))?;
                let text = ValueDe {
                    cx: self.cx,
                    id: key.id,
                }
                .decode_str()?;
                (text, key.range(), child.child(1))
            }
            _ => return Err(DeError::at(DeErrorKind::Syntax, child.range())),
        };
        let value = value.ok_or_else(|| DeError::at(DeErrorKind::Syntax, child.range()))?;
        self.cx
            .check_duplicate(self.keys, key.clone(), key_range.clone())?;
        let out = match &key {
            Cow::Borrowed(k) => seed.deserialize(BorrowedKey(k)),
            Cow::Owned(k) => seed.deserialize(k.as_str().into_deserializer()),
        }
        .map_err(|e: Box<DeError>| e.or_at(key_range))?;
        self.pending = Some((value, key));
        let _ = self.node;
        Ok(Some(out))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        pending_value(self.cx, &mut self.pending, seed)
    }
}

/// The value of the key a map access has just read (a struct's field or a map's
/// entry): deserialized where it stands, its span recorded under the key, and an error
/// in it placed at it, under the key in the error's path.
fn pending_value<'de, V: DeserializeSeed<'de>>(
    cx: &Ctx<'de>,
    pending: &mut Option<(Node<'de>, Cow<'de, str>)>,
    seed: V,
) -> Result<V::Value> {
    let Some((value, key)) = pending.take() else {
        return Err(DeError::new(DeErrorKind::Custom(
            "value requested before key".to_string(),
        )));
    };
    let de = ValueDe { cx, id: value.id };
    let path_key = key.clone();
    cx.record(SpanKey::Key(key), value.id, || seed.deserialize(de))
        .map_err(|e| {
            e.or_at(value.range())
                .in_path(PathSegment::Field(path_key.into_owned()))
        })
}

/// A borrowed field name handed to serde's field visitor.
struct BorrowedKey<'de>(&'de str);

impl<'de> de::Deserializer<'de> for BorrowedKey<'de> {
    type Error = Box<DeError>;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.0)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// Entries of a `{}` map whose keys are values in their own right.
struct EntryAccess<'a, 'de, I> {
    cx: &'a Ctx<'de>,
    children: I,
    pending: Option<(Node<'de>, Cow<'de, str>)>,
    /// Where this struct's or map's keys start in [`Ctx::keys`].
    keys: usize,
}

impl<'a, 'de, I: Iterator<Item = Node<'de>>> de::MapAccess<'de> for EntryAccess<'a, 'de, I> {
    type Error = Box<DeError>;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(child) = self.children.next() else {
            return Ok(None);
        };
        let (Some(key), Some(value)) = (child.child(0), child.child(1)) else {
            return Err(DeError::at(DeErrorKind::Syntax, child.range()));
        };
        let key_de = ValueDe {
            cx: self.cx,
            id: key.id,
        };
        let key_text = if key.kind() == NodeKind::String {
            key_de.decode_str()?
        } else {
            Cow::Borrowed(key.text())
        };
        if let Err(duplicate) = self
            .cx
            .check_duplicate(self.keys, key_text.clone(), key.range())
        {
            self.cx.duplicates.borrow_mut().push(*duplicate);
        }
        let out = seed.deserialize(key_de).map_err(|e| e.or_at(key.range()))?;
        self.pending = Some((value, key_text));
        Ok(Some(out))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        pending_value(self.cx, &mut self.pending, seed)
    }
}

struct EnumAccess<'a, 'de> {
    de: ValueDe<'a, 'de>,
    variant: Cow<'de, str>,
    variant_range: Range<usize>,
    content: Option<Node<'de>>,
}

impl<'a, 'de> de::EnumAccess<'de> for EnumAccess<'a, 'de> {
    type Error = Box<DeError>;
    type Variant = VariantAccess<'a, 'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant)> {
        let range = self.variant_range.clone();
        let value = match &self.variant {
            Cow::Borrowed(v) => seed.deserialize(BorrowedKey(v)),
            Cow::Owned(v) => seed.deserialize(v.as_str().into_deserializer()),
        }
        .map_err(|e: Box<DeError>| e.or_at(range))?;
        Ok((
            value,
            VariantAccess {
                de: self.de,
                variant: self.variant,
                variant_range: self.variant_range,
                content: self.content,
            },
        ))
    }
}

struct VariantAccess<'a, 'de> {
    de: ValueDe<'a, 'de>,
    variant: Cow<'de, str>,
    variant_range: Range<usize>,
    content: Option<Node<'de>>,
}

impl<'a, 'de> VariantAccess<'a, 'de> {
    fn content_de(&self, content: Node<'de>) -> ValueDe<'a, 'de> {
        ValueDe {
            cx: self.de.cx,
            id: content.id,
        }
    }

    fn wrong_shape(&self, found: String, expected: &str) -> Box<DeError> {
        DeError::at(
            DeErrorKind::InvalidType {
                found,
                expected: format!("{expected} `{}`", self.variant),
            },
            self.content
                .map(|c| c.range())
                .unwrap_or_else(|| self.variant_range.clone()),
        )
    }

    fn content_words(&self) -> String {
        match self.content {
            None => "a variant without content".to_string(),
            Some(c) => match (c.kind(), self.de.cx.json) {
                (NodeKind::Struct, false) => "fields".to_string(),
                (NodeKind::Tuple, false) => format!("{} values", c.child_count()),
                _ => self.content_de(c).found(),
            },
        }
    }

    fn in_variant<T>(&self, node: u32, f: impl FnOnce() -> Result<T>) -> Result<T> {
        self.de
            .cx
            .record(SpanKey::Key(self.variant.clone()), node, f)
            .map_err(|e| e.in_path(PathSegment::Field(self.variant.to_string())))
    }
}

impl<'a, 'de> de::VariantAccess<'de> for VariantAccess<'a, 'de> {
    type Error = Box<DeError>;

    fn unit_variant(self) -> Result<()> {
        match self.content {
            None => Ok(()),
            Some(c) if self.de.cx.json && c.kind() == NodeKind::Null => Ok(()),
            Some(_) => Err(self.wrong_shape(self.content_words(), "the unit variant")),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        let inner = match self.content {
            Some(c) if self.de.cx.json => Some(c),
            Some(c) if c.kind() == NodeKind::Tuple && c.child_count() == 1 => c.child(0),
            _ => None,
        };
        let Some(inner) = inner else {
            return Err(self.wrong_shape(self.content_words(), "one value in"));
        };
        let de = self.content_de(inner);
        self.in_variant(inner.id, || seed.deserialize(de))
            .map_err(|e| e.or_at(inner.range()))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        let Some(content) = self.content else {
            return Err(self.wrong_shape(self.content_words(), "values in"));
        };
        let de = self.content_de(content);
        let ok = if self.de.cx.json {
            content.kind() == NodeKind::List
        } else {
            content.kind() == NodeKind::Tuple
        };
        if !ok {
            return Err(self.wrong_shape(self.content_words(), "values in"));
        }
        self.in_variant(content.id, || de.seq(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let Some(content) = self.content else {
            return Err(self.wrong_shape(self.content_words(), "fields in"));
        };
        let de = self.content_de(content);
        if self.de.cx.json {
            return self.in_variant(content.id, || {
                de::Deserializer::deserialize_struct(de, "", fields, visitor)
            });
        }
        let ok = match content.kind() {
            NodeKind::Struct => true,
            NodeKind::Tuple => content.child_count() == 0,
            _ => false,
        };
        if !ok {
            return Err(self.wrong_shape(self.content_words(), "fields in"));
        }
        self.in_variant(content.id, || de.struct_map(visitor))
    }
}

/// Feeds `$start`, `$end`, `$value` to [`crate::Spanned`]'s visitor.
struct SpannedAccess<'a, 'de> {
    start: Option<usize>,
    end: Option<usize>,
    value: Option<ValueDe<'a, 'de>>,
}

impl<'a, 'de> de::MapAccess<'de> for SpannedAccess<'a, 'de> {
    type Error = Box<DeError>;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let key = if self.start.is_some() {
            SPANNED_FIELDS[0]
        } else if self.end.is_some() {
            SPANNED_FIELDS[1]
        } else if self.value.is_some() {
            SPANNED_FIELDS[2]
        } else {
            return Ok(None);
        };
        seed.deserialize(BorrowedKey(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        if let Some(start) = self.start.take() {
            return seed.deserialize(start.into_deserializer());
        }
        if let Some(end) = self.end.take() {
            return seed.deserialize(end.into_deserializer());
        }
        match self.value.take() {
            Some(de) => seed.deserialize(de),
            None => Err(DeError::new(DeErrorKind::Custom(
                "no more values in a span".to_string(),
            ))),
        }
    }
}

/// ron reads ranges in untyped positions as maps `{start, end}`.
struct RangeAccess {
    start: Option<RonNumber>,
    end: Option<RonNumber>,
    value: Option<RonNumber>,
}

impl<'de> de::MapAccess<'de> for RangeAccess {
    type Error = Box<DeError>;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let key = if let Some(n) = self.start.take() {
            self.value = Some(n);
            "start"
        } else if let Some(n) = self.end.take() {
            self.value = Some(n);
            "end"
        } else {
            return Ok(None);
        };
        seed.deserialize(BorrowedKey(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        match self.value.take() {
            Some(n) => seed.deserialize(NumberDe(n)),
            None => Err(DeError::new(DeErrorKind::Custom("range value".to_string()))),
        }
    }
}

struct NumberDe(RonNumber);

impl<'de> de::Deserializer<'de> for NumberDe {
    type Error = Box<DeError>;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        ValueDe::visit_ron_number(self.0, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
