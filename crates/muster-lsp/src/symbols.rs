//! Document symbols (sides, setup groups, reinforcements, special rules, overlays,
//! armies and counters, terrain) and folding ranges, read from the syntax tree so that
//! they follow the text as it is typed.

use lsp_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, SymbolKind};
use muster_model::FileKind;
use muster_syntax::{Node, NodeKind, Tree};

use crate::cursor;
use crate::pos::Lines;

fn text_of(node: Node<'_>, field: &str) -> Option<String> {
    let mut value = node.field(field)?.value?;
    if value.kind() == NodeKind::Tuple && value.name() == Some("Some") {
        value = value.child(0)?;
    }
    cursor::string_value(value).or_else(|| Some(value.text().to_string()))
}

#[allow(deprecated)]
fn symbol(
    lines: &Lines,
    name: String,
    detail: Option<String>,
    kind: SymbolKind,
    node: Node<'_>,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    let range = lines.range(&node.range());
    DocumentSymbol {
        name: if name.is_empty() {
            "?".to_string()
        } else {
            name
        },
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: range,
        children: (!children.is_empty()).then_some(children),
    }
}

fn list<'t>(node: Node<'t>, field: &str) -> Vec<Node<'t>> {
    node.field(field)
        .and_then(|f| f.value)
        .map(|l| l.children().collect())
        .unwrap_or_default()
}

/// A setup group in words: `2 x saxe, 1 x ecuyers`.
fn group_name(group: Node<'_>) -> String {
    list(group, "units")
        .into_iter()
        .map(|u| {
            let id = text_of(u, "counter")
                .or_else(|| text_of(u, "kind"))
                .unwrap_or_default();
            match text_of(u, "count") {
                Some(n) => format!("{n} x {id}"),
                None => id,
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn document_symbols(tree: &Tree, kind: FileKind, lines: &Lines) -> Vec<DocumentSymbol> {
    let Some(top) = tree.value() else {
        return Vec::new();
    };
    match kind {
        FileKind::Scenario => scenario_symbols(top, lines),
        FileKind::Map => map_symbols(top, lines),
        FileKind::Counters => counter_symbols(top, lines),
        FileKind::System => system_symbols(top, lines),
    }
}

/// A scenario's sides with their setup groups, its reinforcements and special rules.
fn scenario_symbols(top: Node<'_>, lines: &Lines) -> Vec<DocumentSymbol> {
    let mut out = Vec::new();
    for side in list(top, "sides") {
        let mut groups = Vec::new();
        if let Some(forces) = side.field("forces").and_then(|f| f.value) {
            let setup = list(forces, "setup");
            for (i, g) in setup.into_iter().enumerate() {
                let at = g
                    .field("at")
                    .and_then(|f| f.value)
                    .map(|a| a.text().split_whitespace().collect::<Vec<_>>().join(" "));
                groups.push(symbol(
                    lines,
                    format!("group {}: {}", i + 1, group_name(g)),
                    at,
                    SymbolKind::ARRAY,
                    g,
                    Vec::new(),
                ));
            }
        }
        out.push(symbol(
            lines,
            text_of(side, "name").unwrap_or_default(),
            text_of(side, "id"),
            SymbolKind::CLASS,
            side,
            groups,
        ));
    }
    for r in list(top, "reinforcements") {
        out.push(symbol(
            lines,
            format!(
                "reinforcements T{} ({})",
                text_of(r, "turn").unwrap_or_default(),
                text_of(r, "side").unwrap_or_default()
            ),
            Some(group_name(r)),
            SymbolKind::EVENT,
            r,
            Vec::new(),
        ));
    }
    for rule in list(top, "special_rules") {
        out.push(symbol(
            lines,
            format!("rule {}", text_of(rule, "hook").unwrap_or_default()),
            None,
            SymbolKind::FUNCTION,
            rule,
            Vec::new(),
        ));
    }
    out
}

/// A map's overlays.
fn map_symbols(top: Node<'_>, lines: &Lines) -> Vec<DocumentSymbol> {
    let mut out = Vec::new();
    for o in list(top, "overlays") {
        let what = o.name().unwrap_or("overlay").to_string();
        let detail = text_of(o, "terrain")
            .or_else(|| text_of(o, "feature"))
            .or_else(|| text_of(o, "text"))
            .or_else(|| text_of(o, "hex"));
        out.push(symbol(
            lines,
            what,
            detail,
            SymbolKind::FIELD,
            o,
            Vec::new(),
        ));
    }
    out
}

/// A counter sheet's armies with their counters.
fn counter_symbols(top: Node<'_>, lines: &Lines) -> Vec<DocumentSymbol> {
    let mut out = Vec::new();
    for army in list(top, "armies") {
        let counters = list(army, "counters")
            .into_iter()
            .map(|c| {
                symbol(
                    lines,
                    text_of(c, "id").unwrap_or_default(),
                    text_of(c, "name"),
                    SymbolKind::CONSTANT,
                    c,
                    Vec::new(),
                )
            })
            .collect();
        out.push(symbol(
            lines,
            text_of(army, "name").unwrap_or_default(),
            text_of(army, "id"),
            SymbolKind::CLASS,
            army,
            counters,
        ));
    }
    out
}

/// A system's unit kinds, terrain and hexside features.
fn system_symbols(top: Node<'_>, lines: &Lines) -> Vec<DocumentSymbol> {
    let mut out = Vec::new();
    for (field, kind) in [
        ("unit_kinds", SymbolKind::ENUM_MEMBER),
        ("terrain", SymbolKind::CONSTANT),
        ("hexside_features", SymbolKind::CONSTANT),
    ] {
        for n in list(top, field) {
            out.push(symbol(
                lines,
                text_of(n, "id").unwrap_or_default(),
                text_of(n, "name"),
                kind,
                n,
                Vec::new(),
            ));
        }
    }
    out
}

/// A fold for every bracketed value and every run of comment lines that spans lines.
pub fn folding_ranges(tree: &Tree, lines: &Lines) -> Vec<FoldingRange> {
    let mut out = Vec::new();
    let mut stack = vec![tree.root()];
    while let Some(n) = stack.pop() {
        stack.extend(n.children());
        if !matches!(
            n.kind(),
            NodeKind::Struct | NodeKind::Tuple | NodeKind::List | NodeKind::Map
        ) {
            continue;
        }
        let (Some(open), Some(close)) = (n.open_range(), n.close_range()) else {
            continue;
        };
        let (start, end) = (
            lines.position(open.start).line,
            lines.position(close.start).line,
        );
        if end > start + 1 || (end > start && n.kind() != NodeKind::Document) {
            out.push(FoldingRange {
                start_line: start,
                start_character: None,
                end_line: end.saturating_sub(1).max(start),
                end_character: None,
                kind: Some(FoldingRangeKind::Region),
                collapsed_text: None,
            });
        }
    }
    let mut run: Option<(u32, u32)> = None;
    for c in tree.comments() {
        let line = lines.position(c.range().start).line;
        let last = lines.position(c.range().end).line;
        run = match run {
            Some((s, e)) if line == e + 1 => Some((s, last)),
            Some((s, e)) => {
                if e > s {
                    out.push(comment_fold(s, e));
                }
                Some((line, last))
            }
            None => Some((line, last)),
        };
    }
    if let Some((s, e)) = run
        && e > s
    {
        out.push(comment_fold(s, e));
    }
    out.sort_by_key(|f| (f.start_line, f.end_line));
    out
}

fn comment_fold(start: u32, end: u32) -> FoldingRange {
    FoldingRange {
        start_line: start,
        start_character: None,
        end_line: end,
        end_character: None,
        kind: Some(FoldingRangeKind::Comment),
        collapsed_text: None,
    }
}
