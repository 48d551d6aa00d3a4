//! VASSAL's sequence encoding: fields joined by one delimiter, a delimiter inside a field
//! written with a backslash before it, and a field that starts with a backslash (or is
//! wrapped in single quotes) wrapped in single quotes. Traits of a piece nest by joining
//! with a tab, so the same rule escapes every level.

/// Joins `fields` with `delim`, escaping as VASSAL reads them back.
pub fn encode<S: AsRef<str>>(fields: &[S], delim: char) -> String {
    let mut out = String::new();
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(delim);
        }
        let field = field.as_ref();
        let quoted = field.starts_with('\\')
            || (field.len() > 1 && field.starts_with('\'') && field.ends_with('\''));
        if quoted {
            out.push('\'');
        }
        for c in field.chars() {
            if c == delim {
                out.push('\\');
            }
            out.push(c);
        }
        if quoted {
            out.push('\'');
        }
    }
    out
}

/// Splits what [`encode`] (or VASSAL) wrote with `delim` back into its fields.
pub fn decode(text: &str, delim: char) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut previous: Option<char> = None;
    for c in text.chars() {
        if c == delim {
            if previous == Some('\\') {
                field.pop();
                field.push(c);
                // An escaped delimiter does not escape the next one.
                previous = None;
                continue;
            }
            fields.push(unquote(std::mem::take(&mut field)));
        } else {
            field.push(c);
        }
        previous = Some(c);
    }
    fields.push(unquote(field));
    fields
}

fn unquote(field: String) -> String {
    if field.len() > 1 && field.starts_with('\'') && field.ends_with('\'') {
        field[1..field.len() - 1].to_string()
    } else {
        field
    }
}

/// A piece's traits, outermost first, each `(type, state)`, nested as VASSAL nests them
/// (each outer trait's type followed by the tab-escaped type of everything inside it).
pub fn nest(traits: &[(String, String)]) -> (String, String) {
    let mut ty = String::new();
    let mut state = String::new();
    for (i, (t, s)) in traits.iter().enumerate().rev() {
        if i + 1 == traits.len() {
            ty = t.clone();
            state = s.clone();
        } else {
            ty = encode(&[t.as_str(), ty.as_str()], '\t');
            state = encode(&[s.as_str(), state.as_str()], '\t');
        }
    }
    (ty, state)
}

/// The traits of a nested type or state, outermost first: the reverse of [`nest`].
pub fn unnest(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text.to_string();
    loop {
        let mut parts = decode(&rest, '\t');
        if parts.len() < 2 {
            out.push(rest);
            return out;
        }
        let first = parts.remove(0);
        out.push(first);
        // Whatever followed the first tab, re-joined: decode split it further only where
        // a tab was not escaped, which cannot happen inside a nested piece.
        rest = parts.join("\t");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_the_delimiter_come_back_whole() {
        let fields = ["a;b", "", "\\start", "'q'", "plain"];
        let text = encode(&fields, ';');
        assert_eq!(text, "a\\;b;;'\\start';''q'';plain");
        assert_eq!(decode(&text, ';'), fields);
    }

    #[test]
    fn nested_traits_come_back_in_order() {
        let traits = vec![
            ("mark;Side".to_string(), "Franks".to_string()),
            ("prototype;Cavalry".to_string(), String::new()),
            ("piece;;;a.png;Name".to_string(), "null;0;0;;0".to_string()),
        ];
        let (ty, state) = nest(&traits);
        let types: Vec<String> = traits.iter().map(|t| t.0.clone()).collect();
        let states: Vec<String> = traits.iter().map(|t| t.1.clone()).collect();
        assert_eq!(unnest(&state), states);
        assert_eq!(unnest(&ty), types);
        // The innermost trait's tab is escaped once per level around it.
        assert_eq!(ty, "mark;Side\tprototype;Cavalry\\\tpiece;;;a.png;Name");
    }
}
