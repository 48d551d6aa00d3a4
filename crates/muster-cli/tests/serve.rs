//! `muster watch --serve` under attack from local clients (a header flood, a long
//! address, hundreds of idle connections and event streams, foreign `Host`s) while it
//! keeps serving its index in little memory; and seen through a real browser: headless
//! Chromium, driven over the Chrome DevTools Protocol (a WebSocket), opens a scenario's
//! live page, the scenario is saved with a mistake, and the page shows it without being
//! reloaded; the check fixtures' scenario shows each turn's weather and its supply
//! sources, and keeps its turn through a save.
//!
//! The browser test needs Chromium: it is ignored by a plain `cargo test` and run by
//! `.ci/run` (which installs Chromium) with `--include-ignored`; run without Chromium,
//! it fails. Waits are generous and nothing asserts on timing: each step polls for the
//! state it needs, and reads time out so that a server that stops answering fails the
//! test instead of hanging it.

mod common;

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};
use tungstenite::{Message, WebSocket};

const SCENARIO: &str = "scenarios/lrf/jengland.scenario.ron";
/// Long enough for a slow machine; every wait ends as soon as its condition holds.
const PATIENCE: Duration = Duration::from_secs(30);

/// A child process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Every line the reader gives, on a channel; the pipe is drained to the end so the
/// child never blocks on a full pipe.
fn lines_of(reader: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    rx
}

/// The first line with `marker`, waiting at most `PATIENCE`.
fn wait_for_line(lines: &Receiver<String>, marker: &str, what: &str) -> String {
    let deadline = Instant::now() + PATIENCE;
    let mut seen = Vec::new();
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match lines.recv_timeout(left) {
            Ok(line) if line.contains(marker) => return line,
            Ok(line) => seen.push(line),
            Err(_) => break,
        }
    }
    panic!(
        "{what} never printed `{marker}`; it printed:\n{}",
        seen.join("\n")
    );
}

/// `muster watch --serve` on port 0 in a copy of the bundled project.
fn start_preview(dir: &Path) -> (Killed, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(["watch", "--no-clear", "--serve", "127.0.0.1:0"])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lines = lines_of(child.stdout.take().unwrap());
    let child = Killed(child);
    let line = wait_for_line(
        &lines,
        "[watch] preview at http://127.0.0.1:",
        "muster watch",
    );
    let port = line
        .trim()
        .trim_start_matches("[watch] preview at http://127.0.0.1:")
        .trim_end_matches('/')
        .parse()
        .unwrap_or_else(|_| panic!("no port in `{line}`"));
    (child, port)
}

/// A plain HTTP/1.1 GET: the status code and the body. The body ends at its
/// `Content-Length` (Chromium keeps the connection open) or when the server closes.
fn get(port: u16, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    let mut chunk = [0; 16 * 1024];
    loop {
        let read = stream
            .read(&mut chunk)
            .unwrap_or_else(|e| panic!("GET {path} on port {port}: {e}"));
        if read == 0 {
            break;
        }
        answer.extend_from_slice(&chunk[..read]);
        let text = String::from_utf8_lossy(&answer);
        if let Some((head, body)) = text.split_once("\r\n\r\n")
            && let Some(length) = head.lines().find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse::<usize>().ok())?
            })
            && body.len() >= length
        {
            break;
        }
    }
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in `{head}`"));
    (status, body.to_string())
}

fn find_chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// A Chrome DevTools Protocol session with one page.
struct Cdp {
    socket: WebSocket<TcpStream>,
    next_id: u64,
}

impl Cdp {
    /// Starts headless Chromium and attaches to its blank page.
    fn launch(chromium: &Path, profile: &Path) -> (Killed, Cdp) {
        let mut child = Command::new(chromium)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--remote-debugging-port=0",
                "--window-size=1400,1000",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromium.display()));
        let lines = lines_of(child.stderr.take().unwrap());
        let child = Killed(child);
        let line = wait_for_line(&lines, "DevTools listening on ws://", "chromium");
        let url = &line[line.find("ws://").unwrap()..];
        let port: u16 = url["ws://".len()..]
            .split('/')
            .next()
            .and_then(|host| host.rsplit(':').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in `{line}`"));
        // The page target's own socket.
        let deadline = Instant::now() + PATIENCE;
        let target = loop {
            let (status, body) = get(port, "/json/list");
            let list: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
            let page = list.as_array().and_then(|targets| {
                targets
                    .iter()
                    .find(|t| t["type"] == "page")
                    .and_then(|t| t["webSocketDebuggerUrl"].as_str())
                    .map(str::to_string)
            });
            if let Some(page) = page {
                break page;
            }
            assert!(
                Instant::now() < deadline,
                "chromium lists no page target ({status}): {body}"
            );
            std::thread::sleep(Duration::from_millis(100));
        };
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        let (socket, _) = tungstenite::client(target.as_str(), stream)
            .unwrap_or_else(|e| panic!("cannot open the DevTools socket {target}: {e}"));
        (child, Cdp { socket, next_id: 1 })
    }

    /// Sends a command and waits for its answer (events in between are dropped).
    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"id": id, "method": method, "params": params});
        self.socket
            .send(Message::text(message.to_string()))
            .unwrap_or_else(|e| panic!("{method}: {e}"));
        loop {
            let answer = self
                .socket
                .read()
                .unwrap_or_else(|e| panic!("{method}: no answer: {e}"));
            let Message::Text(text) = answer else {
                continue;
            };
            let answer: Value = serde_json::from_str(text.as_str()).unwrap();
            if answer["id"] != id {
                continue;
            }
            if let Some(error) = answer.get("error") {
                panic!("{method} failed: {error}");
            }
            return answer["result"].clone();
        }
    }

    /// The value of a JavaScript expression in the page.
    fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        if let Some(exception) = result.get("exceptionDetails") {
            panic!("`{expression}` threw: {exception}");
        }
        result["result"]["value"].clone()
    }

    /// Polls `expression` until it is `true`; `describe` tells what the page showed.
    fn wait_until(&mut self, expression: &str, describe: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if self.eval(expression) == Value::Bool(true) {
                return;
            }
            if Instant::now() > deadline {
                panic!(
                    "the page never satisfied `{expression}`; it shows: {}",
                    self.eval(describe)
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// What the page shows, for failure messages.
const DESCRIBE: &str = "JSON.stringify({url: location.href, updates: document.body && document.body.dataset.updates, status: (document.getElementById('status') || {}).textContent, text: document.body ? document.body.innerText.slice(0, 2000) : ''})";

#[test]
#[ignore = "needs chromium: run by .ci/run"]
fn live_preview_in_chromium() {
    let started = Instant::now();
    let chromium = find_chromium().unwrap_or_else(|| {
        panic!(
            "chromium is not installed (looked for `chromium` and `chromium-browser` on PATH); .ci/run installs it"
        )
    });

    let project = common::copy_project();
    common::add_fixture_project(project.path());
    let (_watch, port) = start_preview(project.path());

    // Plain HTTP first: the index and a path that leaves the project.
    let (status, index) = get(port, "/");
    assert_eq!(status, 200, "{index}");
    assert!(
        index.contains(&format!("href=\"/view/{SCENARIO}\"")),
        "the index does not list {SCENARIO}:\n{index}"
    );
    assert!(index.contains("maps/lrf/jengland.map.ron"), "{index}");
    for bad in [
        "/view/../Cargo.toml",
        "/view/%2e%2e/scenarios/lrf/jengland.scenario.ron",
        "/view/scenarios/lrf/lrf.counters.ron",
        "/view/scenarios/lrf/nowhere.scenario.ron",
        "/nothing-here",
    ] {
        assert_eq!(get(port, bad).0, 404, "{bad}");
    }
    let (status, content) = get(port, &format!("/view/{SCENARIO}?content=1"));
    assert_eq!(status, 200);
    assert!(content.contains("id=\"oob\"") && !content.contains("<html"));

    let profile = tempfile::tempdir().unwrap();
    let (_browser, mut cdp) = Cdp::launch(&chromium, profile.path());
    cdp.call("Page.enable", json!({}));
    cdp.call("Runtime.enable", json!({}));
    let url = format!("http://127.0.0.1:{port}/view/{SCENARIO}");
    cdp.call("Page.navigate", json!({"url": url}));
    cdp.wait_until(
        "document.readyState === 'complete' && !!document.querySelector('#board svg')",
        DESCRIBE,
    );

    // The board: every hex of Jengland's map, the counters on it, the order of battle.
    assert_eq!(
        cdp.eval("document.querySelectorAll('#board svg polygon.hex').length"),
        json!(180)
    );
    let counters = cdp.eval("document.querySelectorAll('#board svg [data-counter]').length");
    assert!(counters.as_u64().unwrap_or(0) > 10, "counters: {counters}");
    let oob = cdp.eval("document.getElementById('oob').innerText");
    let oob = oob.as_str().unwrap_or_default();
    for name in ["Order of battle", "Frankish army", "Breton army", "Saxe"] {
        assert!(
            oob.contains(name),
            "the order of battle lacks {name}:\n{oob}"
        );
    }
    assert_eq!(
        cdp.eval("document.querySelectorAll('li.diagnostic').length"),
        json!(0)
    );
    // A mark that a reload would wipe out.
    cdp.eval("window.notReloaded = 'yes'");

    // Save the scenario with a counter off the map: the open page shows the error.
    let file = project.path().join(SCENARIO);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"1502\""));
    std::fs::write(&file, text.replace("\"1502\"", "\"1599\"")).unwrap();
    cdp.wait_until(
        "!!document.querySelector('li.diagnostic[data-code=\"geometry::off-map\"]') && parseInt(document.body.dataset.updates || '0', 10) >= 1",
        DESCRIBE,
    );
    assert_eq!(cdp.eval("window.notReloaded"), json!("yes"));
    assert_eq!(cdp.eval("location.href"), json!(url));
    assert_eq!(
        cdp.eval("document.querySelectorAll('#board svg polygon.hex').length"),
        json!(180)
    );

    // A screenshot of what a person sees: not blank.
    let shot = cdp.call("Page.captureScreenshot", json!({"format": "png"}));
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().unwrap())
        .unwrap();
    let path = project.path().join("preview.png");
    std::fs::write(&path, &bytes).unwrap();
    if let Some(copy) = std::env::var_os("MUSTER_SCREENSHOT") {
        std::fs::write(copy, &bytes).unwrap();
    }
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    let channels = frame.color_type.samples();
    assert!(channels >= 3, "{:?}", frame.color_type);
    let colours: HashSet<&[u8]> = pixels[..frame.buffer_size()]
        .chunks_exact(channels)
        .map(|p| &p[..3])
        .collect();
    assert!(
        frame.width >= 800 && colours.len() > 50,
        "the screenshot ({}x{}, {} colours) looks blank: {}",
        frame.width,
        frame.height,
        colours.len(),
        path.display()
    );
    turn_weather_and_supply_in_chromium(&mut cdp, port, project.path());
    eprintln!(
        "live preview checked in Chromium in {:.1} s ({} colours on screen)",
        started.elapsed().as_secs_f64(),
        colours.len()
    );
}

/// A scenario with a turn record and supply sources (the check fixtures', read here
/// with `ron`): its page shows the turn's weather beside the turn, the sources on the
/// board and in the order of battle; the link to the next turn shows that turn's
/// weather, and a save keeps the page at the turn it shows.
fn turn_weather_and_supply_in_chromium(cdp: &mut Cdp, port: u16, root: &Path) {
    use muster_model::scenario::{Scenario, SourceAt};
    use muster_model::system::RulesSystem;
    let scenario: Scenario =
        common::read_ron(&format!("{}/_valid/valid.scenario.ron", common::FIXTURES));
    let system: RulesSystem =
        common::read_ron(&format!("{}/_base/test.system.ron", common::FIXTURES));
    let weather_of = |turn: u8| {
        let given = (scenario.turn_record.iter())
            .find(|t| t.turn == turn)
            .and_then(|t| t.weather.as_ref());
        match given {
            Some(id) => {
                let kind = system.rules.weather.iter().find(|w| &w.id == id).unwrap();
                format!("Weather: {}", kind.name)
            }
            None => "Weather: not given in the turn record".to_string(),
        }
    };
    assert_ne!(
        weather_of(1),
        weather_of(2),
        "the fixture's weather changes"
    );
    let url = format!("http://127.0.0.1:{port}/view/{}", common::FIXTURE_SCENARIO);
    cdp.call("Page.navigate", json!({"url": url}));
    cdp.wait_until(
        "document.readyState === 'complete' && !!document.querySelector('#board svg') && !!document.getElementById('weather')",
        DESCRIBE,
    );
    assert_eq!(
        cdp.eval("document.getElementById('weather').textContent"),
        json!(weather_of(1))
    );
    assert_eq!(
        cdp.eval("document.querySelectorAll('li.diagnostic').length"),
        json!(0)
    );
    // Every source on the board, drawn where a person sees it, and in the order of
    // battle; the hex sources on their hexes.
    let count = scenario.supply_sources.len();
    assert_eq!(
        cdp.eval("[...document.querySelectorAll('#board svg g.supply')].filter(g => { const r = g.getBoundingClientRect(); return r.width + r.height > 0; }).length"),
        json!(count)
    );
    assert_eq!(
        cdp.eval("document.querySelectorAll('#oob li.supply').length"),
        json!(count)
    );
    let hexes: Vec<Value> = (scenario.supply_sources.iter())
        .filter_map(|s| match &s.at {
            SourceAt::Hex(h) => Some(json!(h)),
            SourceAt::Edge(_) | SourceAt::Label(_) => None,
        })
        .collect();
    assert!(!hexes.is_empty());
    assert_eq!(
        cdp.eval("[...document.querySelectorAll('#board svg g.supply[data-source=\"hex\"]')].map(g => g.dataset.hex)"),
        Value::Array(hexes)
    );

    // The next turn, through the page's own link.
    assert_eq!(
        cdp.eval("!!document.getElementById('turn-before')"),
        json!(false)
    );
    cdp.eval("document.getElementById('turn-after').click()");
    cdp.wait_until(
        "document.readyState === 'complete' && (document.getElementById('turn') || {dataset: {}}).dataset.turn === '2'",
        DESCRIBE,
    );
    assert_eq!(
        cdp.eval("document.getElementById('weather').textContent"),
        json!(weather_of(2))
    );
    assert_eq!(cdp.eval("location.search"), json!("?turn=2"));

    // A save updates the page in place, at the same turn.
    cdp.eval("window.notReloaded = 'yes'");
    let file = root.join(common::FIXTURE_SCENARIO);
    let text = std::fs::read_to_string(&file).unwrap();
    let name = format!("name: \"{}\"", scenario.name);
    assert!(text.contains(&name));
    std::fs::write(&file, text.replacen(&name, "name: \"Saved again\"", 1)).unwrap();
    cdp.wait_until(
        "document.querySelector('header h1').textContent === 'Saved again' && parseInt(document.body.dataset.updates || '0', 10) >= 1",
        DESCRIBE,
    );
    assert_eq!(cdp.eval("window.notReloaded"), json!("yes"));
    assert_eq!(
        cdp.eval("document.getElementById('turn').dataset.turn"),
        json!("2")
    );
    assert_eq!(
        cdp.eval("document.getElementById('weather').textContent"),
        json!(weather_of(2))
    );
}

/// The child's memory, in kB: `VmRSS` now, `VmHWM` the most it ever held.
fn memory_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status:\n{status}"))
}

/// What the server must keep doing whatever else goes on: answer a plain GET of the
/// index, in under 100 MB.
fn still_serving(watch: &mut Killed, port: u16, during: &str) {
    assert!(
        watch.0.try_wait().unwrap().is_none(),
        "muster watch died during {during}"
    );
    let (status, index) = get(port, "/");
    assert_eq!(status, 200, "GET / during {during}: {index}");
    assert!(
        index.contains(&format!("href=\"/view/{SCENARIO}\"")),
        "GET / during {during}: {index}"
    );
    let rss = memory_kb(watch.0.id(), "VmRSS");
    assert!(rss < 100 * 1024, "{rss} kB resident during {during}");
}

/// Opens a connection with a read timeout, so that a server that stops answering fails
/// the test.
fn connect(port: u16) -> TcpStream {
    let socket = TcpStream::connect(("127.0.0.1", port)).unwrap();
    socket.set_read_timeout(Some(PATIENCE)).unwrap();
    socket
}

/// The status line of an answer, and the rest until the server closes.
fn answer_of(socket: &mut TcpStream) -> String {
    let mut answer = Vec::new();
    if let Err(e) = socket.read_to_end(&mut answer) {
        // A reset after the answer (the client was still sending) is fine.
        assert!(
            !answer.is_empty() && e.kind() == std::io::ErrorKind::ConnectionReset,
            "no answer: {e}"
        );
    }
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn the_preview_survives_hostile_local_clients() {
    let project = common::copy_project();
    let (mut watch, port) = start_preview(project.path());
    // The first request waits for the first round.
    still_serving(&mut watch, port, "the start");

    // Header floods: endless header lines on eight connections at once, each refused
    // with 431 and cut off long before its 64 MB are out.
    let floods: Vec<_> = (0..8)
        .map(|_| {
            let mut socket = connect(port);
            let mut sender = socket.try_clone().unwrap();
            let sending = std::thread::spawn(move || {
                let line = b"X-Flood: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";
                let mut sent = sender.write_all(b"GET / HTTP/1.1\r\n").map(|()| 0);
                while let Ok(n) = sent
                    && n < 64 << 20
                {
                    sent = sender.write_all(line).map(|()| n + line.len());
                }
                sent
            });
            let reading = std::thread::spawn(move || answer_of(&mut socket));
            (sending, reading)
        })
        .collect();
    still_serving(&mut watch, port, "the header floods");
    for (sending, reading) in floods {
        let answer = reading.join().unwrap();
        assert!(answer.starts_with("HTTP/1.1 431 "), "{answer}");
        let sent = sending.join().unwrap();
        assert!(sent.is_err(), "the server took a whole flood: {sent:?}");
    }

    // A long address: 414, the rest of it dropped.
    let mut socket = connect(port);
    let mut sender = socket.try_clone().unwrap();
    let sending = std::thread::spawn(move || {
        let url = format!("/view/{}", "a".repeat(4 << 20));
        write!(
            sender,
            "GET {url} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
        )
    });
    let answer = answer_of(&mut socket);
    assert!(answer.starts_with("HTTP/1.1 414 "), "{answer}");
    let _ = sending.join().unwrap();
    still_serving(&mut watch, port, "a long address");

    // 300 idle connections, some half-way through a request.
    let mut idle: Vec<TcpStream> = (0..300).map(|_| connect(port)).collect();
    for socket in idle.iter_mut().step_by(2) {
        socket.write_all(b"GET / HTTP/1.1\r\nHost: 127.").unwrap();
    }
    still_serving(&mut watch, port, "300 idle connections");

    // 300 event streams: up to the cap they stream, beyond it they are refused.
    let mut streams = Vec::new();
    let (mut streaming, mut refused) = (0, 0);
    for _ in 0..300 {
        let mut socket = connect(port);
        write!(
            socket,
            "GET /events HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n"
        )
        .unwrap();
        let mut status = [0; 12];
        socket.read_exact(&mut status).unwrap();
        match &status {
            b"HTTP/1.1 200" => streaming += 1,
            b"HTTP/1.1 503" => refused += 1,
            other => panic!("/events: {}", String::from_utf8_lossy(other)),
        }
        streams.push(socket);
    }
    assert!(
        (1..=64).contains(&streaming) && refused == 300 - streaming,
        "{streaming} streaming, {refused} refused"
    );
    still_serving(&mut watch, port, "300 event streams");
    // Closed streams give their places back.
    drop(streams);
    let deadline = Instant::now() + PATIENCE;
    let mut again = Vec::new();
    while again.len() < streaming {
        let mut socket = connect(port);
        write!(
            socket,
            "GET /events HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n"
        )
        .unwrap();
        let mut status = [0; 12];
        socket.read_exact(&mut status).unwrap();
        if &status == b"HTTP/1.1 200" {
            again.push(socket);
        } else {
            assert!(
                Instant::now() < deadline,
                "closed event streams never gave their places back"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    drop(again);
    drop(idle);

    // DNS rebinding: a page of another site, or a request without a Host.
    for host in [
        format!("Host: evil.example:{port}\r\n"),
        "Host: evil.example\r\n".to_string(),
        format!("Host: 127.0.0.1.evil.example:{port}\r\n"),
        String::new(),
    ] {
        let mut socket = connect(port);
        write!(socket, "GET / HTTP/1.1\r\n{host}\r\n").unwrap();
        let answer = answer_of(&mut socket);
        assert!(answer.starts_with("HTTP/1.1 421 "), "{host}: {answer}");
        assert!(!answer.contains(SCENARIO), "{host}: {answer}");
    }

    still_serving(&mut watch, port, "the end");
    let peak = memory_kb(watch.0.id(), "VmHWM");
    assert!(peak < 100 * 1024, "at most {peak} kB resident");
    eprintln!("the preview held at most {peak} kB resident");
}

/// The jengland set-up with the Rennes militia moved next to Saxe (0903), so that an
/// attack can be asked about.
fn with_enemy_next_to_saxe(root: &Path) {
    replace_in_scenario(root, "[\"1408\", \"1509\"]", "[\"0904\", \"1509\"]");
}

/// The project's [`SCENARIO`] with the hexes `was` of one set-up line set to `now`.
fn replace_in_scenario(root: &Path, was: &str, now: &str) {
    let file = root.join(SCENARIO);
    let text = std::fs::read_to_string(&file).unwrap();
    let placed = format!("at: Hexes({was})");
    assert!(text.contains(&placed), "no set-up line at {was}");
    std::fs::write(&file, text.replace(&placed, &format!("at: Hexes({now})"))).unwrap();
}

/// `muster query ... --format json` in the project: the engine's answer.
fn query_json(root: &Path, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .arg("query")
        .args(args)
        .args(["--format", "json"])
        .current_dir(root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "muster query {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A JSON answer of the preview, with its status.
fn ask_json(port: u16, target: &str) -> (u16, Value) {
    let (status, body) = get(port, target);
    let value: Value =
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{target}: not JSON ({e}): {body}"));
    (status, value)
}

#[test]
fn the_rules_endpoints_answer_as_muster_query_does() {
    let project = common::copy_project();
    with_enemy_next_to_saxe(project.path());
    let (_watch, port) = start_preview(project.path());
    let ask = |target: &str| ask_json(port, target);
    let (status, reach) = ask(&format!("/reach?file={SCENARIO}&unit=saxe"));
    assert_eq!(status, 200, "{reach}");
    let expected = query_json(project.path(), &["reach", SCENARIO, "saxe"]);
    assert_eq!(reach["reach"], expected);
    assert_eq!(reach["targets"], json!(["milice-de-rennes"]));
    let shade = reach["shade"].as_str().unwrap();
    let shaded: Vec<&str> = shade
        .split("class=\"reach\" data-hex=\"")
        .skip(1)
        .map(|rest| &rest[..4])
        .collect();
    let hexes: Vec<&str> = (expected["hexes"].as_array().unwrap().iter())
        .map(|h| h["hex"].as_str().unwrap())
        .collect();
    assert_eq!(shaded, hexes);

    let (status, combat) = ask(&format!(
        "/combat?file={SCENARIO}&attacker=saxe&defender=milice-de-rennes&turn=1"
    ));
    assert_eq!(status, 200, "{combat}");
    let expected = query_json(
        project.path(),
        &["combat", SCENARIO, "saxe", "--defender", "milice-de-rennes"],
    );
    assert_eq!(combat["combat"], expected);
    let panel = combat["panel"].as_str().unwrap();
    let ratio = expected["ratio"].as_str().unwrap();
    assert!(
        panel.contains(&format!("data-ratio=\"{ratio}\"")),
        "{panel}"
    );

    // Questions that cannot be answered: a status and a message, never a panic.
    for (target, status, says) in [
        (
            format!("/reach?file={SCENARIO}&unit=nobody"),
            404,
            "no unit `nobody`",
        ),
        (format!("/reach?file={SCENARIO}"), 400, "give `unit=`"),
        (
            format!("/reach?file={SCENARIO}&unit=saxe&unit=ecuyers"),
            400,
            "once",
        ),
        (
            format!("/reach?file={SCENARIO}&unit=saxe&turn=0"),
            400,
            "turn",
        ),
        (
            format!("/reach?file={SCENARIO}&unit=saxe&turn=x"),
            400,
            "turn",
        ),
        (
            "/reach?file=maps/lrf/jengland.map.ron&unit=saxe".to_string(),
            404,
            "is a map",
        ),
        (
            "/reach?file=../Cargo.toml&unit=saxe".to_string(),
            404,
            "no scenario",
        ),
        ("/reach?file=%ff&unit=saxe".to_string(), 400, "UTF-8"),
        (
            format!("/combat?file={SCENARIO}&defender=saxe"),
            400,
            "attacker",
        ),
        (
            format!("/combat?file={SCENARIO}&attacker=saxe&defender=ecuyers"),
            400,
            "not enemies",
        ),
        (
            format!("/combat?file={SCENARIO}&attacker=saxe&defender=erispoe"),
            400,
            "neither next to",
        ),
        (
            format!("/reach?file={SCENARIO}&unit=%3Cb%3E"),
            404,
            "no unit `<b>`",
        ),
    ] {
        let (got, answer) = ask(&target);
        assert_eq!(got, status, "{target}: {answer}");
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(error.contains(says), "{target}: {answer}");
    }
}

/// The jengland set-up with the Rennes militia in 0904 and Saxe's first counter moved
/// from 0903 to 1104: the Ecuyers (0901) may ride straight down column 09 at the
/// militia, a charge (LRF 9.2), and `saxe#2` (1004) stands next to it to join.
fn with_a_charge_lane(root: &Path) {
    with_enemy_next_to_saxe(root);
    replace_in_scenario(root, "[\"0903\", \"1004\"]", "[\"1104\", \"1004\"]");
}

/// A move before the attack and a combined attack, asked of the server: the Ecuyers
/// move next to the militia, their path is judged as a charge (LRF 9.2), and `saxe#2`
/// joins; the answers are the engine's on the moved board.
#[test]
fn a_move_before_the_attack_is_judged_as_a_charge_and_units_combine() {
    let project = common::copy_project();
    with_a_charge_lane(project.path());
    let (_watch, port) = start_preview(project.path());
    let ask = |target: &str| ask_json(port, target);
    let reach = query_json(project.path(), &["reach", SCENARIO, "ecuyers"]);
    let hexes = reach["hexes"].as_array().unwrap();
    let mut judged = Vec::new();
    for to in ["0903", "0803"] {
        let hex = hexes.iter().find(|h| h["hex"] == to).expect("in its reach");
        let path: Vec<&str> = (hex["path"].as_array().unwrap().iter())
            .map(|h| h.as_str().unwrap())
            .collect();
        // Moved there, the militia is a target, and the path is drawn.
        let (status, moved) = ask(&format!("/reach?file={SCENARIO}&unit=ecuyers&to={to}"));
        assert_eq!(status, 200, "{moved}");
        assert_eq!(moved["moved"]["path"], hex["path"]);
        assert_eq!(moved["targets"], json!(["milice-de-rennes"]), "{to}");
        assert!(moved["shade"].as_str().unwrap().contains(&format!(
            "id=\"move\" data-unit=\"ecuyers\" data-to=\"{to}\""
        )));
        // The attack from there: a charge judged on the hexes entered.
        let (status, combat) = ask(&format!(
            "/combat?file={SCENARIO}&attacker=ecuyers&defender=milice-de-rennes&move=ecuyers@{to}"
        ));
        assert_eq!(status, 200, "{combat}");
        let charge = &combat["combat"]["charges"][0];
        assert_eq!(charge["path"], json!(path[1..]), "{combat}");
        assert_eq!(charge["section"], "9.2");
        let bonus = (combat["combat"]["attackers"][0]["modifiers"]
            .as_array()
            .unwrap()
            .iter())
        .any(|m| m["what"] == "charge");
        assert_eq!(charge["charge"].as_bool(), Some(bonus), "{charge}");
        assert!(
            charge["charge"] == json!(true) || charge["reason"].is_string(),
            "{charge}"
        );
        let panel = combat["panel"].as_str().unwrap();
        assert!(
            panel.contains("class=\"charge\" data-unit=\"ecuyers\""),
            "{panel}"
        );
        assert_eq!(combat["combat"]["attackers"][0]["hex"], to);
        // `saxe#2` joins from 1004: a combined attack of both strengths.
        let (status, both) = ask(&format!(
            "/combat?file={SCENARIO}&attacker=ecuyers&attacker=saxe%232&defender=milice-de-rennes&move=ecuyers@{to}"
        ));
        assert_eq!(status, 200, "{both}");
        let attackers = both["combat"]["attackers"].as_array().unwrap();
        assert_eq!(attackers.len(), 2);
        let sum: f64 = attackers.iter().map(|a| a["total"].as_f64().unwrap()).sum();
        assert_eq!(both["combat"]["attack"].as_f64(), Some(sum));
        assert!(sum > combat["combat"]["attack"].as_f64().unwrap());
        judged.push(charge["charge"].as_bool().unwrap());
    }
    // Straight down column 09 at the militia is a charge; by 0801-0803 the move turns.
    assert_eq!(judged, [true, false]);

    for (target, says) in [
        (
            format!("/reach?file={SCENARIO}&unit=ecuyers&to=1509"),
            "cannot end its move in `1509`",
        ),
        (
            format!("/reach?file={SCENARIO}&unit=ecuyers&to=0803&to=0903"),
            "once",
        ),
        (
            format!(
                "/combat?file={SCENARIO}&attacker=ecuyers&defender=milice-de-rennes&move=ecuyers"
            ),
            "give `move=ID@HEX`",
        ),
        (
            format!(
                "/combat?file={SCENARIO}&attacker=ecuyers&defender=milice-de-rennes&move=saxe%232@0905"
            ),
            "only an attacker moves",
        ),
        (
            format!(
                "/combat?file={SCENARIO}&attacker=ecuyers&defender=milice-de-rennes&move=ecuyers@0803&move=ecuyers@0903"
            ),
            "moves twice",
        ),
    ] {
        let (status, answer) = ask(&target);
        assert_eq!(status, 400, "{target}: {answer}");
        assert!(
            answer["error"].as_str().unwrap_or_default().contains(says),
            "{target}: {answer}"
        );
    }
}

/// Chromium on the live page of [`SCENARIO`], once the counter of `unit` is drawn.
fn open_scenario(chromium: &Path, profile: &Path, port: u16, unit: &str) -> (Killed, Cdp) {
    let (browser, mut cdp) = Cdp::launch(chromium, profile);
    cdp.call("Page.enable", json!({}));
    cdp.call("Runtime.enable", json!({}));
    let url = format!("http://127.0.0.1:{port}/view/{SCENARIO}");
    cdp.call("Page.navigate", json!({"url": url}));
    cdp.wait_until(
        &format!(
            "document.readyState === 'complete' && !!document.querySelector('#board svg g.counter[data-unit=' + {} + ']')",
            json!(json!(unit).to_string())
        ),
        DESCRIBE,
    );
    (browser, cdp)
}

impl Cdp {
    /// A real click (press and release) at the centre of the element `selector` finds,
    /// scrolled into view; the element must be the one a person's click reaches there.
    fn click(&mut self, selector: &str) {
        self.click_with(selector, 0);
    }

    /// [`Cdp::click`] with modifier keys held (CDP's bits: 8 is Shift).
    fn click_with(&mut self, selector: &str, modifiers: u8) {
        let found = self.eval(&format!(
            "(() => {{ const e = document.querySelector({s}); if (!e) return null; e.scrollIntoView({{block: 'center', inline: 'center'}}); const r = e.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2; const hit = document.elementFromPoint(x, y); return [x, y, !!hit && (hit === e || e.contains(hit))]; }})()",
            s = json!(selector)
        ));
        let at = found
            .as_array()
            .unwrap_or_else(|| panic!("nothing matches `{selector}`"));
        assert_eq!(at[2], json!(true), "`{selector}` is covered at its centre");
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": at[0], "y": at[1], "button": "left", "clickCount": 1, "modifiers": modifiers}),
            );
        }
    }
}

#[test]
#[ignore = "needs chromium: run by .ci/run"]
fn clicks_show_reach_and_odds_in_chromium() {
    let chromium = find_chromium().expect("chromium is not installed; .ci/run installs it");
    let project = common::copy_project();
    with_enemy_next_to_saxe(project.path());
    let reach = query_json(project.path(), &["reach", SCENARIO, "saxe"]);
    let combat = query_json(
        project.path(),
        &["combat", SCENARIO, "saxe", "--defender", "milice-de-rennes"],
    );
    let (_watch, port) = start_preview(project.path());
    let profile = tempfile::tempdir().unwrap();
    let (_browser, mut cdp) = open_scenario(&chromium, profile.path(), port, "saxe");

    // Saxe's reach: the shaded hexes and the MP left in each are the engine's.
    cdp.click("#board svg g.counter[data-unit=\"saxe\"]");
    cdp.wait_until("document.body.dataset.rules === 'reach:saxe'", DESCRIBE);
    let shaded = cdp.eval(
        "[...document.querySelectorAll('#board svg #reach g.reach')].map(g => [g.dataset.hex, parseFloat(g.dataset.mpLeft)])",
    );
    let pairs = |list: &Value, hex: &str, left: &str| -> Vec<(String, f64)> {
        (list.as_array().unwrap().iter())
            .map(|h| {
                (
                    h[hex].as_str().unwrap().to_string(),
                    h[left].as_f64().unwrap(),
                )
            })
            .collect()
    };
    let shaded: Vec<Value> = shaded
        .as_array()
        .unwrap()
        .iter()
        .map(|p| json!({"hex": p[0], "left": p[1]}))
        .collect();
    assert_eq!(
        pairs(&Value::Array(shaded), "hex", "left"),
        pairs(&reach["hexes"], "hex", "mp_left")
    );
    let panel = cdp.eval("document.getElementById('rules').innerText");
    assert!(
        panel
            .as_str()
            .unwrap_or_default()
            .contains("milice-de-rennes"),
        "{panel}"
    );

    // The militia next to it: the odds, the modifiers and the rules are the engine's.
    cdp.click("#board svg g.counter[data-unit=\"milice-de-rennes\"]");
    cdp.wait_until(
        "document.body.dataset.rules === 'combat:saxe>milice-de-rennes'",
        DESCRIBE,
    );
    let odds = cdp.eval(
        "(() => { const s = document.querySelector('#rules section.odds'); return {ratio: s.dataset.ratio, column: s.dataset.column, attack: parseFloat(s.dataset.attack), defence: parseFloat(s.dataset.defence), text: s.innerText}; })()",
    );
    assert_eq!(odds["ratio"], combat["ratio"]);
    assert_eq!(odds["column"], combat["column"]);
    assert_eq!(odds["attack"].as_f64(), combat["attack"].as_f64());
    assert_eq!(odds["defence"].as_f64(), combat["defence"].as_f64());
    let text = odds["text"].as_str().unwrap_or_default();
    let modifiers = (combat["die_modifiers"].as_array().unwrap().iter())
        .chain(combat["shifts"].as_array().unwrap());
    for m in modifiers {
        assert!(text.contains(m["what"].as_str().unwrap()), "{m} in {text}");
    }
    for r in combat["rules"].as_array().unwrap() {
        assert!(text.contains(r["rule"].as_str().unwrap()), "{r} in {text}");
        if let Some(section) = r["section"].as_str() {
            assert!(text.contains(&format!("({section})")), "{r} in {text}");
        }
    }
    assert_eq!(
        cdp.eval("document.querySelector('#board svg #attack').dataset.hex"),
        json!("0904")
    );

    // Escape clears it all.
    cdp.call(
        "Input.dispatchKeyEvent",
        json!({"type": "keyDown", "key": "Escape", "code": "Escape", "windowsVirtualKeyCode": 27}),
    );
    cdp.wait_until(
        "document.getElementById('rules').hidden && !document.querySelector('#board svg #reach, #board svg #attack')",
        DESCRIBE,
    );
}

/// On the live page: the Ecuyers are clicked, then the shaded hex 0903, which moves
/// them there along their path; a click on the militia shows the odds with the charge
/// (LRF 9.2) as the server judges it, and a Shift-click on `saxe#2` joins the attack.
#[test]
#[ignore = "needs chromium: run by .ci/run"]
fn a_charge_and_a_combined_attack_in_chromium() {
    let chromium = find_chromium().expect("chromium is not installed; .ci/run installs it");
    let project = common::copy_project();
    with_a_charge_lane(project.path());
    let (_watch, port) = start_preview(project.path());
    let served = |target: &str| -> Value {
        let (status, body) = get(port, target);
        assert_eq!(status, 200, "{target}: {body}");
        serde_json::from_str(&body).unwrap()
    };
    let charge = served(&format!(
        "/combat?file={SCENARIO}&attacker=ecuyers&defender=milice-de-rennes&move=ecuyers@0903"
    ));
    let both = served(&format!(
        "/combat?file={SCENARIO}&attacker=ecuyers&attacker=saxe%232&defender=milice-de-rennes&move=ecuyers@0903"
    ));
    let profile = tempfile::tempdir().unwrap();
    let (_browser, mut cdp) = open_scenario(&chromium, profile.path(), port, "ecuyers");
    cdp.click("#board svg g.counter[data-unit=\"ecuyers\"]");
    cdp.wait_until("document.body.dataset.rules === 'reach:ecuyers'", DESCRIBE);
    cdp.click("#board svg polygon.hex[data-hex=\"0903\"]");
    cdp.wait_until(
        "document.body.dataset.rules === 'move:ecuyers@0903'",
        DESCRIBE,
    );
    assert_eq!(
        cdp.eval("document.querySelector('#board svg #move').dataset.to"),
        json!("0903")
    );
    let moved = cdp.eval("document.querySelector('#rules p.moved').innerText");
    assert!(
        moved
            .as_str()
            .unwrap_or_default()
            .contains("0901 0902 0903"),
        "{moved}"
    );

    let odds = "(() => { const s = document.querySelector('#rules section.odds'); const c = document.querySelector('#rules p.charge'); return {ratio: s.dataset.ratio, attack: parseFloat(s.dataset.attack), charge: c && c.dataset.charge, text: s.innerText}; })()";
    cdp.click("#board svg g.counter[data-unit=\"milice-de-rennes\"]");
    cdp.wait_until(
        "document.body.dataset.rules === 'combat:ecuyers>milice-de-rennes'",
        DESCRIBE,
    );
    let shown = cdp.eval(odds);
    assert_eq!(shown["ratio"], charge["combat"]["ratio"]);
    assert_eq!(
        shown["attack"].as_f64(),
        charge["combat"]["attack"].as_f64()
    );
    assert_eq!(shown["charge"], json!("true"), "{shown}");
    let text = shown["text"].as_str().unwrap_or_default();
    assert!(text.contains("+2 charge (9.2)"), "{text}");

    cdp.click_with("#board svg g.counter[data-unit=\"saxe#2\"]", 8);
    cdp.wait_until(
        "document.body.dataset.rules === 'combat:ecuyers+saxe#2>milice-de-rennes'",
        DESCRIBE,
    );
    let shown = cdp.eval(odds);
    assert_eq!(shown["ratio"], both["combat"]["ratio"]);
    assert_eq!(shown["attack"].as_f64(), both["combat"]["attack"].as_f64());
    assert!(
        shown["attack"].as_f64() > charge["combat"]["attack"].as_f64(),
        "{shown}"
    );
    assert_eq!(shown["charge"], json!("true"), "{shown}");
    assert_eq!(
        cdp.eval("document.querySelectorAll('#board svg #attack line').length"),
        json!(2)
    );
}
