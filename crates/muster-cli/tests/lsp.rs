//! `muster lsp` driven over standard input and output as an editor drives it:
//! Content-Length framing, JSON-RPC, a temporary copy of the bundled project.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(60);

/// A language client speaking to one `muster lsp` process.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    /// Notifications received while waiting for something else.
    notifications: Vec<Value>,
    next_id: i64,
}

fn file_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for b in path.to_str().unwrap().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl Client {
    fn start(root: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_muster"))
            .arg("lsp")
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("muster lsp starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let message: Value = serde_json::from_slice(&body).expect("a JSON body");
                if tx.send(message).is_err() {
                    return;
                }
            }
        });
        let mut client = Client {
            stdin: child.stdin.take(),
            child,
            incoming: rx,
            notifications: Vec::new(),
            next_id: 1,
        };
        let init = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": file_uri(root),
                "capabilities": {},
            }),
        );
        assert!(
            init["result"]["capabilities"]["hoverProvider"]
                .as_bool()
                .unwrap()
        );
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, message: Value) {
        let body = serde_json::to_string(&message).unwrap();
        let stdin = self.stdin.as_mut().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn next(&mut self, deadline: Instant) -> Value {
        match self
            .incoming
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server in time"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }

    /// The whole response message (`result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + WAIT;
        loop {
            let m = self.next(deadline);
            if m.get("id") == Some(&json!(id)) && m.get("method").is_none() {
                return m;
            }
            self.notifications.push(m);
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let is_ours = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        };
        if let Some(i) = self.notifications.iter().position(is_ours) {
            let m = self.notifications.remove(i);
            return m["params"]["diagnostics"].as_array().unwrap().clone();
        }
        let deadline = Instant::now() + WAIT;
        loop {
            let m = self.next(deadline);
            if is_ours(&m) {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.notifications.push(m);
        }
    }

    fn open(&mut self, path: &Path, text: &str) -> String {
        let uri = file_uri(path);
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "ron", "version": 1, "text": text}}),
        );
        uri
    }

    fn change(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": text}],
            }),
        );
    }

    /// Forgets what was published so far: a request answered after the last round.
    fn settle(&mut self) {
        self.request("muster/settle", Value::Null);
        self.notifications.clear();
    }

    fn shutdown(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "muster lsp exited with {status}");
                return;
            }
            assert!(Instant::now() < deadline, "muster lsp did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The LSP position (line, UTF-16 column) of a byte offset.
fn position(text: &str, offset: usize) -> (u64, u64) {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        line as u64,
        text[start..offset].encode_utf16().count() as u64,
    )
}

fn at(text: &str, needle: &str) -> usize {
    text.find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in the text"))
}

fn pos_json(text: &str, offset: usize) -> Value {
    let (line, character) = position(text, offset);
    json!({"line": line, "character": character})
}

fn jengland(root: &Path) -> (PathBuf, String) {
    let path = root.join("scenarios/lrf/jengland.scenario.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    (path, text)
}

fn codes(diagnostics: &[Value]) -> Vec<&str> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect()
}

#[test]
fn diagnostics_hover_definition_completion_and_fixes() {
    let dir = common::copy_project();
    let root = dir.path().canonicalize().unwrap();
    let (path, original) = jengland(&root);
    let text = original.replacen("\"saxe\"", "\"saxx\"", 1);
    let mut client = Client::start(&root);
    let uri = client.open(&path, &text);

    // The misspelt counter, at its line and UTF-16 column.
    let diagnostics = client.diagnostics(&uri);
    assert_eq!(
        codes(&diagnostics),
        ["references::unknown-counter"],
        "{diagnostics:#?}"
    );
    let d = &diagnostics[0];
    let bad = at(&text, "\"saxx\"");
    assert_eq!(d["range"]["start"], pos_json(&text, bad));
    assert_eq!(d["range"]["end"], pos_json(&text, bad + "\"saxx\"".len()));
    assert_eq!(d["source"], "muster");
    assert_eq!(d["severity"], 1);
    let message = d["message"].as_str().unwrap();
    assert!(message.contains("no counter `saxx`"), "{message}");
    assert!(message.contains("help: did you mean `saxe`?"), "{message}");

    // The quick fix puts the suggestion in place.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": d["range"],
            "context": {"diagnostics": [d]},
        }),
    );
    let actions = actions["result"].as_array().unwrap();
    let fix = actions
        .iter()
        .find(|a| a["title"] == "Replace with `saxe`")
        .unwrap_or_else(|| panic!("{actions:#?}"));
    let edits = fix["edit"]["changes"][&uri].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["newText"], "\"saxe\"");
    assert_eq!(edits[0]["range"], d["range"]);
    // `references::unknown-*` cannot be silenced, so no suppression is offered.
    assert!(
        !actions
            .iter()
            .any(|a| a["title"].as_str().unwrap().starts_with("Allow"))
    );

    // Hover on a counter id.
    let ecuyers = at(&text, "\"ecuyers\"") + 2;
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": pos_json(&text, ecuyers)}),
    );
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("{hover}"));
    assert!(shown.contains("(counter `ecuyers`)"), "{shown}");
    assert!(
        shown.contains("army: Army of Charles the Bald") || shown.contains("`jengland-franks`"),
        "{shown}"
    );
    assert!(shown.contains("copies: 1 in this scenario"), "{shown}");

    // Hover on a hex id: terrain and what stands there.
    let hex = at(&text, "\"1304\"") + 1;
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": pos_json(&text, hex)}),
    );
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("{hover}"));
    assert!(shown.contains("**hex 1304**"), "{shown}");
    assert!(shown.contains("terrain: Clear (`clear`"), "{shown}");
    assert!(
        shown.contains("at the set-up: ") && !shown.contains("at the set-up: nothing"),
        "{shown}"
    );

    // Definition of a counter id: its entry in the counter sheet.
    let definition = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri}, "position": pos_json(&text, ecuyers)}),
    );
    let sheet = root.join("scenarios/lrf/lrf.counters.ron");
    let sheet_text = std::fs::read_to_string(&sheet).unwrap();
    assert_eq!(
        definition["result"]["uri"],
        file_uri(&sheet),
        "{definition}"
    );
    let id = at(&sheet_text, "id: \"ecuyers\"") + "id: ".len();
    assert_eq!(
        definition["result"]["range"]["start"],
        pos_json(&sheet_text, id)
    );

    // Completion in a counter position: the counters of that side's army only.
    let typed = at(&text, "\"jengland-bowmen\"") + "\"jeng".len();
    let completion = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": pos_json(&text, typed)}),
    );
    let labels: Vec<&str> = completion["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{completion}"))
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for own in [
        "saxe",
        "ecuyers",
        "jengland-bowmen",
        "charles-le-chauve-older",
    ] {
        assert!(labels.contains(&own), "{own} missing from {labels:?}");
    }
    assert!(
        !labels.contains(&"erispoe"),
        "a Breton counter offered to the Franks: {labels:?}"
    );

    // Half-typed: cut in the middle of a line. Diagnostics, and the server lives on.
    let cut = &text[..at(&text, "\"jengland-bowmen\"") + 5];
    client.change(&uri, 2, cut);
    let diagnostics = client.diagnostics(&uri);
    assert!(
        !diagnostics.is_empty()
            && codes(&diagnostics)
                .iter()
                .all(|c| c.starts_with("structure::")),
        "{diagnostics:#?}"
    );
    // Back to the good text: clean.
    client.change(&uri, 3, &original);
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());

    // Unknown methods and malformed parameters are protocol errors.
    let unknown = client.request("muster/unknown", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let malformed = client.request("textDocument/hover", json!({"textDocument": 3}));
    assert_eq!(malformed["error"]["code"], -32602, "{malformed}");

    client.shutdown();
}

#[test]
fn columns_are_utf16_after_wide_characters() {
    let dir = common::copy_project();
    let root = dir.path().canonicalize().unwrap();
    let (path, original) = jengland(&root);
    // A comment with an accent and an emoji (two UTF-16 units) earlier on the line.
    let text = original.replacen(
        "(units: [(counter: \"saxe\"",
        "/* é🐎 */ (units: [(counter: \"saxx\"",
        1,
    );
    let mut client = Client::start(&root);
    let uri = client.open(&path, &text);
    let diagnostics = client.diagnostics(&uri);
    assert_eq!(codes(&diagnostics), ["references::unknown-counter"]);
    let bad = at(&text, "\"saxx\"");
    let (line, column) = position(&text, bad);
    let start = text[..bad].rfind('\n').unwrap() + 1;
    // The test means something only if UTF-16 differs from characters here.
    assert_ne!(column, text[start..bad].chars().count() as u64);
    assert_eq!(
        diagnostics[0]["range"]["start"],
        json!({"line": line, "character": column})
    );

    // An incremental change addressed in UTF-16 fixes it.
    let inner = bad + 1;
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{
                "range": {"start": pos_json(&text, inner), "end": pos_json(&text, inner + 4)},
                "text": "saxe",
            }],
        }),
    );
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());
    client.shutdown();
}

#[test]
fn editing_a_map_republishes_the_open_scenarios_on_it() {
    let dir = common::copy_project();
    let root = dir.path().canonicalize().unwrap();
    let (scenario, text) = jengland(&root);
    let map = root.join("maps/lrf/jengland.map.ron");
    let map_text = std::fs::read_to_string(&map).unwrap();
    let mut client = Client::start(&root);
    let s_uri = client.open(&scenario, &text);
    assert_eq!(client.diagnostics(&s_uri), Vec::<Value>::new());
    let m_uri = client.open(&map, &map_text);
    assert_eq!(client.diagnostics(&m_uri), Vec::<Value>::new());
    client.settle();
    // The whole map turns to river in the buffer: the scenario's set-up stands on
    // impassable hexes, before anything is saved.
    client.change(
        &m_uri,
        2,
        &map_text.replacen("base: \"clear\"", "base: \"river\"", 1),
    );
    assert_eq!(client.diagnostics(&m_uri), Vec::<Value>::new());
    let diagnostics = client.diagnostics(&s_uri);
    assert!(
        codes(&diagnostics).contains(&"setup::impassable-terrain"),
        "{diagnostics:#?}"
    );
    client.shutdown();
}

#[test]
fn survives_any_buffer_content() {
    let dir = common::copy_project();
    let root = dir.path().canonicalize().unwrap();
    let (path, text) = jengland(&root);
    let mut client = Client::start(&root);
    let uri = client.open(&path, &text);
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());
    let garbage: String = (0u32..2000)
        .map(|i| char::from_u32((i * 7919) % 0x2FFF).unwrap_or('\u{FFFD}'))
        .collect();
    let huge = "Scenario(".to_string() + &"[".repeat(5 * 1024 * 1024);
    let contents = [
        garbage.as_str(),
        "",
        "\u{0}\u{1}\"",
        "Scenario(id: \"",
        &huge,
        "((((((((((",
        &text,
    ];
    for (version, content) in contents.iter().enumerate() {
        client.change(&uri, version as i32 + 2, content);
        let diagnostics = client.diagnostics(&uri);
        if *content == text {
            assert_eq!(diagnostics, Vec::<Value>::new());
        } else {
            assert!(
                !diagnostics.is_empty(),
                "nothing for {:?}",
                &content[..content.len().min(40)]
            );
        }
        // Requests anywhere in any text are answered.
        for line in [0, 1, 3, 40] {
            let r = client.request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 5}}),
            );
            assert!(r.get("error").is_none(), "{r}");
            let r = client.request(
                "textDocument/completion",
                json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 9}}),
            );
            assert!(r.get("error").is_none(), "{r}");
        }
        let r = client.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        );
        assert!(r.get("error").is_none(), "{r}");
        let r = client.request(
            "textDocument/foldingRange",
            json!({"textDocument": {"uri": uri}}),
        );
        assert!(r.get("error").is_none(), "{r}");
    }
    client.shutdown();
}

/// A real editor: headless Neovim with the configuration of `docs/editors.md` opens a
/// scenario with one mistake and shows muster's diagnostic.
#[test]
#[ignore = "needs nvim: run by .ci/run"]
fn neovim_shows_the_diagnostic() {
    if let Err(e) = Command::new("nvim").arg("--version").output() {
        panic!("nvim cannot be run ({e}): install neovim (.ci/run does)");
    }
    let helpers = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nvim");
    let config = std::fs::read_to_string(helpers.join("muster.lua")).unwrap();
    let docs = std::fs::read_to_string(common::repo().join("docs/editors.md")).unwrap();
    assert!(
        docs.contains(config.trim()),
        "docs/editors.md must show tests/nvim/muster.lua as it is tested"
    );
    let dir = common::copy_project();
    let root = dir.path().canonicalize().unwrap();
    let (path, text) = jengland(&root);
    let text = text.replacen("\"saxe\"", "\"saxx\"", 1);
    std::fs::write(&path, &text).unwrap();
    let out = root.join("diagnostics.txt");
    let bin = Path::new(env!("CARGO_BIN_EXE_muster")).parent().unwrap();
    let paths = std::env::var_os("PATH").unwrap_or_default();
    let mut search = vec![bin.to_path_buf()];
    search.extend(std::env::split_paths(&paths));
    let status = Command::new("nvim")
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(helpers.join("muster.lua"))
        .arg(&path)
        .arg("-c")
        .arg(format!(
            "luafile {}",
            helpers.join("report_diagnostics.lua").display()
        ))
        .current_dir(&root)
        .env("PATH", std::env::join_paths(search).unwrap())
        .env("MUSTER_NVIM_OUT", &out)
        .env("XDG_STATE_HOME", root.join("state"))
        .env("XDG_DATA_HOME", root.join("data"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "nvim exited with {status}");
    let report = std::fs::read_to_string(&out).unwrap_or_default();
    let rows: Vec<Vec<&str>> = report.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 1, "{report}");
    let (line, _) = position(&text, at(&text, "\"saxx\""));
    assert_eq!(rows[0][0], "references::unknown-counter", "{report}");
    assert_eq!(rows[0][1], line.to_string(), "{report}");
    assert!(rows[0][3].contains("no counter `saxx`"), "{report}");
}

/// The hover of a hook (`muster_check::docs::hook_page`) is its `muster explain` page,
/// word for word: the CLI prints the same page with its own code, and the two must not
/// drift.
#[test]
fn a_hook_hover_is_its_explain_page() {
    for hook in muster_semantic::hooks::HOOKS {
        let out = common::muster()
            .args(["explain", hook.id])
            .output()
            .unwrap();
        assert!(out.status.success());
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            muster_check::docs::hook_page(hook),
            "{}",
            hook.id
        );
    }
}

/// Frames that are not JSON-RPC get a parse error (id `null`) and the server reads on.
#[test]
fn a_frame_that_is_not_json_rpc_gets_a_parse_error() {
    let dir = common::copy_project();
    let root = dir.path().canonicalize().unwrap();
    let mut client = Client::start(&root);
    for body in ["{not json at all", "[1, 2, 3]", "{\"jsonrpc\": \"2.0\"}"] {
        let stdin = client.stdin.as_mut().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
        let deadline = Instant::now() + WAIT;
        let answer = loop {
            let m = client.next(deadline);
            if m.get("error").is_some() {
                break m;
            }
        };
        assert_eq!(answer["error"]["code"], json!(-32700), "{answer}");
        assert_eq!(answer["id"], Value::Null);
    }
    // Still serving.
    let r = client.request("textDocument/noSuchThing", json!({}));
    assert_eq!(r["error"]["code"], json!(-32601), "{r}");
    client.shutdown();
}
