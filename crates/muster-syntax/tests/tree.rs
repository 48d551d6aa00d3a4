//! Unit tests of the tree, its errors and the Deserializer's errors and spans.

use std::collections::BTreeMap;

use muster_syntax::{
    CommentAnchor, DeErrorKind, Dialect, NodeKind, SpanKey, Spanned, SyntaxErrorKind, TokenKind,
    from_tree, from_tree_with_spans, parse, parse_json, parse_ron,
};
use serde::Deserialize;

fn concat(text: &str, dialect: Dialect) -> String {
    parse(text, dialect).tokens().map(|t| t.text).collect()
}

fn errors(text: &str) -> Vec<(SyntaxErrorKind, std::ops::Range<usize>)> {
    parse_ron(text)
        .errors()
        .iter()
        .map(|e| (e.kind.clone(), e.range.clone()))
        .collect()
}

/// The text of every file under `scenarios/` (at least a dozen).
fn bundled_texts() -> Vec<String> {
    let root = muster_testkit::repo().join("scenarios");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(root).expect("scenarios").flatten() {
        for file in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if let Ok(text) = std::fs::read_to_string(file.path()) {
                out.push(text);
            }
        }
    }
    assert!(out.len() > 10, "bundled files found: {}", out.len());
    out
}

#[test]
fn round_trip_is_lossless() {
    let samples = [
        "",
        "\u{FEFF}Scenario(id: \"x\", // c\n /* b /* nested */ */ turns: 5,)",
        "(a: [1, 2,], b: {\"k\": 'c'}, c: r#\"raw \"q\"\"#, d: Some(North), e: -1.5e3)",
        "(\"unterminated",
        "/* unterminated",
        "é漢 ## @@ \u{85}\u{2028} ...",
        "{\"a\": [true, false, null, -0.5e+3]}",
    ];
    for s in samples {
        assert_eq!(concat(s, Dialect::Ron), s);
        assert_eq!(concat(s, Dialect::Json), s);
    }
    for text in bundled_texts() {
        assert_eq!(concat(&text, Dialect::Ron), text);
    }
}

#[test]
fn numbers_and_words_are_the_number_and_identifier_tokens() {
    let check = |text: &str| {
        for dialect in [Dialect::Ron, Dialect::Json] {
            let tree = parse(text, dialect);
            let scanned: Vec<(TokenKind, &str)> = tree
                .tokens()
                .filter(|t| matches!(t.kind, TokenKind::Number | TokenKind::Ident))
                .map(|t| (t.kind, t.text))
                .collect();
            let indexed: Vec<(TokenKind, &str)> = tree.numbers_and_words().collect();
            assert_eq!(indexed, scanned, "{dialect:?}: {text}");
        }
    };
    for s in [
        "",
        "\u{FEFF}(a: 1, b: -inf, c: NaN, d: 0x1F, e: 1_000, f: r#id)",
        "{\"a\": [true, false, null, -0.5e+3, 12]}",
        "(\"unterminated 12",
        "1 2 3 abc @@ 4.5.6",
    ] {
        check(s);
    }
    for text in bundled_texts() {
        check(&text);
    }
}

#[test]
fn comments_are_the_comment_tokens() {
    let check = |text: &str| {
        for dialect in [Dialect::Ron, Dialect::Json] {
            let tree = parse(text, dialect);
            let scanned: Vec<(usize, usize)> = tree
                .tokens()
                .filter(|t| matches!(t.kind, TokenKind::LineComment | TokenKind::BlockComment))
                .map(|t| t.range)
                .collect();
            let indexed: Vec<(usize, usize)> = tree.comments().map(|c| c.range).collect();
            assert_eq!(indexed, scanned, "{dialect:?}: {text}");
            for c in tree.comments() {
                assert_eq!(c.text, &text[c.range.0..c.range.1]);
                assert_eq!(c.block, c.text.starts_with("/*"));
            }
        }
    };
    for s in [
        "",
        "// only a comment",
        "(a: 1, // after\n /* b /* nested */ */ b: 2) // end",
        "/* unterminated",
        "{\"a\": 1} // JSON has none",
    ] {
        check(s);
    }
    for text in bundled_texts() {
        check(&text);
    }
}

#[test]
fn unclosed_points_at_the_end_and_names_the_opening() {
    assert_eq!(
        errors("(a: [1, 2"),
        vec![
            (SyntaxErrorKind::Unclosed { open: 4..5 }, 9..9),
            (SyntaxErrorKind::Unclosed { open: 0..1 }, 9..9),
        ]
    );
    // A wrong closer: the list is unclosed where the `)` stands.
    assert_eq!(
        errors("([1, 2)")[0],
        (SyntaxErrorKind::Unclosed { open: 1..2 }, 6..7)
    );
}

#[test]
fn unterminated_literals_start_at_their_opening() {
    assert_eq!(
        errors("(a: \"abc")[0],
        (SyntaxErrorKind::UnterminatedString, 4..8)
    );
    assert_eq!(errors("'a")[0], (SyntaxErrorKind::UnterminatedChar, 0..2));
    assert_eq!(
        errors("1 /* x")[0],
        (SyntaxErrorKind::UnterminatedComment, 2..6)
    );
    assert_eq!(
        errors("r#\"abc")[0],
        (SyntaxErrorKind::UnterminatedString, 0..6)
    );
}

#[test]
fn unexpected_token_is_the_offending_token() {
    let text = "[6,,7]";
    let e = &errors(text)[0];
    assert!(matches!(e.0, SyntaxErrorKind::UnexpectedToken { .. }));
    assert_eq!(e.1, 3..4, "the second comma");
    assert_eq!(
        errors("(a: 1 b: 2)")[0],
        (
            SyntaxErrorKind::UnexpectedToken {
                expected: "`,` or `)`"
            },
            6..7
        )
    );
    assert_eq!(
        errors("")[0],
        (
            SyntaxErrorKind::UnexpectedEof {
                expected: "a value"
            },
            0..0
        )
    );
}

#[test]
fn invalid_numbers_escapes_and_trailing_text() {
    assert_eq!(errors("[1x]")[0], (SyntaxErrorKind::InvalidNumber, 1..3));
    assert_eq!(errors("[1.2.3]")[0], (SyntaxErrorKind::InvalidNumber, 1..6));
    let (kind, range) = errors("\"a\\qb\"")[0].clone();
    assert!(matches!(kind, SyntaxErrorKind::InvalidEscape { .. }));
    assert_eq!(range, 2..4);
    assert_eq!(
        errors("1 2 3")[0],
        (SyntaxErrorKind::TrailingCharacters, 2..5)
    );
    let json = parse_json("{\"a\": 01}");
    assert_eq!(json.errors()[0].kind, SyntaxErrorKind::InvalidNumber);
    assert_eq!(json.errors()[0].range, 6..8);
    let json = parse_json("[1,]");
    assert!(!json.errors().is_empty(), "JSON has no trailing commas");
}

#[test]
fn multibyte_text_before_an_error_keeps_byte_offsets() {
    let text = "(\"é漢\", 6,,)";
    let e = &errors(text)[0];
    assert_eq!(&text[e.1.clone()], ",");
    assert_eq!(e.1.start, text.rfind(",,").map(|i| i + 1).unwrap_or(0));
}

#[test]
fn error_at_end_of_file_lies_inside_the_input() {
    for text in ["[1, 2", "(a:", "\"x", "Some(", "{\"k\":", "é"] {
        for e in parse_ron(text).errors() {
            assert!(
                e.range.start <= e.range.end && e.range.end <= text.len(),
                "{text:?}: {e:?}"
            );
        }
        for e in parse_json(text).errors() {
            assert!(e.range.end <= text.len(), "{text:?}: {e:?}");
        }
    }
}

#[test]
fn depth_is_bounded_without_recursion() {
    let deep = "[".repeat(200_000);
    let tree = parse_ron(&deep);
    let too_deep: Vec<_> = tree
        .errors()
        .iter()
        .filter(|e| e.kind == SyntaxErrorKind::TooDeep)
        .collect();
    assert_eq!(too_deep.len(), 1);
    assert_eq!(too_deep[0].range, 128..129);
    let closed = format!("{}{}", "(".repeat(300), ")".repeat(300));
    let tree = parse_ron(&closed);
    assert!(
        tree.errors()
            .iter()
            .any(|e| e.kind == SyntaxErrorKind::TooDeep)
    );
    assert!(
        !tree
            .errors()
            .iter()
            .any(|e| matches!(e.kind, SyntaxErrorKind::Unclosed { .. }))
    );
    let json = format!("{}{}", "[".repeat(129), "]".repeat(129));
    assert!(
        parse_json(&json)
            .errors()
            .iter()
            .any(|e| e.kind == SyntaxErrorKind::TooDeep)
    );
    let ok = format!("{}{}", "[".repeat(128), "]".repeat(128));
    assert!(parse_json(&ok).errors().is_empty());
}

#[test]
fn bom_is_trivia() {
    let text = "\u{FEFF}(a: 1)";
    let tree = parse_ron(text);
    assert!(tree.errors().is_empty());
    assert_eq!(tree.tokens().next().map(|t| t.kind), Some(TokenKind::Bom));
    assert_eq!(tree.value().map(|v| v.range()), Some(3..9));
    let json = parse_json("\u{FEFF}{}");
    assert!(json.errors().is_empty());
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Adjustment {
    points: Spanned<i16>,
    reason: Spanned<String>,
}

#[test]
fn spanned_values_carry_their_range_with_sign() {
    let text = "(points: -1, reason: \"é\")";
    let tree = parse_ron(text);
    let a: Adjustment = from_tree(&tree).expect("reads");
    assert_eq!(*a.points.get_ref(), -1);
    assert_eq!(&text[a.points.span()], "-1");
    assert_eq!(&text[a.reason.span()], "\"é\"");
    let json = "{\"points\": -1, \"reason\": \"x\"}";
    let tree = parse_json(json);
    let a: Adjustment = from_tree(&tree).expect("reads");
    assert_eq!(&json[a.points.span()], "-1");
    // serde_json treats the newtype as transparent: the value, without a span.
    let plain: Adjustment = serde_json::from_str(json).expect("serde_json");
    assert_eq!(plain.points.span(), 0..0);
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Unit {
    counter: String,
    #[serde(default)]
    count: u8,
    at: Place,
}

#[derive(Debug, Deserialize, PartialEq)]
enum Place {
    Hexes(Vec<String>),
    North,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Setup {
    units: Vec<Unit>,
}

#[test]
fn type_errors_say_what_was_found_and_where() {
    let text = "(units: [(counter: \"a\", count: \"6\", at: North)])";
    let tree = parse_ron(text);
    let e = from_tree::<Setup>(&tree).expect_err("a string for a u8");
    let r = e.range.clone().expect("range");
    assert_eq!(&text[r], "\"6\"");
    assert_eq!(e.path_string(), "units[0].count");
    match &e.kind {
        DeErrorKind::InvalidType { found, expected } => {
            assert_eq!(found, "the string \"6\"");
            assert_eq!(expected, "u8");
        }
        other => panic!("{other:?}"),
    }
    let text = "(units: [(counter: \"a\", count: -1, at: North)])";
    let tree = parse_ron(text);
    let e = from_tree::<Setup>(&tree).expect_err("negative");
    assert!(e.to_string().contains("negative number"), "{e}");
    assert_eq!(&text[e.range.clone().expect("range")], "-1");
    let text = "(units: [(counter: \"a\", count: 300, at: North)])";
    let e = from_tree::<Setup>(&parse_ron(text)).expect_err("out of range");
    assert!(matches!(e.kind, DeErrorKind::InvalidValue { .. }), "{e:?}");
    let text = "(units: (counter: \"a\"))";
    let e = from_tree::<Setup>(&parse_ron(text)).expect_err("a struct for a list");
    assert!(e.to_string().contains("a struct"), "{e}");
}

#[test]
fn missing_unknown_and_variant_errors_point_at_names() {
    let text = "Setup(units: [Unit(counter: \"a\")])";
    let tree = parse_ron(text);
    let e = from_tree::<Setup>(&tree).expect_err("missing at");
    assert_eq!(e.kind, DeErrorKind::MissingField { field: "at" });
    assert_eq!(&text[e.range.clone().expect("range")], "Unit");
    assert_eq!(&text[e.secondary.clone().expect("end")], ")");

    let text = "(units: [(counter: \"a\", colour: 1, at: North)])";
    let e = from_tree::<Setup>(&parse_ron(text)).expect_err("unknown field");
    assert_eq!(&text[e.range.clone().expect("range")], "colour");
    match e.kind {
        DeErrorKind::UnknownField { field, expected } => {
            assert_eq!(field, "colour");
            assert_eq!(expected, &["counter", "count", "at"]);
        }
        other => panic!("{other:?}"),
    }

    let text = "(units: [(counter: \"a\", at: Hexs([\"0101\"]))])";
    let e = from_tree::<Setup>(&parse_ron(text)).expect_err("unknown variant");
    assert_eq!(&text[e.range.clone().expect("range")], "Hexs");
    assert!(
        matches!(e.kind, DeErrorKind::UnknownVariant { expected, .. } if expected == ["Hexes", "North"])
    );

    let text = "Wrong(units: [])";
    let e = from_tree::<Setup>(&parse_ron(text)).expect_err("struct name");
    assert_eq!(&text[e.range.clone().expect("range")], "Wrong");
}

#[test]
fn duplicate_keys_point_at_both() {
    let text = "(units: [], units: [])";
    let e = from_tree::<Setup>(&parse_ron(text)).expect_err("duplicate");
    assert!(matches!(e.kind, DeErrorKind::DuplicateKey { .. }));
    assert_eq!(e.range, Some(12..17));
    assert_eq!(e.secondary, Some(1..6));

    // A map (RON `{}` or JSON object): reported, and reading goes on with the last
    // value, as ron and serde_json read it.
    let text = "{\"k\": \"a\", \"k\": \"b\"}";
    for tree in [parse_ron(text), parse_json(text)] {
        let reading = muster_syntax::read::<BTreeMap<String, String>>(&tree);
        assert_eq!(reading.value.expect("read")["k"], "b");
        assert_eq!(reading.duplicate_keys.len(), 1);
        assert_eq!(reading.duplicate_keys[0].range, Some(11..14));
        assert_eq!(reading.duplicate_keys[0].secondary, Some(1..4));
    }

    // Keys that share their length and first bytes are still told apart by the rest,
    // and long keys given twice are still found.
    let text =
        "{\"victory_points\": \"a\", \"victory_pointz\": \"b\", \"victory_points_x\": \"c\"}";
    let tree = parse_json(text);
    let reading = muster_syntax::read::<BTreeMap<String, String>>(&tree);
    assert_eq!(reading.value.expect("read").len(), 3);
    assert!(reading.duplicate_keys.is_empty());
    let text = "{\"a_long_key_name\": \"a\", \"b\": \"b\", \"a_long_key_name\": \"c\"}";
    let tree = parse_json(text);
    let reading = muster_syntax::read::<BTreeMap<String, String>>(&tree);
    assert_eq!(reading.duplicate_keys.len(), 1);
    assert_eq!(reading.duplicate_keys[0].secondary, Some(1..18));
}

#[test]
fn comments_and_the_nodes_they_belong_to() {
    let text = "(\n    // muster: allow(off-map) reason: printed so\n    at: North,\n    count: 2, // assumed: not printed\n    /* block */ counter: \"a\",\n)";
    let tree = parse_ron(text);
    let comments: Vec<_> = tree.comments().collect();
    assert_eq!(comments.len(), 3);
    assert_eq!(
        comments[0].body(),
        "muster: allow(off-map) reason: printed so"
    );
    assert_eq!(comments[1].body(), "assumed: not printed");
    assert!(comments[2].block);
    match tree.comment_anchor(&comments[0]) {
        Some(CommentAnchor::Leading(node)) => {
            assert_eq!(node.kind(), NodeKind::Field);
            assert_eq!(node.text(), "at: North");
        }
        other => panic!("{other:?}"),
    }
    match tree.comment_anchor(&comments[1]) {
        Some(CommentAnchor::Trailing(node)) => assert_eq!(node.text(), "count: 2"),
        other => panic!("{other:?}"),
    }
    match tree.comment_anchor(&comments[2]) {
        Some(CommentAnchor::Leading(node)) => assert_eq!(node.name(), Some("counter")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn node_lookup_and_fields() {
    let text = "Scenario(id: \"x\", sides: [(id: \"a\", forces: Placed(setup: []))])";
    let tree = parse_ron(text);
    let root = tree.value().expect("value");
    assert_eq!(root.kind(), NodeKind::Struct);
    assert_eq!(root.name(), Some("Scenario"));
    let id = root.field("id").expect("id");
    assert_eq!(&text[id.key_range()], "id");
    assert_eq!(id.value.map(|v| v.text()), Some("\"x\""));
    let at = text.find("Placed").unwrap_or(0) + 2;
    let node = tree.node_at(at);
    assert_eq!(node.kind(), NodeKind::Struct);
    assert_eq!(node.name(), Some("Placed"));
    let inner = tree.node_at(text.find("\"a\"").unwrap_or(0));
    assert_eq!(inner.kind(), NodeKind::String);
    assert_eq!(inner.parent().map(|p| p.kind()), Some(NodeKind::Field));
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Doc {
    sides: Vec<Side>,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Side {
    at: Place,
    params: Option<serde_json::Value>,
}

#[test]
fn span_index_follows_the_serde_layout() {
    let text =
        "(sides: [(at: North), (at: Hexes([\"0101\", \"0202\"]), params: Some({\"k\": [1]}))])";
    let tree = parse_ron(text);
    let (doc, spans) = from_tree_with_spans::<Doc>(&tree);
    assert!(doc.is_ok());
    let node = spans.pointer("/sides/1/at/Hexes/1").expect("pointer");
    assert_eq!(node.text(), "\"0202\"");
    let node = spans.pointer("/sides/1/params/k/0").expect("params");
    assert_eq!(node.text(), "1");
    assert_eq!(
        spans.pointer("/sides/0/at").map(|n| n.text()),
        Some("North")
    );
    assert!(spans.pointer("/sides/2").is_none());
    assert!(spans.iter().any(|(p, _)| p == "/sides/1/at/Hexes/0"));
}

#[test]
fn random_bytes_never_panic_and_stay_inside() {
    let mut state: u64 = 42;
    let alphabet: Vec<char> = "()[]{}:,\"'/*#-+._0123456789eExrbaZ \n\té漢\\\u{FEFF}"
        .chars()
        .collect();
    for _ in 0..3000 {
        let mut s = String::new();
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let len = (state >> 58) as usize;
        for _ in 0..len {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s.push(alphabet[(state >> 33) as usize % alphabet.len()]);
        }
        for dialect in [Dialect::Ron, Dialect::Json] {
            let tree = parse(&s, dialect);
            assert_eq!(tree.tokens().map(|t| t.text).collect::<String>(), s);
            for e in tree.errors() {
                assert!(e.range.start <= e.range.end && e.range.end <= s.len());
            }
            for i in 0..tree_len(&tree) {
                if let Some(n) = tree.node(node_id(&tree, i)) {
                    let r = n.range();
                    assert!(r.start <= r.end && r.end <= s.len());
                }
            }
            let _ = from_tree::<serde_json::Value>(&tree);
            let _ = from_tree::<Doc>(&tree);
        }
    }
}

fn tree_len(tree: &muster_syntax::Tree) -> usize {
    let mut n = 0;
    let mut stack = vec![tree.root()];
    while let Some(node) = stack.pop() {
        n += 1;
        stack.extend(node.children());
    }
    n
}

fn node_id(tree: &muster_syntax::Tree, i: usize) -> muster_syntax::NodeId {
    let mut stack = vec![tree.root()];
    let mut k = 0;
    while let Some(node) = stack.pop() {
        if k == i {
            return node.id();
        }
        k += 1;
        stack.extend(node.children());
    }
    tree.root().id()
}

#[test]
fn detached_spans_find_values_and_their_nearest_enclosing_value() {
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Side {
        id: String,
        at: Vec<String>,
    }
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Doc {
        sides: Vec<Side>,
    }
    let text = "Doc(sides: [(id: \"a\", at: [\"0101\", \"0102\"]), (id: \"b\", at: [])])";
    let tree = muster_syntax::parse_ron(text);
    let (value, index) = muster_syntax::from_tree_with_spans::<Doc>(&tree);
    assert!(value.is_ok());
    let spans = index.detach();
    let key = |k: &'static str| SpanKey::Key(k.into());
    let found = spans
        .find(
            &tree,
            [
                key("sides"),
                SpanKey::Index(0),
                key("at"),
                SpanKey::Index(1),
            ],
        )
        .unwrap();
    assert!(found.exact);
    assert_eq!(found.node.text(), "\"0102\"");
    let found = spans
        .find(&tree, [key("sides"), SpanKey::Index(1), key("id")])
        .unwrap();
    assert!(found.exact);
    assert_eq!(found.node.text(), "\"b\"");
    let found = spans
        .find(
            &tree,
            [
                key("sides"),
                SpanKey::Index(1),
                key("at"),
                SpanKey::Index(3),
            ],
        )
        .unwrap();
    assert!(!found.exact);
    assert_eq!(found.node.text(), "[]");
    // A position is not a key, nor a key a position.
    let found = spans
        .find(&tree, [key("sides"), key("0"), key("id")])
        .unwrap();
    assert!(!found.exact);
    let found = spans.find(&tree, []).unwrap();
    assert!(found.exact);
    assert_eq!(found.node.range(), 0..text.len());
}

#[test]
fn the_top_level_id_is_found_by_lexing_alone() {
    use muster_syntax::{Dialect, top_level_string};
    let ron = "// a comment with id: \"no\"\nScenario(\n    sides: [(id: \"inner\")],\n    id: \"jeng\\u{e9}land\",\n)";
    assert_eq!(
        top_level_string(ron, Dialect::Ron, "id").as_deref(),
        Some("jengéland")
    );
    let json = "{\"sides\": [{\"id\": \"inner\"}], \"id\": \"jengland\"}";
    assert_eq!(
        top_level_string(json, Dialect::Json, "id").as_deref(),
        Some("jengland")
    );
    assert_eq!(
        top_level_string("Scenario(id: 3)", Dialect::Ron, "id"),
        None
    );
    assert_eq!(
        top_level_string("Scenario(name: \"x\")", Dialect::Ron, "id"),
        None
    );
    assert_eq!(top_level_string("(id: \"cut", Dialect::Ron, "id"), None);
}

#[test]
fn a_tree_finds_the_top_level_id_as_lexing_does() {
    use muster_syntax::{Dialect, parse, top_level_string};
    let cases = [
        (
            "// id: \"no\"\nScenario(\n    sides: [(id: \"inner\")],\n    id: \"jeng\\u{e9}land\",\n)",
            Dialect::Ron,
        ),
        (
            "{\"sides\": [{\"id\": \"inner\"}], \"id\": \"jengland\"}",
            Dialect::Json,
        ),
        ("Scenario(id: 3)", Dialect::Ron),
        ("Scenario(name: \"x\")", Dialect::Ron),
        ("(id: \"cut", Dialect::Ron),
        ("Scenario(id: \"a\" \"b\", turns: )", Dialect::Ron),
        ("Scenario(id: \"a\", turns: [)", Dialect::Ron),
        ("Scenario(id: r#\"raw\"#, /* open", Dialect::Ron),
        ("{\"id\": \"a\\q\"}", Dialect::Json),
        ("", Dialect::Ron),
    ];
    for (text, dialect) in cases {
        assert_eq!(
            parse(text, dialect).top_level_string("id"),
            top_level_string(text, dialect, "id"),
            "{text}"
        );
    }
}

#[test]
fn finding_a_value_costs_the_steps_of_its_path_not_the_records_before_it() {
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Side {
        id: String,
        at: Vec<String>,
    }
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Doc {
        sides: Vec<Side>,
    }
    let n = 3_000;
    let sides: Vec<String> = (0..n)
        .map(|k| format!("(id: \"s{k}\", at: [\"0101\", \"0102\"])"))
        .collect();
    let text = format!("Doc(sides: [{}])", sides.join(", "));
    let tree = muster_syntax::parse_ron(&text);
    let (value, index) = muster_syntax::from_tree_with_spans::<Doc>(&tree);
    assert!(value.is_ok());
    let spans = index.detach();
    let key = |k: &'static str| SpanKey::Key(k.into());
    let before = muster_syntax::Spans::records_examined();
    // Every side's id, as a file with a diagnostic on every side asks.
    for k in 0..n {
        let found = spans
            .find(&tree, [key("sides"), SpanKey::Index(k), key("id")])
            .unwrap();
        assert!(found.exact);
        assert_eq!(found.node.text(), format!("\"s{k}\""));
    }
    let examined = muster_syntax::Spans::records_examined() - before;
    // A scan from the parent passes the records of every side before the one asked for:
    // about 5 x n x n / 2 in all.
    let bound = 3 * 3 * u64::from(n);
    assert!(
        examined <= bound,
        "{examined} records examined for {n} lookups"
    );
}

/// A node's position among its parent's children, for every node of a file with a long
/// list, empty items and nesting.
#[test]
fn index_in_parent_is_the_position_among_siblings() {
    let items = (0..300)
        .map(|i| format!("\"h{i}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let text = format!("(a: [{items}], b: [[], [1, [2, 3]], ()], c: Some(\"x\"))");
    let tree = muster_syntax::parse_ron(&text);
    let mut stack = vec![tree.root()];
    let mut seen = 0;
    while let Some(n) = stack.pop() {
        assert_eq!(n.parent().map(|_| ()), n.index_in_parent().map(|_| ()));
        for (k, child) in n.children().enumerate() {
            assert_eq!(child.index_in_parent(), Some(k), "{:?}", child.range());
            seen += 1;
            stack.push(child);
        }
    }
    assert!(seen > 300);
}

/// `node_at` halves each node's children; it must find the node that a plain walk down
/// the tree finds (the first child covering the offset, an empty child counted one byte
/// long), at every offset of the bundled files and of broken and empty-valued texts.
#[test]
fn node_at_finds_what_a_plain_walk_finds() {
    fn walk(tree: &muster_syntax::Tree, offset: usize) -> muster_syntax::NodeId {
        let mut node = tree.root();
        'down: loop {
            for child in node.children() {
                let r = child.range();
                if r.start <= offset && offset < r.end.max(r.start + 1) {
                    node = child;
                    continue 'down;
                }
            }
            return node.id();
        }
    }
    let mut texts = bundled_texts();
    texts.extend(
        [
            "Scenario(sides: [], x: (), y: [1, , 2], z: {\"a\": })",
            "Map(id: \"m\", overlays: [Terrain(area: All), // note\n Terrain(",
            "[(), [], {}, \"\", (a: [])]",
            "Doc(a: 1,,, b: [[[]]], c: \"unterminated",
        ]
        .map(String::from),
    );
    for text in &texts {
        let tree = parse_ron(text);
        for offset in 0..=text.len() + 1 {
            assert_eq!(
                tree.node_at(offset).id(),
                walk(&tree, offset),
                "offset {offset} of {:?}",
                &text[..text.len().min(60)]
            );
        }
    }
}
