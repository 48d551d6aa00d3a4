//! Syntax errors (from the parser) and typed errors (from the Deserializer). Both carry
//! byte ranges into the input; neither is ever produced by a panic.

use std::fmt;
use std::ops::Range;

/// What went wrong while reading the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    /// An opening `(`, `[` or `{` that is never closed; `open` is its span.
    Unclosed { open: Range<usize> },
    /// A string without its closing quote (the range starts at the opening quote).
    UnterminatedString,
    /// A character literal without its closing `'`.
    UnterminatedChar,
    /// A `/* ... */` comment that is never closed.
    UnterminatedComment,
    /// A token that does not fit here (the range is the offending token).
    UnexpectedToken { expected: &'static str },
    /// The end of the input where something else was needed.
    UnexpectedEof { expected: &'static str },
    /// A number token that no reading of the format accepts.
    InvalidNumber,
    /// A string or character with a malformed escape; the range is the escape.
    InvalidEscape { reason: &'static str },
    /// More input after the top-level value.
    TrailingCharacters,
    /// Containers nested deeper than [`crate::MAX_DEPTH`].
    TooDeep,
    /// The input is larger than the tree can address (4 GiB).
    TooLarge,
}

/// One syntax error with the byte range it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub kind: SyntaxErrorKind,
    pub range: Range<usize>,
}

impl SyntaxError {
    pub(crate) fn new(kind: SyntaxErrorKind, range: Range<usize>) -> Self {
        Self { kind, range }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            SyntaxErrorKind::Unclosed { .. } => f.write_str("this bracket is never closed"),
            SyntaxErrorKind::UnterminatedString => f.write_str("unterminated string"),
            SyntaxErrorKind::UnterminatedChar => f.write_str("unterminated character literal"),
            SyntaxErrorKind::UnterminatedComment => f.write_str("unterminated block comment"),
            SyntaxErrorKind::UnexpectedToken { expected } => write!(f, "expected {expected}"),
            SyntaxErrorKind::UnexpectedEof { expected } => {
                write!(f, "unexpected end of file, expected {expected}")
            }
            SyntaxErrorKind::InvalidNumber => f.write_str("invalid number"),
            SyntaxErrorKind::InvalidEscape { reason } => write!(f, "invalid escape: {reason}"),
            SyntaxErrorKind::TrailingCharacters => {
                f.write_str("unexpected text after the end of the value")
            }
            SyntaxErrorKind::TooDeep => write!(f, "nested deeper than {} levels", crate::MAX_DEPTH),
            SyntaxErrorKind::TooLarge => f.write_str("the input is too large"),
        }
    }
}

impl std::error::Error for SyntaxError {}

/// What kind of typed error the Deserializer met.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeErrorKind {
    /// The text has a syntax error here (an `Error` node of the tree).
    Syntax,
    /// A value of the wrong shape: `found` and `expected` are in words.
    InvalidType { found: String, expected: String },
    /// A value of the right shape but not acceptable (`300` for a `u8`).
    InvalidValue { found: String, expected: String },
    /// A list or tuple of the wrong length.
    InvalidLength { len: usize, expected: String },
    /// A required field is absent. The range is the struct's name or opening paren,
    /// `secondary` its end.
    MissingField { field: &'static str },
    /// A field the type does not have; the range is the key.
    UnknownField {
        field: String,
        expected: &'static [&'static str],
    },
    /// A variant the enum does not have; the range is the variant name.
    UnknownVariant {
        variant: String,
        expected: &'static [&'static str],
    },
    /// The same key twice; the range is the second key, `secondary` the first.
    DuplicateKey { key: String },
    /// A struct name that differs from the type's (`Side(` where a `Scenario` goes).
    WrongStructName {
        found: String,
        expected: &'static str,
    },
    /// Any other message from serde or a hand-written `Deserialize`.
    Custom(String),
}

/// A typed error with the place it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeError {
    pub kind: DeErrorKind,
    /// The offending value, key or name.
    pub range: Option<Range<usize>>,
    /// Another place involved (the first key of a duplicate, the end of a struct).
    pub secondary: Option<Range<usize>>,
    /// Field names and indices from the root to the value, outermost first.
    pub path: Vec<PathSegment>,
}

/// One step of [`DeError::path`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    Field(String),
    Index(usize),
}

impl fmt::Display for PathSegment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathSegment::Field(name) => f.write_str(name),
            PathSegment::Index(i) => write!(f, "[{i}]"),
        }
    }
}

impl DeError {
    // Errors travel boxed inside the Deserializer so that `Result`s stay small.
    pub(crate) fn new(kind: DeErrorKind) -> Box<Self> {
        Box::new(Self {
            kind,
            range: None,
            secondary: None,
            path: Vec::new(),
        })
    }

    pub(crate) fn at(kind: DeErrorKind, range: Range<usize>) -> Box<Self> {
        let mut e = Self::new(kind);
        e.range = Some(range);
        e
    }

    /// Gives the error a range if it has none yet (the innermost place wins).
    pub(crate) fn or_at(mut self: Box<Self>, range: Range<usize>) -> Box<Self> {
        if self.range.is_none() {
            self.range = Some(range);
        }
        self
    }

    pub(crate) fn in_path(mut self: Box<Self>, segment: PathSegment) -> Box<Self> {
        self.path.insert(0, segment);
        self
    }

    /// The path as `sides[0].forces`.
    pub fn path_string(&self) -> String {
        let mut out = String::new();
        for seg in &self.path {
            if matches!(seg, PathSegment::Field(_)) && !out.is_empty() {
                out.push('.');
            }
            out.push_str(&seg.to_string());
        }
        out
    }

    /// The message alone, without path or position.
    pub fn message(&self) -> String {
        match &self.kind {
            DeErrorKind::Syntax => "invalid syntax".to_string(),
            DeErrorKind::InvalidType { found, expected } => {
                format!("expected {expected}, found {found}")
            }
            DeErrorKind::InvalidValue { found, expected } => {
                format!("invalid value: {found}, expected {expected}")
            }
            DeErrorKind::InvalidLength { len, expected } => {
                format!("found {len} elements, expected {expected}")
            }
            DeErrorKind::MissingField { field } => format!("missing field `{field}`"),
            DeErrorKind::UnknownField { field, expected } => {
                format!(
                    "unknown field `{field}`, expected one of {}",
                    list(expected)
                )
            }
            DeErrorKind::UnknownVariant { variant, expected } => {
                format!(
                    "unknown variant `{variant}`, expected one of {}",
                    list(expected)
                )
            }
            DeErrorKind::DuplicateKey { key } => format!("duplicate key `{key}`"),
            DeErrorKind::WrongStructName { found, expected } => {
                format!("expected struct `{expected}`, found `{found}`")
            }
            DeErrorKind::Custom(msg) => msg.clone(),
        }
    }
}

fn list(names: &[&str]) -> String {
    if names.is_empty() {
        return "nothing".to_string();
    }
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())?;
        if !self.path.is_empty() {
            write!(f, " (at `{}`)", self.path_string())?;
        }
        if let Some(r) = &self.range {
            write!(f, " [{}..{}]", r.start, r.end)?;
        }
        Ok(())
    }
}

impl std::error::Error for DeError {}

impl serde::de::Error for Box<DeError> {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError::new(DeErrorKind::Custom(msg.to_string()))
    }

    fn invalid_type(unexp: serde::de::Unexpected<'_>, exp: &dyn serde::de::Expected) -> Self {
        DeError::new(DeErrorKind::InvalidType {
            found: unexpected_words(&unexp),
            expected: exp.to_string(),
        })
    }

    fn invalid_value(unexp: serde::de::Unexpected<'_>, exp: &dyn serde::de::Expected) -> Self {
        DeError::new(DeErrorKind::InvalidValue {
            found: unexpected_words(&unexp),
            expected: exp.to_string(),
        })
    }

    fn invalid_length(len: usize, exp: &dyn serde::de::Expected) -> Self {
        DeError::new(DeErrorKind::InvalidLength {
            len,
            expected: exp.to_string(),
        })
    }

    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        DeError::new(DeErrorKind::UnknownVariant {
            variant: variant.to_string(),
            expected,
        })
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        DeError::new(DeErrorKind::UnknownField {
            field: field.to_string(),
            expected,
        })
    }

    fn missing_field(field: &'static str) -> Self {
        DeError::new(DeErrorKind::MissingField { field })
    }

    fn duplicate_field(field: &'static str) -> Self {
        DeError::new(DeErrorKind::DuplicateKey {
            key: field.to_string(),
        })
    }
}

fn unexpected_words(unexp: &serde::de::Unexpected<'_>) -> String {
    use serde::de::Unexpected as U;
    match unexp {
        U::Bool(b) => format!("the boolean `{b}`"),
        U::Unsigned(n) => format!("the number {n}"),
        U::Signed(n) if *n < 0 => format!("the negative number {n}"),
        U::Signed(n) => format!("the number {n}"),
        U::Float(x) => format!("the number {x}"),
        U::Char(c) => format!("the character {c:?}"),
        U::Str(s) => format!("the string {s:?}"),
        U::Bytes(_) => "a byte string".to_string(),
        U::Unit => "`()`".to_string(),
        U::Option => "an optional value".to_string(),
        U::NewtypeStruct => "a newtype struct".to_string(),
        U::Seq => "a list".to_string(),
        U::Map => "a map".to_string(),
        U::Enum => "an enum variant".to_string(),
        U::UnitVariant => "a unit variant".to_string(),
        U::NewtypeVariant => "a newtype variant".to_string(),
        U::TupleVariant => "a tuple variant".to_string(),
        U::StructVariant => "a struct variant".to_string(),
        U::Other(s) => s.to_string(),
    }
}
