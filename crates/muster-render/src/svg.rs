//! Writing SVG text: escaping and numbers with a fixed number of decimals, so that the
//! same input gives the same bytes on every run and platform.

use std::fmt::Write;

use muster_semantic::board::{Board, TurnWeather};

/// Text escaped for an XML attribute value or text node. Every character that is never
/// shown as it is (`muster_db::text::is_hidden`: controls, bidirectional controls,
/// non-characters, among them all that XML 1.0 forbids) is written as the same visible
/// escape the CLI prints (`\n`, `\u{fffe}`), so what a picture shows reads as the
/// CLI's output does.
pub fn esc(text: &str) -> String {
    // Printable ASCII that needs no entity is copied a run at a time.
    let plain =
        |b: u8| (0x20..0x7f).contains(&b) && !matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let run = rest.bytes().take_while(|b| plain(*b)).count();
        out.push_str(&rest[..run]);
        rest = &rest[run..];
        let Some(c) = rest.chars().next() else {
            break;
        };
        rest = &rest[c.len_utf8()..];
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if muster_db::text::is_hidden(c) => muster_db::text::push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate with one decimal; `-0.0` is written `0`.
pub fn n(value: f64) -> String {
    if !value.is_finite() {
        return "0".to_string();
    }
    let rounded = (value * 10.0).round() / 10.0;
    if rounded == 0.0 {
        return "0".to_string();
    }
    let text = format!("{rounded:.1}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

/// `x,y x,y ...` for a `points` attribute.
pub fn points(list: &[(f64, f64)]) -> String {
    let mut out = String::new();
    for (i, (x, y)) in list.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{},{}", n(*x), n(*y));
    }
    out
}

/// What every board begins with after its `<svg ...>` tag: the title, the arrowhead
/// that entry arrows use, the paper and the heading at `margin` from the left.
pub fn preamble(out: &mut String, title: &str, width: f64, height: f64, margin: f64) {
    let _ = writeln!(out, "<title>{}</title>", esc(title));
    out.push_str("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#333\"/></marker></defs>\n");
    let _ = writeln!(
        out,
        "<rect width=\"{}\" height=\"{}\" fill=\"#f6f3ea\"/>",
        n(width),
        n(height)
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"30\" font-size=\"18\" font-weight=\"bold\" fill=\"#222\">{}</text>",
        n(margin),
        esc(title)
    );
}

/// The weather line of a board's turn (`Weather: Mud`), or `None` when the scenario
/// keeps no turn record; a turn the record leaves out says so rather than guess.
pub fn weather_line(weather: &TurnWeather) -> Option<String> {
    match weather {
        TurnWeather::NoRecord => None,
        TurnWeather::NotGiven => Some("Weather: not given in the turn record".to_string()),
        TurnWeather::Given { name, .. } => Some(format!("Weather: {name}")),
    }
}

/// The `data-weather` value of a board's weather line: the kind's id, empty when the
/// record gives none.
pub fn weather_id(weather: &TurnWeather) -> &str {
    match weather {
        TurnWeather::Given { id, .. } => id,
        TurnWeather::NoRecord | TurnWeather::NotGiven => "",
    }
}

/// Writes the weather line of `board` at `y` of the legend (nothing without a turn
/// record) and returns the `y` below it.
pub fn legend_weather(out: &mut String, board: &Board, y: f64) -> f64 {
    let Some(line) = weather_line(&board.weather) else {
        return y;
    };
    let _ = writeln!(
        out,
        "<text class=\"legend-weather\" data-weather=\"{}\" y=\"{}\">{}</text>",
        esc(weather_id(&board.weather)),
        n(y),
        esc(&short(&line, 40))
    );
    y + 18.0
}

/// Cuts a name to `max` characters, with an ellipsis.
pub fn short(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs of plain text are copied whole, and the result is the one a character at a
    /// time gives, over every character class at every position.
    #[test]
    fn escaping_by_runs_is_escaping_by_characters() {
        let one_by_one = |text: &str| -> String {
            text.chars()
                .map(|c| match c {
                    '&' => "&amp;".to_string(),
                    '<' => "&lt;".to_string(),
                    '>' => "&gt;".to_string(),
                    '"' => "&quot;".to_string(),
                    '\'' => "&#39;".to_string(),
                    c if muster_db::text::is_hidden(c) => {
                        let mut out = String::new();
                        muster_db::text::push_escape(&mut out, c);
                        out
                    }
                    c => c.to_string(),
                })
                .collect()
        };
        let parts = [
            "ab", "&", "<", ">", "\"", "'", "\u{1}", "\u{7f}", "é", "\u{202e}", "\u{fffe}", "\n",
            " ", "~",
        ];
        for a in parts {
            for b in parts {
                for c in parts {
                    let text = format!("{a}{b}{c}");
                    assert_eq!(esc(&text), one_by_one(&text), "{text:?}");
                }
            }
        }
    }

    #[test]
    fn numbers_and_escaping() {
        assert_eq!(n(1.25), "1.3");
        assert_eq!(n(2.0), "2");
        assert_eq!(n(-0.01), "0");
        assert_eq!(n(f64::NAN), "0");
        assert_eq!(
            esc("a<b & \"c\"\u{1}\u{fffe}\u{202e}\r\n"),
            "a&lt;b &amp; &quot;c&quot;\\u{1}\\u{fffe}\\u{202e}\\r\\n"
        );
        assert_eq!(esc("'x'\u{7f}é"), "&#39;x&#39;\\u{7f}é");
        assert_eq!(short("Charles le Chauve", 8), "Charles…");
        assert_eq!(points(&[(0.0, 1.0), (2.5, 3.0)]), "0,1 2.5,3");
    }
}
