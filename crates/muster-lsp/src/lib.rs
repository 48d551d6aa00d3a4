//! `muster lsp`: a language server over standard input and output.
//!
//! A request is served from the open buffers, never from a stale save: every buffer is
//! part of an overlay (`muster_db::project::Overlay`) that the loader reads in place
//! of the disk. Per project root the systems, counter sheets and maps are loaded once
//! (`Workspace`, reloaded when one of them changes on disk or in a buffer); scenarios
//! are loaded on top as leaves, checked with `muster_check::validate` (so `muster.toml`
//! levels and in-file suppressions apply) and dropped, as `muster validate` does.
//! After each batch of messages the changed buffers and the open buffers that depend
//! on them (`muster_ide::watch::DepGraph`) are re-checked and published.
//!
//! Requests about a buffer share one analysis of it (`workspace::Analysis`: the project
//! with the buffer loaded, its syntax tree, its hook references), made again only after
//! a notification or a change of the project on disk: a multi-megabyte scenario is read
//! and checked once per edit, not once per request.
//!
//! Positions are UTF-16 (the protocol's default): byte spans go through the text's
//! line table (`pos`). What is under the cursor comes from the syntax tree and the
//! JSON-pointer path of the node (`cursor`). Every request runs under
//! `catch_unwind`: a panic is an `InternalError` answer, never a dead server.

mod actions;
mod complete;
pub mod cursor;
mod diag;
mod goto;
mod hover;
pub mod pos;
mod symbols;
mod transport;
pub mod uri;
mod workspace;

pub use cursor::hook_refs_worked;
pub use hover::scenarios_built;
pub use symbols::LIST_LIMIT as OUTLINE_LIST_LIMIT;
pub use workspace::leaves_loaded;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    CodeActionParams, CodeActionProviderCapability, CompletionOptions, CompletionParams,
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DocumentSymbolParams, FoldingRangeParams, FoldingRangeProviderCapability, GotoDefinitionParams,
    GotoDefinitionResponse, Hover, HoverContents, HoverParams, HoverProviderCapability, Location,
    MarkupContent, MarkupKind, OneOf, PositionEncodingKind, PublishDiagnosticsParams,
    ReferenceParams, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
};
use serde_json::Value;

use crate::pos::Lines;
use crate::workspace::{Doc, Workspace};

/// Serves the protocol on standard input and output until `exit`.
pub fn run_stdio() -> Result<(), String> {
    let (connection, client) = Connection::memory();
    let Connection {
        sender: to_server,
        receiver: from_server,
    } = client;
    // Standard input: frames read here, so that a frame that is not JSON-RPC gets a
    // parse error and the server reads on, and an absurd length is refused unread.
    // Left running at exit: it may be blocked on a read that never returns.
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        loop {
            match transport::read_frame(&mut input) {
                Ok(Some(message)) => {
                    if to_server.send(message).is_err() {
                        break;
                    }
                }
                Ok(None) => break,
                Err(transport::FrameError::Malformed(why)) => transport::write_parse_error(&why),
                Err(transport::FrameError::Io) => break,
            }
        }
    });
    let writer = std::thread::spawn(move || {
        for message in from_server {
            let mut out = std::io::stdout().lock();
            if message.write(&mut out).is_err() {
                break;
            }
        }
    });
    let result = serve(&connection);
    drop(connection);
    writer
        .join()
        .map_err(|_| "language server output failed".to_string())?;
    result
}

/// What the server can do.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["\"".into(), "(".into(), ":".into(), ",".into()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    }
}

/// The initialize handshake, then the message loop until `exit`.
pub fn serve(connection: &Connection) -> Result<(), String> {
    let (id, _params) = connection
        .initialize_start()
        .map_err(|e| format!("language server: {e}"))?;
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": {"name": "muster", "version": env!("CARGO_PKG_VERSION")},
    });
    connection
        .initialize_finish(id, result)
        .map_err(|e| format!("language server: {e}"))?;
    let mut server = Server::default();
    loop {
        let Ok(first) = connection.receiver.recv() else {
            return Err("the client closed the connection without `exit`".to_string());
        };
        // Messages already waiting are handled together: a burst of typing is checked
        // once.
        let mut batch = vec![first];
        while let Ok(more) = connection.receiver.try_recv() {
            batch.push(more);
        }
        for message in batch {
            let (out, exit) = server.handle(message);
            for m in out {
                let _ = connection.sender.send(m);
            }
            if let Some(result) = exit {
                return result;
            }
        }
        for m in server.publish() {
            let _ = connection.sender.send(m);
        }
    }
}

/// The most diagnostics published for one file; beyond them one more says how many
/// are left out. An editor shows no more than this usefully, and a file with hundreds of
/// thousands of problems (a list repeated many times) would otherwise send gigabytes.
pub const MAX_PUBLISHED: usize = 1000;

/// The most locations one `textDocument/references` answer lists; beyond them the
/// editor is told how many are left out. A name repeated hundreds of thousands of times
/// would otherwise cost seconds and gigabytes to answer, and no editor lists it usefully.
pub const MAX_REFERENCES: usize = 10_000;

/// The server's state and its handling of one message at a time (testable without a
/// transport).
#[derive(Default)]
pub struct Server {
    ws: Workspace,
    shut_down: bool,
    /// Buffers closed since the last publication: their diagnostics are cleared.
    closed: Vec<Uri>,
    /// Messages for the user that the request being answered gave rise to, sent after
    /// its response.
    notes: Vec<Message>,
}

type Failure = (ErrorCode, String);

fn params<P: serde::de::DeserializeOwned>(value: Value) -> Result<P, Failure> {
    serde_json::from_value(value)
        .map_err(|e| (ErrorCode::InvalidParams, format!("invalid parameters: {e}")))
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

impl Server {
    /// Handles one message: the messages to send, and `Some(result)` on `exit`.
    pub fn handle(&mut self, message: Message) -> (Vec<Message>, Option<Result<(), String>>) {
        match message {
            Message::Request(req) => {
                let mut out = vec![Message::Response(self.request(req))];
                out.append(&mut self.notes);
                (out, None)
            }
            Message::Notification(n) if n.method == "exit" => {
                let result = if self.shut_down {
                    Ok(())
                } else {
                    Err("`exit` before `shutdown`".to_string())
                };
                (Vec::new(), Some(result))
            }
            Message::Notification(n) => {
                let method = n.method.clone();
                match catch_unwind(AssertUnwindSafe(|| self.notification(n))) {
                    Ok(()) => (Vec::new(), None),
                    Err(panic) => {
                        self.ws.projects.clear();
                        (
                            vec![log(&format!(
                                "muster: `{method}` failed: {}",
                                panic_text(&*panic)
                            ))],
                            None,
                        )
                    }
                }
            }
            Message::Response(_) => (Vec::new(), None),
        }
    }

    fn request(&mut self, req: Request) -> Response {
        let id: RequestId = req.id.clone();
        if self.shut_down {
            return Response::new_err(
                id,
                ErrorCode::InvalidRequest as i32,
                "the server is shut down".into(),
            );
        }
        match catch_unwind(AssertUnwindSafe(|| self.dispatch(req))) {
            // Built as is: `Response::new_ok` would serialise the value into a copy of
            // itself, which for a large outline costs as much as making it.
            Ok(Ok(value)) => Response {
                id,
                response_result: Ok(value),
            },
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(panic) => {
                // The loaded projects may be half-way through a change: load them again.
                self.ws.projects.clear();
                Response::new_err(
                    id,
                    ErrorCode::InternalError as i32,
                    format!("muster failed on this request: {}", panic_text(&*panic)),
                )
            }
        }
    }

    fn dispatch(&mut self, req: Request) -> Result<Value, Failure> {
        let json = |v: Result<Value, serde_json::Error>| {
            v.map_err(|e| (ErrorCode::InternalError, e.to_string()))
        };
        match req.method.as_str() {
            "shutdown" => {
                self.shut_down = true;
                Ok(Value::Null)
            }
            "textDocument/hover" => {
                let p: HoverParams = params(req.params)?;
                json(serde_json::to_value(self.hover(p)))
            }
            "textDocument/definition" => {
                let p: GotoDefinitionParams = params(req.params)?;
                json(serde_json::to_value(self.definition(p)))
            }
            "textDocument/references" => {
                let p: ReferenceParams = params(req.params)?;
                json(serde_json::to_value(self.references(p)))
            }
            "textDocument/completion" => {
                let p: CompletionParams = params(req.params)?;
                json(serde_json::to_value(self.completion(p)))
            }
            "textDocument/codeAction" => {
                let p: CodeActionParams = params(req.params)?;
                let Some(doc) = self.doc(&p.text_document.uri) else {
                    return Ok(Value::Null);
                };
                let is_json = doc.path.extension().is_some_and(|e| e == "json");
                json(serde_json::to_value(actions::code_actions(
                    &p,
                    doc.text(),
                    is_json,
                )))
            }
            "textDocument/documentSymbol" => {
                let p: DocumentSymbolParams = params(req.params)?;
                let Some((source, kind)) = self.parsed(&p.text_document.uri) else {
                    return Ok(Value::Null);
                };
                let lines = Lines::new(&source.text);
                json(serde_json::to_value(symbols::document_symbols(
                    source.tree(),
                    kind,
                    &lines,
                )))
            }
            "textDocument/foldingRange" => {
                let p: FoldingRangeParams = params(req.params)?;
                let Some((source, _)) = self.parsed(&p.text_document.uri) else {
                    return Ok(Value::Null);
                };
                let lines = Lines::new(&source.text);
                json(serde_json::to_value(symbols::folding_ranges(
                    source.tree(),
                    &lines,
                )))
            }
            other => Err((
                ErrorCode::MethodNotFound,
                format!("muster does not serve `{other}`"),
            )),
        }
    }

    fn notification(&mut self, n: Notification) {
        // Any notification may change what a request sees: analyses made before it are
        // stale, and dropped (a closed buffer's must not stay in memory).
        self.ws.forget_analyses();
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = params::<DidOpenTextDocumentParams>(n.params) else {
                    return;
                };
                let Some(path) = uri::to_path(&p.text_document.uri) else {
                    return;
                };
                if !workspace::is_served(&path) {
                    return;
                }
                let path = muster_db::project::normalize(&path);
                self.ws.docs.insert(
                    path.clone(),
                    Doc::new(
                        p.text_document.uri,
                        path.clone(),
                        p.text_document.text,
                        p.text_document.version,
                    ),
                );
                self.ws.dirty.insert(path);
            }
            "textDocument/didChange" => {
                let Ok(p) = params::<DidChangeTextDocumentParams>(n.params) else {
                    return;
                };
                let Some(path) = self.path_of(&p.text_document.uri) else {
                    return;
                };
                if let Some(doc) = self.ws.docs.get_mut(&path) {
                    doc.edit(p.content_changes, p.text_document.version);
                    self.ws.dirty.insert(path);
                }
            }
            "textDocument/didSave" => {
                if let Some(uri) = n.params.get("textDocument").and_then(|t| t.get("uri"))
                    && let Ok(uri) = serde_json::from_value::<Uri>(uri.clone())
                    && let Some(path) = self.path_of(&uri)
                {
                    self.ws.dirty.insert(path);
                }
            }
            "textDocument/didClose" => {
                let Ok(p) = params::<DidCloseTextDocumentParams>(n.params) else {
                    return;
                };
                if let Some(path) = self.path_of(&p.text_document.uri) {
                    self.ws.docs.remove(&path);
                    self.ws.dirty.remove(&path);
                    self.closed.push(p.text_document.uri);
                }
            }
            _ => {}
        }
    }

    /// The diagnostics of the buffers changed since the last call, and of the open
    /// buffers depending on them.
    pub fn publish(&mut self) -> Vec<Message> {
        let mut out: Vec<Message> = std::mem::take(&mut self.closed)
            .into_iter()
            .map(|uri| {
                diagnostics_message(PublishDiagnosticsParams {
                    uri,
                    diagnostics: Vec::new(),
                    version: None,
                })
            })
            .collect();
        if self.ws.dirty.is_empty() && out.is_empty() {
            return out;
        }
        match catch_unwind(AssertUnwindSafe(|| self.ws.round())) {
            Ok(published) => {
                for p in published {
                    let Some(doc) = self.ws.docs.get(&p.path) else {
                        continue;
                    };
                    let lines = Lines::new(doc.text());
                    let mine: Vec<&muster_db::Diagnostic> = p
                        .diagnostics
                        .iter()
                        .filter(|d| muster_db::project::normalize(&d.file.path) == p.path)
                        .collect();
                    let mut diagnostics: Vec<lsp_types::Diagnostic> = mine
                        .iter()
                        .take(MAX_PUBLISHED)
                        .map(|d| diag::to_lsp(d, &lines, &p.uri, &p.free_hexes))
                        .collect();
                    if let Some(first) = mine.get(MAX_PUBLISHED) {
                        diagnostics.push(lsp_types::Diagnostic {
                            range: lines.range(&first.span),
                            severity: Some(lsp_types::DiagnosticSeverity::INFORMATION),
                            source: Some("muster".to_string()),
                            message: format!(
                                "{} more problems in this file are not shown here, from this \
                                 one on; `muster validate` lists them, up to {} of each check",
                                mine.len() - MAX_PUBLISHED,
                                muster_db::report::LISTED_PER_CODE
                            ),
                            ..lsp_types::Diagnostic::default()
                        });
                    }
                    out.push(diagnostics_message(PublishDiagnosticsParams {
                        uri: p.uri,
                        diagnostics,
                        version: Some(p.version),
                    }));
                }
            }
            Err(panic) => {
                self.ws.projects.clear();
                out.push(log(&format!(
                    "muster: checking failed: {}",
                    panic_text(&*panic)
                )));
            }
        }
        out
    }

    fn path_of(&self, uri: &Uri) -> Option<PathBuf> {
        let path = muster_db::project::normalize(&uri::to_path(uri)?);
        self.ws.docs.contains_key(&path).then_some(path)
    }

    fn doc(&self, uri: &Uri) -> Option<&Doc> {
        self.ws.docs.get(&self.path_of(uri)?)
    }

    /// An open buffer's text, tree and kind.
    fn parsed(
        &self,
        uri: &Uri,
    ) -> Option<(
        std::sync::Arc<muster_db::source::SourceFile>,
        muster_model::FileKind,
    )> {
        let doc = self.doc(uri)?;
        let name = doc.path.file_name()?.to_str()?;
        let source = std::sync::Arc::clone(doc.source());
        let kind = cursor::kind_of(source.tree(), name)?;
        Some((source, kind))
    }

    /// The string under the cursor: its value, its class, and runs `f` with the project
    /// (the buffer's [analysis](workspace::Analysis), loaded once per change).
    fn at_cursor<R>(
        &mut self,
        uri: &Uri,
        position: lsp_types::Position,
        f: impl FnOnce(&hover::Cx, cursor::Class, &str, std::ops::Range<usize>) -> Option<R>,
    ) -> Option<R> {
        let path = self.path_of(uri)?;
        let a = self.ws.analysis(&path)?;
        let kind = a.kind?;
        let offset = Lines::new(&a.text).offset(position);
        let node = cursor::string_at(a.tree(), offset)?;
        let value = cursor::string_value(node)?;
        let place = cursor::place_of(kind, node);
        let class = cursor::classify(kind, &place.steps, &a.hooks)?;
        let cx = hover::Cx::new(&a.db, a.index);
        f(&cx, class, &value, node.range())
    }

    fn hover(&mut self, p: HoverParams) -> Option<Hover> {
        let uri = p.text_document_position_params.text_document.uri;
        let position = p.text_document_position_params.position;
        let text = self.doc(&uri)?.text().to_string();
        let lines = Lines::new(&text);
        let reference = self.at_cursor(&uri, position, |cx, class, value, range| {
            Some(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: hover::text(cx, class, value)?,
                }),
                range: Some(lines.range(&range)),
            })
        });
        if reference.is_some() {
            return reference;
        }
        // A variant or field name: what the schema says of it.
        let path = self.path_of(&uri)?;
        let a = self.ws.analysis(&path)?;
        let (value, range) = cursor::doc_at(a.kind?, a.tree(), lines.offset(position))?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            }),
            range: Some(lines.range(&range)),
        })
    }

    fn location(&self, path: &std::path::Path, span: &std::ops::Range<usize>) -> Option<Location> {
        let norm = muster_db::project::normalize(path);
        let uri = match self.ws.docs.get(&norm) {
            Some(d) => d.uri.clone(),
            None => uri::from_path(&norm)?,
        };
        let text = match self.ws.docs.get(&norm) {
            Some(d) => d.text().to_string(),
            None => std::fs::read_to_string(&norm).unwrap_or_default(),
        };
        Some(Location::new(uri, Lines::new(&text).range(span)))
    }

    /// The locations of many spans, in their order: each file's text is read and its
    /// line table built once, however many spans it holds.
    fn locations(&self, places: &[(std::path::PathBuf, std::ops::Range<usize>)]) -> Vec<Location> {
        let mut files: std::collections::HashMap<std::path::PathBuf, Option<(Uri, String)>> =
            std::collections::HashMap::new();
        for (path, _) in places {
            if files.contains_key(path) {
                continue;
            }
            let norm = muster_db::project::normalize(path);
            let file = match self.ws.docs.get(&norm) {
                Some(d) => Some((d.uri.clone(), d.text().to_string())),
                None => uri::from_path(&norm)
                    .map(|u| (u, std::fs::read_to_string(&norm).unwrap_or_default())),
            };
            files.insert(path.clone(), file);
        }
        let tables: std::collections::HashMap<&std::path::Path, (&Uri, Lines<'_>)> = files
            .iter()
            .filter_map(|(path, file)| {
                let (uri, text) = file.as_ref()?;
                Some((path.as_path(), (uri, Lines::new(text))))
            })
            .collect();
        places
            .iter()
            .filter_map(|(path, span)| {
                let (uri, lines) = tables.get(path.as_path())?;
                Some(Location::new((*uri).clone(), lines.range(span)))
            })
            .collect()
    }

    fn definition(&mut self, p: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
        let uri = p.text_document_position_params.text_document.uri;
        let position = p.text_document_position_params.position;
        let (path, span) = self.at_cursor(&uri, position, |cx, class, value, _| {
            goto::definition(cx, class, value)
        })?;
        Some(GotoDefinitionResponse::Scalar(self.location(&path, &span)?))
    }

    fn references(&mut self, p: ReferenceParams) -> Option<Vec<Location>> {
        let uri = p.text_document_position.text_document.uri;
        let position = p.text_document_position.position;
        let declarations = p.context.include_declaration;
        let (family, value) = self.at_cursor(&uri, position, |_, class, value, _| {
            Some((goto::family(class)?.0, value.to_string()))
        })?;
        let path = self.path_of(&uri)?;
        let places = {
            let (db, _) = self.ws.all_scenarios(&path)?;
            // Names are scoped: a side's id to its scenario, a counter's to its counter
            // sheet, a terrain's to its rules system.
            let scope = match family {
                goto::Family::Side => None,
                goto::Family::Counter => Some(muster_model::FileKind::Counters),
                goto::Family::Terrain => Some(muster_model::FileKind::System),
            };
            let here = db.index_of(&path);
            let files: Vec<usize> = match scope {
                None => here.into_iter().collect(),
                Some(kind) => {
                    let owner = hover::Cx::plain(db, here).reference(kind);
                    (0..db.files.len())
                        .filter(|&i| {
                            owner.is_some()
                                && hover::Cx::plain(db, Some(i)).reference(kind) == owner
                        })
                        .collect()
                }
            };
            // One more than are listed, to know whether there are more.
            let mut places = Vec::new();
            for i in files {
                let left = MAX_REFERENCES + 1 - places.len();
                if left == 0 {
                    break;
                }
                places.extend(goto::references_in(
                    db,
                    i,
                    family,
                    &value,
                    declarations,
                    left,
                ));
            }
            places
        };
        if places.len() > MAX_REFERENCES {
            self.notes.push(Message::Notification(Notification::new(
                "window/showMessage".to_string(),
                serde_json::json!({
                    "type": 2,
                    "message": format!(
                        "muster: `{}` is named more than {MAX_REFERENCES} times; the first \
                         {MAX_REFERENCES} are listed",
                        muster_db::text::escape(&value),
                    ),
                }),
            )));
        }
        Some(self.locations(&places[..places.len().min(MAX_REFERENCES)]))
    }

    fn completion(&mut self, p: CompletionParams) -> Option<Vec<lsp_types::CompletionItem>> {
        let uri = p.text_document_position.text_document.uri;
        let position = p.text_document_position.position;
        let path = self.path_of(&uri)?;
        let a = self.ws.analysis(&path)?;
        let offset = Lines::new(&a.text).offset(position);
        Some(complete::complete(&a.db, &path, &a.text, offset))
    }
}

fn diagnostics_message(params: PublishDiagnosticsParams) -> Message {
    Message::Notification(Notification::new(
        "textDocument/publishDiagnostics".to_string(),
        params,
    ))
}

fn log(text: &str) -> Message {
    Message::Notification(Notification::new(
        "window/logMessage".to_string(),
        serde_json::json!({"type": 1, "message": text}),
    ))
}
