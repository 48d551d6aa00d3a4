//! Document symbols (sides, setup groups, reinforcements, special rules, overlays,
//! armies and counters, terrain) and folding ranges, read from the syntax tree so that
//! they follow the text as it is typed.
//!
//! An outline lists at most [`LIST_LIMIT`] entries of one list. The rest of a longer
//! list is one entry, `… N more groups`, whose range covers them: an outline of tens
//! of thousands of entries is no use to read, and costs an editor more to draw than
//! the file costs muster to check.

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

/// The most entries of one list an outline shows (see the module's doc).
pub const LIST_LIMIT: usize = 1000;

/// The symbols of `nodes`, made by `each` (given the node's position in the list), with
/// every node past [`LIST_LIMIT`] folded into one `… N more {what}` symbol.
fn capped<'t>(
    lines: &Lines,
    nodes: Vec<Node<'t>>,
    what: &str,
    kind: SymbolKind,
    mut each: impl FnMut(usize, Node<'t>) -> DocumentSymbol,
) -> Vec<DocumentSymbol> {
    let rest = nodes.get(LIST_LIMIT..).unwrap_or_default();
    let mut out: Vec<DocumentSymbol> = nodes
        .iter()
        .take(LIST_LIMIT)
        .enumerate()
        .map(|(i, n)| each(i, *n))
        .collect();
    if let (Some(first), Some(last)) = (rest.first(), rest.last()) {
        let range = lines.range(&(first.range().start..last.range().end));
        #[allow(deprecated)]
        out.push(DocumentSymbol {
            name: format!("… {} more {what}", rest.len()),
            detail: Some(format!(
                "entries {} to {} of this list",
                LIST_LIMIT + 1,
                nodes.len()
            )),
            kind,
            tags: None,
            deprecated: None,
            range,
            selection_range: range,
            children: None,
        });
    }
    out
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
    let mut out = capped(
        lines,
        list(top, "sides"),
        "sides",
        SymbolKind::CLASS,
        |_, side| {
            let groups = match side.field("forces").and_then(|f| f.value) {
                Some(forces) => capped(
                    lines,
                    list(forces, "setup"),
                    "groups",
                    SymbolKind::ARRAY,
                    |i, g| {
                        let at = g
                            .field("at")
                            .and_then(|f| f.value)
                            .map(|a| a.text().split_whitespace().collect::<Vec<_>>().join(" "));
                        symbol(
                            lines,
                            format!("group {}: {}", i + 1, group_name(g)),
                            at,
                            SymbolKind::ARRAY,
                            g,
                            Vec::new(),
                        )
                    },
                ),
                None => Vec::new(),
            };
            symbol(
                lines,
                text_of(side, "name").unwrap_or_default(),
                text_of(side, "id"),
                SymbolKind::CLASS,
                side,
                groups,
            )
        },
    );
    let reinforcements = list(top, "reinforcements");
    out.extend(capped(
        lines,
        reinforcements,
        "reinforcements",
        SymbolKind::EVENT,
        |_, r| {
            symbol(
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
            )
        },
    ));
    let rules = list(top, "special_rules");
    out.extend(capped(
        lines,
        rules,
        "special rules",
        SymbolKind::FUNCTION,
        |_, rule| {
            symbol(
                lines,
                format!("rule {}", text_of(rule, "hook").unwrap_or_default()),
                None,
                SymbolKind::FUNCTION,
                rule,
                Vec::new(),
            )
        },
    ));
    out
}

/// A map's overlays.
fn map_symbols(top: Node<'_>, lines: &Lines) -> Vec<DocumentSymbol> {
    capped(
        lines,
        list(top, "overlays"),
        "overlays",
        SymbolKind::FIELD,
        |_, o| {
            let what = o.name().unwrap_or("overlay").to_string();
            let detail = text_of(o, "terrain")
                .or_else(|| text_of(o, "feature"))
                .or_else(|| text_of(o, "text"))
                .or_else(|| text_of(o, "hex"));
            symbol(lines, what, detail, SymbolKind::FIELD, o, Vec::new())
        },
    )
}

/// A counter sheet's armies with their counters.
fn counter_symbols(top: Node<'_>, lines: &Lines) -> Vec<DocumentSymbol> {
    capped(
        lines,
        list(top, "armies"),
        "armies",
        SymbolKind::CLASS,
        |_, army| {
            let counters = capped(
                lines,
                list(army, "counters"),
                "counters",
                SymbolKind::CONSTANT,
                |_, c| {
                    symbol(
                        lines,
                        text_of(c, "id").unwrap_or_default(),
                        text_of(c, "name"),
                        SymbolKind::CONSTANT,
                        c,
                        Vec::new(),
                    )
                },
            );
            symbol(
                lines,
                text_of(army, "name").unwrap_or_default(),
                text_of(army, "id"),
                SymbolKind::CLASS,
                army,
                counters,
            )
        },
    )
}

/// A system's unit kinds, terrain and hexside features.
fn system_symbols(top: Node<'_>, lines: &Lines) -> Vec<DocumentSymbol> {
    let mut out = Vec::new();
    for (field, what, kind) in [
        ("unit_kinds", "unit kinds", SymbolKind::ENUM_MEMBER),
        ("terrain", "terrain types", SymbolKind::CONSTANT),
        ("hexside_features", "hexside features", SymbolKind::CONSTANT),
    ] {
        out.extend(capped(lines, list(top, field), what, kind, |_, n| {
            symbol(
                lines,
                text_of(n, "id").unwrap_or_default(),
                text_of(n, "name"),
                kind,
                n,
                Vec::new(),
            )
        }));
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
