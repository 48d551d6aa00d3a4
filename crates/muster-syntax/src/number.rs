//! Number literals read exactly as ron 0.12 and serde_json read them. ron decides how
//! to read a number from the type it wants (`1e5` is a float for `f64` and an invalid
//! digit for `u8`), so each reader takes the token text and reports how many bytes it
//! consumed; a reading that stops before the end of the token is an error, as in ron
//! (which would then fail on the leftover characters).

/// A number as ron's untyped reader (`deserialize_any`) produces it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum RonNumber {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
}

/// The integer types ron reads, with their bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntTy {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
}

impl IntTy {
    fn bounds(self) -> (i128, i128) {
        match self {
            IntTy::I8 => (i8::MIN as i128, i8::MAX as i128),
            IntTy::I16 => (i16::MIN as i128, i16::MAX as i128),
            IntTy::I32 => (i32::MIN as i128, i32::MAX as i128),
            IntTy::I64 => (i64::MIN as i128, i64::MAX as i128),
            IntTy::U8 => (0, u8::MAX as i128),
            IntTy::U16 => (0, u16::MAX as i128),
            IntTy::U32 => (0, u32::MAX as i128),
            IntTy::U64 => (0, u64::MAX as i128),
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            IntTy::I8 => "i8",
            IntTy::I16 => "i16",
            IntTy::I32 => "i32",
            IntTy::I64 => "i64",
            IntTy::U8 => "u8",
            IntTy::U16 => "u16",
            IntTy::U32 => "u32",
            IntTy::U64 => "u64",
        }
    }

    const SUFFIXES: [(&'static str, IntTy); 8] = [
        ("i8", IntTy::I8),
        ("i16", IntTy::I16),
        ("i32", IntTy::I32),
        ("i64", IntTy::I64),
        ("u8", IntTy::U8),
        ("u16", IntTy::U16),
        ("u32", IntTy::U32),
        ("u64", IntTy::U64),
    ];
}

/// Why an integer reading failed (only the distinctions ron's fallbacks need).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntError {
    /// Out of the type's range; `at` is where ron's cursor stops.
    OutOfRange { at: usize },
    /// Anything else (bad digit, no digits, underscore first, wrong suffix).
    Invalid { at: usize },
}

impl IntError {
    fn at(self) -> usize {
        match self {
            IntError::OutOfRange { at } | IntError::Invalid { at } => at,
        }
    }
}

fn is_int_char(c: u8) -> bool {
    c.is_ascii_hexdigit() || c == b'_'
}

fn is_float_char(c: u8) -> bool {
    c.is_ascii_digit() || matches!(c, b'e' | b'E' | b'.' | b'+' | b'-' | b'_')
}

fn run_len(s: &[u8], from: usize, f: fn(u8) -> bool) -> usize {
    s.get(from..)
        .map_or(0, |rest| rest.iter().take_while(|b| f(**b)).count())
}

/// `s[at..]` starts with `ident` not followed by an identifier character.
fn has_ident(s: &str, at: usize, ident: &str) -> bool {
    s.get(at..).is_some_and(|rest| {
        rest.starts_with(ident)
            && !rest[ident.len()..]
                .chars()
                .next()
                .is_some_and(unicode_ident::is_xid_continue)
    })
}

/// ron's `parse_integer`: digits (with `_`) at `from` in `base`, range-checked.
fn parse_digits(
    s: &[u8],
    from: usize,
    negative: bool,
    base: u32,
    ty: IntTy,
) -> Result<(i128, usize), IntError> {
    let n = run_len(s, from, is_int_char);
    if n == 0 {
        return Err(IntError::Invalid { at: from });
    }
    if s[from] == b'_' {
        return Err(IntError::Invalid { at: from });
    }
    let (min, max) = ty.bounds();
    let mut acc: i128 = 0;
    for (i, &c) in s[from..from + n].iter().enumerate() {
        if c == b'_' {
            continue;
        }
        acc *= base as i128;
        if acc < min || acc > max {
            return Err(IntError::OutOfRange { at: from + n });
        }
        let digit = (c as char).to_digit(16).unwrap_or(99);
        if digit >= base {
            return Err(IntError::Invalid { at: from + i });
        }
        if negative {
            acc -= digit as i128;
        } else {
            acc += digit as i128;
        }
        if acc < min || acc > max {
            return Err(IntError::OutOfRange { at: from + n });
        }
    }
    Ok((acc, from + n))
}

/// Which integer type a reading yields: a fixed one, or the smallest fitting one (ron's
/// `ParsedInteger`, used by `deserialize_any`).
#[derive(Clone, Copy)]
enum Want {
    Ty(IntTy),
    Any,
}

fn classify(v: i128, negative: bool) -> RonNumber {
    if negative {
        if let Ok(x) = i8::try_from(v) {
            RonNumber::I8(x)
        } else if let Ok(x) = i16::try_from(v) {
            RonNumber::I16(x)
        } else if let Ok(x) = i32::try_from(v) {
            RonNumber::I32(x)
        } else {
            RonNumber::I64(v as i64)
        }
    } else if let Ok(x) = u8::try_from(v) {
        RonNumber::U8(x)
    } else if let Ok(x) = u16::try_from(v) {
        RonNumber::U16(x)
    } else if let Ok(x) = u32::try_from(v) {
        RonNumber::U32(x)
    } else {
        RonNumber::U64(v as u64)
    }
}

fn typed(v: i128, ty: IntTy) -> RonNumber {
    match ty {
        IntTy::I8 => RonNumber::I8(v as i8),
        IntTy::I16 => RonNumber::I16(v as i16),
        IntTy::I32 => RonNumber::I32(v as i32),
        IntTy::I64 => RonNumber::I64(v as i64),
        IntTy::U8 => RonNumber::U8(v as u8),
        IntTy::U16 => RonNumber::U16(v as u16),
        IntTy::U32 => RonNumber::U32(v as u32),
        IntTy::U64 => RonNumber::U64(v as u64),
    }
}

/// ron's `Parser::integer`: returns the value and the bytes consumed.
fn integer(s: &str, want: Want) -> Result<(RonNumber, usize), IntError> {
    let b = s.as_bytes();
    if let Some(rest) = s.strip_prefix("b'") {
        let end = rest.find('\'').map(|i| i + 3);
        let byte = end.and_then(|e| crate::string::ron_byte(&s[..e]));
        return match (byte, end) {
            (Some(byte), Some(end)) => match want {
                Want::Any | Want::Ty(IntTy::U8) => Ok((RonNumber::U8(byte), end)),
                Want::Ty(_) => Err(IntError::Invalid { at: 0 }),
            },
            _ => Err(IntError::Invalid { at: 0 }),
        };
    }
    let mut pos = 0;
    let negative = match b.first() {
        Some(b'+') => {
            pos = 1;
            false
        }
        Some(b'-') => {
            pos = 1;
            true
        }
        _ => false,
    };
    let base = match b.get(pos..pos + 2) {
        Some(b"0b") => 2,
        Some(b"0o") => 8,
        Some(b"0x") => 16,
        _ => 10,
    };
    if base != 10 {
        pos += 2;
    }
    let digits = run_len(b, pos, is_int_char);
    let after = pos + digits;
    if matches!(b.get(after), Some(b'i' | b'u')) {
        for (suffix, ty) in IntTy::SUFFIXES {
            if has_ident(s, after, suffix) {
                let parsed = parse_digits(b, pos, negative, base, ty);
                return match parsed {
                    Ok((v, _)) => match want {
                        Want::Ty(t) if t != ty => Err(IntError::Invalid { at: 0 }),
                        _ => Ok((typed(v, ty), after + suffix.len())),
                    },
                    Err(e) => Err(e),
                };
            }
        }
    }
    match want {
        Want::Ty(ty) => {
            parse_digits(b, pos, negative, base, ty).map(|(v, end)| (typed(v, ty), end))
        }
        Want::Any => {
            let ty = if negative { IntTy::I64 } else { IntTy::U64 };
            parse_digits(b, pos, negative, base, ty).map(|(v, end)| (classify(v, negative), end))
        }
    }
}

/// The common case, read without ron's general reader: plain decimal digits with an
/// optional `-`, short enough to fit an `i64`/`u64` (so every reading of them succeeds).
/// Returns the value and whether it had a minus sign.
#[inline]
fn plain_decimal(s: &str) -> Option<(i128, bool)> {
    let b = s.as_bytes();
    let (negative, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 18 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut v: i64 = 0;
    for &d in digits {
        v = v * 10 + i64::from(d - b'0');
    }
    Some((
        if negative {
            -i128::from(v)
        } else {
            i128::from(v)
        },
        negative,
    ))
}

/// Reads an integer of type `ty`; `None` unless ron reads the whole token that way.
pub(crate) fn ron_integer(s: &str, ty: IntTy) -> Result<RonNumber, IntError> {
    if let Some((v, _)) = plain_decimal(s) {
        let (min, max) = ty.bounds();
        if (min..=max).contains(&v) {
            return Ok(typed(v, ty));
        }
    }
    match integer(s, Want::Ty(ty)) {
        Ok((n, end)) if end == s.len() => Ok(n),
        Ok((_, end)) => Err(IntError::Invalid { at: end }),
        Err(e) => Err(e),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum FloatTy {
    F32,
    F64,
    /// ron's `ParsedFloat`: `f32` when the value survives the round trip, else `f64`.
    Any,
}

fn parse_float_text(f: &str, ty: FloatTy) -> Option<RonNumber> {
    match ty {
        FloatTy::F32 => f.parse::<f32>().ok().map(RonNumber::F32),
        FloatTy::F64 => f.parse::<f64>().ok().map(RonNumber::F64),
        FloatTy::Any => {
            let v = f.parse::<f64>().ok()?;
            if v.is_nan() {
                return Some(RonNumber::F32(if v.is_sign_negative() {
                    -f32::NAN
                } else {
                    f32::NAN
                }));
            }
            if v.total_cmp(&f64::from(v as f32)).is_eq() {
                Some(RonNumber::F32(v as f32))
            } else {
                Some(RonNumber::F64(v))
            }
        }
    }
}

/// A float read with an explicit suffix must match the wanted type.
fn suffixed(n: RonNumber, ty: FloatTy) -> Option<RonNumber> {
    match (n, ty) {
        (_, FloatTy::Any) => Some(n),
        (RonNumber::F32(_), FloatTy::F32) | (RonNumber::F64(_), FloatTy::F64) => Some(n),
        _ => None,
    }
}

/// ron's `Parser::float`: the value and the bytes consumed.
fn float(s: &str, ty: FloatTy) -> Option<(RonNumber, usize)> {
    const LITERALS: [(&str, f32, f64); 6] = [
        ("inf", f32::INFINITY, f64::INFINITY),
        ("+inf", f32::INFINITY, f64::INFINITY),
        ("-inf", f32::NEG_INFINITY, f64::NEG_INFINITY),
        ("NaN", f32::NAN, f64::NAN),
        ("+NaN", f32::NAN, f64::NAN),
        ("-NaN", f32::NAN, f64::NAN),
    ];
    for (literal, v32, v64) in LITERALS {
        let neg_nan = literal == "-NaN";
        if has_ident(s, 0, literal) {
            return parse_float_text(literal, ty).map(|n| (n, literal.len()));
        }
        if s.starts_with(literal) {
            let end = literal.len() + 3;
            if has_ident(s, literal.len(), "f32") {
                let v = if neg_nan { -v32 } else { v32 };
                return suffixed(RonNumber::F32(v), ty).map(|n| (n, end));
            }
            if has_ident(s, literal.len(), "f64") {
                let v = if neg_nan { -v64 } else { v64 };
                return suffixed(RonNumber::F64(v), ty).map(|n| (n, end));
            }
        }
    }
    let b = s.as_bytes();
    let raw = run_len(b, 0, is_float_char);
    let num_bytes = s[..raw].find("..").unwrap_or(raw);
    if num_bytes == 0 || b[0] == b'_' {
        return None;
    }
    let mut f = String::with_capacity(num_bytes);
    let mut allow_underscore = false;
    for &c in &b[..num_bytes] {
        match c {
            b'_' if allow_underscore => continue,
            b'_' => return None,
            b'0'..=b'9' | b'e' | b'E' => allow_underscore = true,
            b'.' => allow_underscore = false,
            _ => {}
        }
        f.push(c as char);
    }
    if b.get(num_bytes) == Some(&b'f') {
        if has_ident(s, num_bytes, "f32") {
            let n = f.parse::<f32>().ok().map(RonNumber::F32)?;
            return suffixed(n, ty).map(|n| (n, num_bytes + 3));
        }
        if has_ident(s, num_bytes, "f64") {
            let n = f.parse::<f64>().ok().map(RonNumber::F64)?;
            return suffixed(n, ty).map(|n| (n, num_bytes + 3));
        }
    }
    parse_float_text(&f, ty).map(|n| (n, num_bytes))
}

/// Reads a float of the given type; `None` unless ron reads the whole text that way.
pub(crate) fn ron_float(s: &str, ty: FloatTy) -> Option<RonNumber> {
    match float(s, ty) {
        Some((n, end)) if end == s.len() => Some(n),
        _ => None,
    }
}

/// ron's `next_bytes_is_float`.
fn looks_like_float(s: &str) -> bool {
    let b = s.as_bytes();
    let skip = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let raw = run_len(b, skip, is_float_char);
    let float_len = s[skip..skip + raw].find("..").unwrap_or(raw).min(raw);
    let int_len = run_len(b, skip, is_int_char);
    float_len > int_len
}

/// ron's `any_number` (what `deserialize_any` reads); `None` unless it reads the whole
/// text. Also used to decide whether a number token is valid RON at all.
pub(crate) fn ron_any_number(s: &str) -> Option<RonNumber> {
    let (n, end) = any_number(s)?;
    (end == s.len()).then_some(n)
}

fn any_number(s: &str) -> Option<(RonNumber, usize)> {
    for (ident, n) in [
        ("inf", RonNumber::F32(f32::INFINITY)),
        ("inff32", RonNumber::F32(f32::INFINITY)),
        ("inff64", RonNumber::F64(f64::INFINITY)),
        ("NaN", RonNumber::F32(f32::NAN)),
        ("NaNf32", RonNumber::F32(f32::NAN)),
        ("NaNf64", RonNumber::F64(f64::NAN)),
    ] {
        if has_ident(s, 0, ident) {
            return Some((n, ident.len()));
        }
    }
    if looks_like_float(s) {
        return float(s, FloatTy::Any);
    }
    match integer(s, Want::Any) {
        Ok(found) => Some(found),
        Err(err) => {
            let (n, end) = float(s, FloatTy::Any)?;
            (end >= err.at()).then_some((n, end))
        }
    }
}

/// Whether an identifier token is one of the float literals ron reads as a number.
pub(crate) fn is_float_ident(s: &str) -> bool {
    matches!(s, "inf" | "inff32" | "inff64" | "NaN" | "NaNf32" | "NaNf64")
}

/// A JSON number as serde_json reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum JsonNumber {
    U64(u64),
    I64(i64),
    F64(f64),
}

/// serde_json's grammar and reading (integers that overflow become floats, `-0` is a
/// float, floats out of range are errors).
pub(crate) fn json_number(s: &str) -> Option<JsonNumber> {
    let b = s.as_bytes();
    let mut i = 0;
    let negative = b.first() == Some(&b'-');
    if negative {
        i = 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        _ => return None,
    }
    let int_end = i;
    let mut is_float = false;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return None;
        }
        is_float = true;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return None;
        }
        is_float = true;
    }
    if i != b.len() {
        return None;
    }
    if !is_float {
        let digits = &s[usize::from(negative)..int_end];
        if let Ok(v) = digits.parse::<u64>() {
            if !negative {
                return Some(JsonNumber::U64(v));
            }
            if v == 0 {
                return Some(JsonNumber::F64(-0.0));
            }
            if let Some(n) = 0i64.checked_sub_unsigned(v) {
                return Some(JsonNumber::I64(n));
            }
        }
    }
    let v: f64 = s.parse().ok()?;
    v.is_finite().then_some(JsonNumber::F64(v))
}

/// What ron's `deserialize_any` reads from a number token: a number, or one of the
/// range forms (`1..2`, `1..=2`, `1..`, `..2`, `..=2`, `..`) it turns into maps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum AnyNumber {
    Number(RonNumber),
    /// `start..end` / `start..=end` / `start..` / `..end` / `..=end`.
    Range {
        start: Option<RonNumber>,
        end: Option<RonNumber>,
    },
    /// `..` alone (ron reads it as unit).
    Unit,
}

fn is_any_number_start(s: &str) -> bool {
    let b = s.as_bytes();
    match b.first() {
        Some(b'0'..=b'9' | b'+' | b'-' | b'.') => true,
        Some(b'b') => s.starts_with("b'"),
        _ => ["inf", "inff32", "inff64", "NaN", "NaNf32", "NaNf64"]
            .iter()
            .any(|i| has_ident(s, 0, i)),
    }
}

/// ron's untyped number reading, ranges included; `None` unless the whole text is read.
pub(crate) fn ron_any(s: &str) -> Option<AnyNumber> {
    if let Some((v, negative)) = plain_decimal(s) {
        return Some(AnyNumber::Number(classify(v, negative)));
    }
    let whole = |n: Option<(RonNumber, usize)>, rest: &str| -> Option<RonNumber> {
        let (n, end) = n?;
        (end == rest.len()).then_some(n)
    };
    if let Some(rest) = s.strip_prefix("..=") {
        return Some(AnyNumber::Range {
            start: None,
            end: Some(whole(any_number(rest), rest)?),
        });
    }
    if let Some(rest) = s.strip_prefix("..") {
        if rest.is_empty() || !is_any_number_start(rest) {
            return rest.is_empty().then_some(AnyNumber::Unit);
        }
        return Some(AnyNumber::Range {
            start: None,
            end: Some(whole(any_number(rest), rest)?),
        });
    }
    let (start, used) = any_number(s)?;
    let rest = &s[used..];
    if rest.is_empty() {
        return Some(AnyNumber::Number(start));
    }
    let after = rest
        .strip_prefix("..=")
        .or_else(|| rest.strip_prefix(".."))?;
    let inclusive = rest.starts_with("..=");
    if after.is_empty() && !inclusive {
        return Some(AnyNumber::Range {
            start: Some(start),
            end: None,
        });
    }
    Some(AnyNumber::Range {
        start: Some(start),
        end: Some(whole(any_number(after), after)?),
    })
}
