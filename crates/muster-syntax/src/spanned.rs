//! [`Spanned<T>`]: a value together with the byte range it was read from.

use std::fmt;
use std::marker::PhantomData;
use std::ops::Range;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::{Serialize, Serializer};

/// The private newtype name the tree Deserializer recognises.
pub(crate) const SPANNED_NAME: &str = "$muster_syntax::private::Spanned";
pub(crate) const SPANNED_FIELDS: &[&str] = &[
    "$muster_syntax::private::start",
    "$muster_syntax::private::end",
    "$muster_syntax::private::value",
];

/// A value and its byte range in the file (`-1` includes its minus sign).
///
/// Read through this crate's Deserializer the range is exact. Other deserializers that
/// treat newtype structs as transparent (serde_json) give the value with an empty range
/// `0..0`; ron (without `unwrap_newtypes`) cannot read it at all.
///
/// Comparison, hashing and serialisation look at the value only.
#[derive(Clone, Copy, Default)]
pub struct Spanned<T> {
    span: (usize, usize),
    value: T,
}

impl<T> Spanned<T> {
    pub fn new(span: Range<usize>, value: T) -> Self {
        Self {
            span: (span.start, span.end),
            value,
        }
    }

    pub fn span(&self) -> Range<usize> {
        self.span.0..self.span.1
    }

    pub fn get_ref(&self) -> &T {
        &self.value
    }

    pub fn get_mut(&mut self) -> &mut T {
        &mut self.value
    }

    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<T> std::ops::Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: fmt::Debug> fmt::Debug for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} @ {}..{}", self.value, self.span.0, self.span.1)
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Eq> Eq for Spanned<T> {}

impl<T: std::hash::Hash> std::hash::Hash for Spanned<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.value.hash(state)
    }
}

impl<T: Serialize> Serialize for Spanned<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SpannedVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for SpannedVisitor<T> {
            type Value = Spanned<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value with its span")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut start = None;
                let mut end = None;
                let mut value = None;
                while let Some(key) = map.next_key::<&str>()? {
                    if key == SPANNED_FIELDS[0] {
                        start = Some(map.next_value::<usize>()?);
                    } else if key == SPANNED_FIELDS[1] {
                        end = Some(map.next_value::<usize>()?);
                    } else if key == SPANNED_FIELDS[2] {
                        value = Some(map.next_value::<T>()?);
                    } else {
                        return Err(de::Error::custom("not a spanned value"));
                    }
                }
                match (start, end, value) {
                    (Some(start), Some(end), Some(value)) => Ok(Spanned::new(start..end, value)),
                    _ => Err(de::Error::custom("not a spanned value")),
                }
            }

            fn visit_newtype_struct<D: Deserializer<'de>>(
                self,
                deserializer: D,
            ) -> Result<Self::Value, D::Error> {
                T::deserialize(deserializer).map(|value| Spanned::new(0..0, value))
            }
        }

        deserializer.deserialize_newtype_struct(SPANNED_NAME, SpannedVisitor(PhantomData))
    }
}
