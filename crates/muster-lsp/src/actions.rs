//! Code actions: the "did you mean" replacement, a suppression comment, and for an
//! over-stacked hex its free neighbours. Everything an action needs travels in the
//! diagnostic's `data` or in the request, so no action parses the file again.

use std::collections::HashMap;
use std::ops::Range;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, NumberOrString, Position,
    TextEdit, Uri, WorkspaceEdit,
};
use muster_db::Db;
use muster_hex::HexId;
use muster_semantic::{FileCx, ScenarioCx};

use crate::pos::Lines;

/// The stacking check whose findings get "move to a free hex" actions.
pub const OVER_STACKED: &str = "stacking::over-stacked";

/// For each over-stacked hex among `diagnostics` (by the span of the hex written), the
/// neighbouring hexes on the map that can be entered and where nothing stands at the
/// set-up, with their terrain.
pub fn free_hexes(
    db: &Db,
    index: usize,
    diagnostics: &[muster_db::Diagnostic],
) -> HashMap<Range<usize>, Vec<(String, String)>> {
    let mut out = HashMap::new();
    let stacked: Vec<&muster_db::Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.code == OVER_STACKED)
        .collect();
    if stacked.is_empty() {
        return out;
    }
    let Some(cx) = FileCx::new(db, index).and_then(ScenarioCx::new) else {
        return out;
    };
    let Some(map) = cx.map else { return out };
    let board = cx.board(1);
    // Looked up once per neighbour, not by a walk through every piece: a file may have
    // thousands of over-stacked hexes.
    let occupied: std::collections::HashSet<HexId> = board.pieces.iter().map(|p| p.hex).collect();
    for d in stacked {
        let written = d.file.text.get(d.span.clone()).unwrap_or("");
        let Ok(hex) = HexId::parse(written.trim_matches('"')) else {
            continue;
        };
        let free: Vec<(String, String)> = map
            .neighbours(hex)
            .into_iter()
            .filter(|n| map.is_enterable(*n) && !occupied.contains(n))
            .map(|n| {
                (
                    n.to_string(),
                    map.terrain_id_at(n).unwrap_or_default().to_string(),
                )
            })
            .collect();
        out.insert(d.span.clone(), free);
    }
    out
}

fn edit(uri: &Uri, range: lsp_types::Range, text: String) -> WorkspaceEdit {
    WorkspaceEdit::new(HashMap::from([(
        uri.clone(),
        vec![TextEdit::new(range, text)],
    )]))
}

fn quickfix(
    title: String,
    edit: WorkspaceEdit,
    diagnostic: &lsp_types::Diagnostic,
) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic.clone()]),
        edit: Some(edit),
        ..CodeAction::default()
    })
}

/// The actions for the muster diagnostics of a request.
pub fn code_actions(params: &CodeActionParams, text: &str, json: bool) -> Vec<CodeActionOrCommand> {
    let uri = &params.text_document.uri;
    let lines = Lines::new(text);
    let mut out = Vec::new();
    for d in &params.context.diagnostics {
        if d.source.as_deref() != Some("muster") {
            continue;
        }
        let code = match &d.code {
            Some(NumberOrString::String(code)) => code.as_str(),
            _ => continue,
        };
        let data = d.data.as_ref();
        if let (Some(replace), Some(suggestion)) = (
            data.and_then(|v| v.get("replace")).and_then(|v| v.as_str()),
            data.and_then(|v| v.get("suggestion"))
                .and_then(|v| v.as_str()),
        ) {
            let CodeActionOrCommand::CodeAction(mut action) = quickfix(
                format!("Replace with `{suggestion}`"),
                edit(uri, d.range, replace.to_string()),
                d,
            ) else {
                continue;
            };
            action.is_preferred = Some(true);
            out.push(CodeActionOrCommand::CodeAction(action));
        }
        for free in data
            .and_then(|v| v.get("free_hexes"))
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            let (Some(hex), Some(terrain), Some(replace)) = (
                free.get("hex").and_then(|v| v.as_str()),
                free.get("terrain").and_then(|v| v.as_str()),
                free.get("replace").and_then(|v| v.as_str()),
            ) else {
                continue;
            };
            out.push(quickfix(
                format!("Move to the free neighbouring hex `{hex}` ({terrain})"),
                edit(uri, d.range, replace.to_string()),
                d,
            ));
        }
        // JSON has no comments, so no suppression there.
        if !json && muster_check::suppress::suppressible(code) {
            let line = d.range.start.line;
            let start = lines.offset(Position::new(line, 0));
            let indent: String = text[start..]
                .chars()
                .take_while(|c| *c == ' ' || *c == '\t')
                .collect();
            let at = lsp_types::Range::new(Position::new(line, 0), Position::new(line, 0));
            out.push(quickfix(
                format!("Allow `{code}` on this line (with a reason)"),
                edit(
                    uri,
                    at,
                    format!("{indent}// muster: allow({code}) reason: TODO say why\n"),
                ),
                d,
            ));
        }
    }
    out
}
