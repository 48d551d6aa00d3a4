//! The server's features through `Server::handle`, message by message, on a temporary
//! copy of the bundled project (no transport: the CLI's `tests/lsp.rs` drives the real
//! binary over stdio).

use std::path::PathBuf;

use lsp_server::{Message, Notification, Request, RequestId};
use muster_lsp::Server;
use serde_json::{Value, json};

struct Session {
    _dir: tempfile::TempDir,
    root: PathBuf,
    server: Server,
    next: i32,
}

impl Session {
    fn new() -> Session {
        let dir = muster_testkit::copy_project();
        let root = dir.path().canonicalize().unwrap();
        Session {
            _dir: dir,
            root,
            server: Server::default(),
            next: 1,
        }
    }

    fn uri(&self, rel: &str) -> String {
        muster_lsp::uri::from_path(&self.root.join(rel))
            .unwrap()
            .as_str()
            .to_string()
    }

    fn notify(&mut self, method: &str, params: Value) {
        let (out, exit) = self.server.handle(Message::Notification(Notification::new(
            method.into(),
            params,
        )));
        assert!(out.is_empty() && exit.is_none());
    }

    /// Opens a file with `text` (its disk text when `None`) and returns the diagnostics
    /// published for it.
    fn open(&mut self, rel: &str, text: Option<&str>) -> Vec<Value> {
        let text = text.map_or_else(
            || std::fs::read_to_string(self.root.join(rel)).unwrap(),
            str::to_string,
        );
        let uri = self.uri(rel);
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "ron", "version": 1, "text": text}}),
        );
        self.diagnostics(&uri)
    }

    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        for m in self.server.publish() {
            if let Message::Notification(n) = m
                && n.params["uri"] == uri
            {
                return n.params["diagnostics"].as_array().unwrap().clone();
            }
        }
        panic!("no diagnostics for {uri}");
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        let (out, _) = self.server.handle(Message::Request(Request::new(
            RequestId::from(id),
            method.into(),
            params,
        )));
        let Some(Message::Response(r)) = out.into_iter().next() else {
            panic!("no response");
        };
        match r.response_result {
            Err(e) => panic!("{method}: {e:?}"),
            Ok(v) => v,
        }
    }

    fn at(&self, rel: &str, text: &str, needle: &str, into: usize) -> Value {
        let offset = text.find(needle).unwrap_or_else(|| panic!("{needle}")) + into;
        let lines = muster_lsp::pos::Lines::new(text);
        json!({"textDocument": {"uri": self.uri(rel)}, "position": lines.position(offset)})
    }
}

/// The labels of a completion response.
fn labels(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

/// The text of a hover answer (empty when there is none).
fn hover_text(v: &Value) -> &str {
    v["contents"]["value"].as_str().unwrap_or_default()
}

const JENGLAND: &str = "scenarios/lrf/jengland.scenario.ron";

#[test]
fn completes_field_names_and_variants_from_the_schema() {
    let mut s = Session::new();
    let text = std::fs::read_to_string(s.root.join(JENGLAND))
        .unwrap()
        .replacen(
            "(units: [(counter: \"saxe\", count: 2)], at: Hexes([\"0903\", \"1004\"])),",
            "(units: [(counter: \"saxe\", count: 2)], ),",
            1,
        );
    s.open(JENGLAND, Some(&text));
    // After the comma of a set-up group: the fields it lacks (`at`, and the optional
    // `army` and `choose`).
    let r = s.request(
        "textDocument/completion",
        s.at(JENGLAND, &text, "count: 2)], ),", "count: 2)], ".len()),
    );
    assert_eq!(labels(&r), ["army", "at", "choose"]);
    // After `at:`: the placements.
    let text = text.replacen("count: 2)], ),", "count: 2)], at: ),", 1);
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": s.uri(JENGLAND), "version": 2}, "contentChanges": [{"text": text}]}),
    );
    let r = s.request(
        "textDocument/completion",
        s.at(
            JENGLAND,
            &text,
            "count: 2)], at: ),",
            "count: 2)], at: ".len(),
        ),
    );
    let got = labels(&r);
    for v in ["Hexes", "Range", "OnUnit", "Spaced", "Box"] {
        assert!(got.contains(&v.to_string()), "{got:?}");
    }
    // In a hex: the map's hexes with their terrain.
    let r = s.request(
        "textDocument/completion",
        s.at(JENGLAND, &text, "\"0701\"", 2),
    );
    let items = r.as_array().unwrap();
    let wood = items.iter().find(|i| i["label"] == "0201").unwrap();
    assert_eq!(wood["detail"], "woods");
    assert_eq!(items.len(), 15 * 12);
}

#[test]
fn quick_fixes_silence_and_move_an_over_stacked_unit() {
    let mut s = Session::new();
    let text = std::fs::read_to_string(s.root.join(JENGLAND))
        .unwrap()
        .replacen(
            "Hexes([\"0903\", \"1004\"])",
            "Hexes([\"0903\", \"0903\"])",
            1,
        );
    let diagnostics = s.open(JENGLAND, Some(&text));
    let stacked = diagnostics
        .iter()
        .find(|d| d["code"] == "stacking::over-stacked")
        .unwrap_or_else(|| panic!("{diagnostics:#?}"))
        .clone();
    let params = json!({
        "textDocument": {"uri": s.uri(JENGLAND)},
        "range": stacked["range"],
        "context": {"diagnostics": [stacked]},
    });
    let actions = s.request("textDocument/codeAction", params);
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    // 0903's neighbours (even columns half a hex down): 0802 0803 0902 0904 1002 1003;
    // the bowmen stand on 1002.
    assert_eq!(
        titles[..5],
        [
            "Move to the free neighbouring hex `1003` (clear)",
            "Move to the free neighbouring hex `0904` (clear)",
            "Move to the free neighbouring hex `0803` (clear)",
            "Move to the free neighbouring hex `0802` (clear)",
            "Move to the free neighbouring hex `0902` (clear)",
        ]
    );
    assert!(
        titles.contains(&"Allow `stacking::over-stacked` on this line (with a reason)"),
        "{titles:?}"
    );
    let allow =
        &actions.as_array().unwrap()[titles.iter().position(|t| t.starts_with("Allow")).unwrap()];
    let edit = &allow["edit"]["changes"][s.uri(JENGLAND)][0];
    assert_eq!(edit["range"]["start"]["character"], 0);
    assert_eq!(
        edit["newText"],
        "                // muster: allow(stacking::over-stacked) reason: TODO say why\n"
    );
    // The suppression, applied, silences the finding (and the reason placeholder is one).
    let line = stacked["range"]["start"]["line"].as_u64().unwrap() as usize;
    let mut lines: Vec<&str> = text.lines().collect();
    let comment = edit["newText"].as_str().unwrap().trim_end();
    lines.insert(line, comment);
    let silenced = lines.join("\n") + "\n";
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": s.uri(JENGLAND), "version": 2}, "contentChanges": [{"text": silenced}]}),
    );
    let after = s.diagnostics(&s.uri(JENGLAND));
    assert!(
        !after.iter().any(|d| d["code"] == "stacking::over-stacked"),
        "{after:#?}"
    );
}

#[test]
fn definitions_references_hooks_sides_and_outline() {
    let mut s = Session::new();
    let text = std::fs::read_to_string(s.root.join(JENGLAND)).unwrap();
    assert_eq!(s.open(JENGLAND, None), Vec::<Value>::new());
    // A side id: its definition in the scenario, its totals on hover.
    let r = s.request(
        "textDocument/definition",
        s.at(JENGLAND, &text, "plays_first: \"bretons\"", 15),
    );
    let lines = muster_lsp::pos::Lines::new(&text);
    let def = text.find("id: \"bretons\"").unwrap() + 4;
    assert_eq!(r["range"]["start"], json!(lines.position(def)));
    let r = s.request(
        "textDocument/hover",
        s.at(JENGLAND, &text, "plays_first: \"bretons\"", 15),
    );
    let shown = r["contents"]["value"].as_str().unwrap();
    assert!(
        shown.contains("**Breton army** (side `bretons`)") && shown.contains("combat units: "),
        "{shown}"
    );
    // A hook: its `muster explain` page.
    let r = s.request(
        "textDocument/hover",
        s.at(JENGLAND, &text, "\"evasion\"", 2),
    );
    let hook = muster_semantic::hooks::find("evasion").unwrap();
    assert_eq!(r["contents"]["value"], muster_check::docs::hook_page(hook));
    // A counter in a hook's parameters is a counter too.
    let r = s.request(
        "textDocument/definition",
        s.at(JENGLAND, &text, "[\"jengland-breton-cavalry-4\"", 3),
    );
    assert!(
        r["uri"].as_str().unwrap().ends_with("lrf.counters.ron"),
        "{r}"
    );
    // So is the last item of that list (a listed parameter is classed once for all).
    let r = s.request(
        "textDocument/definition",
        s.at(JENGLAND, &text, "\"jengland-breton-cavalry-2\"]", 3),
    );
    assert!(
        r["uri"].as_str().unwrap().ends_with("lrf.counters.ron"),
        "{r}"
    );
    // References of a counter: the set-up line, the hook parameter, the sheet's entry.
    let mut params = s.at(JENGLAND, &text, "\"jengland-breton-cavalry-4\"", 3);
    params["context"] = json!({"includeDeclaration": true});
    let r = s.request("textDocument/references", params);
    let uris: Vec<&str> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris.iter()
            .filter(|u| u.ends_with("jengland.scenario.ron"))
            .count(),
        2,
        "{uris:?}"
    );
    assert_eq!(
        uris.iter()
            .filter(|u| u.ends_with("lrf.counters.ron"))
            .count(),
        1,
        "{uris:?}"
    );
    // References of a side: every place of the scenario that names `bretons`.
    let mut params = s.at(JENGLAND, &text, "plays_first: \"bretons\"", 15);
    params["context"] = json!({"includeDeclaration": true});
    let r = s.request("textDocument/references", params);
    let found: Vec<u32> = r
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| {
            l["uri"]
                .as_str()
                .unwrap()
                .ends_with("jengland.scenario.ron")
        })
        .map(|l| l["range"]["start"]["line"].as_u64().unwrap() as u32)
        .collect();
    let expected: Vec<u32> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("\"bretons\""))
        .map(|(i, _)| i as u32)
        .collect();
    assert!(expected.len() >= 2, "the side is named more than once");
    for line in &expected {
        assert!(
            found.contains(line),
            "line {line} names `bretons`: {found:?}"
        );
    }
    // References of a terrain id from the system: the maps that use it.
    let system = "scenarios/lrf/lrf.system.ron";
    let sys_text = std::fs::read_to_string(s.root.join(system)).unwrap();
    s.open(system, None);
    let mut params = s.at(system, &sys_text, "id: \"woods\"", 5);
    params["context"] = json!({"includeDeclaration": false});
    let r = s.request("textDocument/references", params);
    let maps: Vec<&str> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["uri"].as_str().unwrap())
        .collect();
    assert!(
        maps.iter().any(|u| u.ends_with("jengland.map.ron")),
        "{maps:?}"
    );
    assert!(
        maps.iter()
            .all(|u| u.contains("/maps/lrf/") || u.contains("/scenarios/lrf/")),
        "{maps:?}"
    );
    // Hover on terrain in a map: its row of the chart.
    let map = "maps/lrf/jengland.map.ron";
    let map_text = std::fs::read_to_string(s.root.join(map)).unwrap();
    s.open(map, None);
    let r = s.request(
        "textDocument/hover",
        s.at(map, &map_text, "terrain: \"woods\"", 11),
    );
    let shown = r["contents"]["value"].as_str().unwrap();
    assert_eq!(
        shown,
        "**Woods** (terrain `woods`)\n\nmovement: 2 MP; combat: column shift -1"
    );
    let r = s.request(
        "textDocument/definition",
        s.at(map, &map_text, "terrain: \"woods\"", 11),
    );
    assert!(
        r["uri"].as_str().unwrap().ends_with("lrf.system.ron"),
        "{r}"
    );
    // The outline: two sides with their set-up groups, two rules.
    let r = s.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": s.uri(JENGLAND)}}),
    );
    let names: Vec<&str> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Frankish army",
            "Breton army",
            "rule evasion",
            "rule impassable-area"
        ]
    );
    assert_eq!(r[0]["children"].as_array().unwrap().len(), 5);
    assert_eq!(r[0]["children"][1]["name"], "group 2: 2 x saxe");
    let r = s.request(
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": s.uri(JENGLAND)}}),
    );
    assert!(r.as_array().unwrap().len() > 10);
}

/// References build each file's line table once, not once per place found: on a file
/// whose one line names a side thousands of times, a table per place read the whole line
/// for each (minutes of work on a few hundred kilobytes).
#[test]
fn references_build_one_line_table_per_file() {
    let mut s = Session::new();
    let text = std::fs::read_to_string(s.root.join(JENGLAND)).unwrap();
    let many = "Otherwise(side: \"bretons\", level: Minor), ".repeat(200);
    let text = text.replacen("victory: [", &format!("victory: [{many}"), 1);
    s.open(JENGLAND, Some(&text));
    let mut params = s.at(JENGLAND, &text, "plays_first: \"bretons\"", 15);
    params["context"] = json!({"includeDeclaration": true});
    let before = muster_lsp::pos::tables_built();
    let r = s.request("textDocument/references", params);
    let built = muster_lsp::pos::tables_built() - before;
    let found = r.as_array().unwrap().len();
    assert!(found > 200, "{found} references");
    assert!(
        built <= 4,
        "{built} line tables built for {found} references"
    );
}

/// A name given more than `MAX_REFERENCES` times is answered with the first
/// `MAX_REFERENCES` places and a message saying there are more: all of them, as JSON,
/// cost seconds and gigabytes for a list repeated a hundred thousand times.
#[test]
fn references_to_a_name_given_very_often_are_bounded_and_say_so() {
    let mut s = Session::new();
    let max = muster_lsp::MAX_REFERENCES;
    let text = std::fs::read_to_string(s.root.join(JENGLAND)).unwrap();
    let many = "Otherwise(side: \"bretons\", level: Minor), ".repeat(max + 50);
    let text = text.replacen("victory: [", &format!("victory: [{many}"), 1);
    s.open(JENGLAND, Some(&text));
    let mut params = s.at(JENGLAND, &text, "plays_first: \"bretons\"", 15);
    params["context"] = json!({"includeDeclaration": true});
    let (out, _) = s.server.handle(Message::Request(Request::new(
        RequestId::from(999),
        "textDocument/references".into(),
        params,
    )));
    let [Message::Response(r), Message::Notification(note)] = &out[..] else {
        panic!("expected a response and a message, got {out:?}");
    };
    let found = r
        .response_result
        .as_ref()
        .unwrap()
        .as_array()
        .unwrap()
        .len();
    assert_eq!(found, max);
    assert_eq!(note.method, "window/showMessage");
    let said = note.params["message"].as_str().unwrap();
    assert!(
        said.contains(&format!(
            "`bretons` is named more than {max} times; the first {max}"
        )),
        "{said}"
    );
}

/// A buffer is loaded into its project once per change, not once per request: each
/// load reads and checks the whole text, so an editor asking about places in an
/// unchanged multi-megabyte scenario paid seconds per request.
#[test]
fn requests_about_an_unchanged_buffer_load_it_once() {
    let mut s = Session::new();
    let text = std::fs::read_to_string(s.root.join(JENGLAND)).unwrap();
    let before = muster_lsp::leaves_loaded();
    s.open(JENGLAND, Some(&text));
    let requests = |s: &mut Session, text: &str| {
        for needle in ["plays_first: \"bretons\"", "\"saxe\"", "\"0701\""] {
            let params = s.at(JENGLAND, text, needle, needle.len() - 3);
            for method in [
                "textDocument/hover",
                "textDocument/definition",
                "textDocument/completion",
            ] {
                s.request(method, params.clone());
            }
            let mut params = params;
            params["context"] = json!({"includeDeclaration": true});
            s.request("textDocument/references", params);
        }
    };
    let hooks_before = muster_lsp::hook_refs_worked();
    let built_before = muster_lsp::scenarios_built();
    requests(&mut s, &text);
    let loaded = muster_lsp::leaves_loaded() - before;
    // The buffer once, to publish its diagnostics and for the requests that follow,
    // and every scenario of the project once for references.
    assert_eq!(
        loaded, 2,
        "opening and 12 requests loaded scenarios {loaded} times"
    );
    // Only the three hovers (a side, a counter, a hex) read the scenario's set-up.
    let built = muster_lsp::scenarios_built() - built_before;
    assert_eq!(built, 3, "12 requests built {built} scenario contexts");
    // Each loaded scenario's hook parameters are read once, whatever the requests.
    let hooks = muster_lsp::hook_refs_worked() - hooks_before;
    assert!(hooks > 0, "no hook parameters read");
    requests(&mut s, &text);
    let again = muster_lsp::hook_refs_worked() - hooks_before - hooks;
    assert_eq!(
        again, 0,
        "12 more requests read hook parameters {again} times"
    );
    // An edit is seen: the buffer is loaded again, once.
    let text = text.replacen("plays_first", " plays_first", 1);
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": s.uri(JENGLAND), "version": 2}, "contentChanges": [{"text": text}]}),
    );
    let before = muster_lsp::leaves_loaded();
    requests(&mut s, &text);
    let loaded = muster_lsp::leaves_loaded() - before;
    assert_eq!(
        loaded, 2,
        "after an edit, 12 requests loaded scenarios {loaded} times"
    );
    // An edit whose diagnostics are published before the requests: they share a load.
    let text = text.replacen("plays_first", " plays_first", 1);
    let before = muster_lsp::leaves_loaded();
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": s.uri(JENGLAND), "version": 3}, "contentChanges": [{"text": text}]}),
    );
    let uri = s.uri(JENGLAND);
    s.diagnostics(&uri);
    requests(&mut s, &text);
    let loaded = muster_lsp::leaves_loaded() - before;
    assert_eq!(
        loaded, 2,
        "publishing after an edit and 12 requests loaded scenarios {loaded} times"
    );
}

/// An outline shows at most `LIST_LIMIT` entries of a list; the rest of a longer list
/// is one entry that says how many and covers them. Tens of thousands of groups, one
/// JSON object each, cost more than checking the file.
#[test]
fn a_long_list_is_one_entry_past_the_outline_limit() {
    let mut s = Session::new();
    let group = "(units: [(counter: \"saxe\", count: 2)], at: Hexes([\"0903\", \"1004\"])),";
    let extra = muster_lsp::OUTLINE_LIST_LIMIT + 500;
    let copies = "(units: [(counter: \"saxe\", count: 1)], at: Hexes([\"0903\"])),\n".repeat(extra);
    let text = std::fs::read_to_string(s.root.join(JENGLAND))
        .unwrap()
        .replacen(group, &format!("{group}\n{copies}"), 1);
    s.open(JENGLAND, Some(&text));
    let r = s.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": s.uri(JENGLAND)}}),
    );
    let groups = r[0]["children"].as_array().unwrap();
    let limit = muster_lsp::OUTLINE_LIST_LIMIT;
    assert_eq!(groups.len(), limit + 1);
    assert_eq!(groups[1]["name"], "group 2: 2 x saxe");
    let last = &groups[limit];
    // jengland's side has 5 groups of its own.
    let rest = extra + 5 - limit;
    assert_eq!(last["name"], format!("… {rest} more groups"), "{last}");
    // The folded entry runs from the first group it stands for to the last.
    let lines: Vec<&str> = text.lines().collect();
    let from = last["range"]["start"]["line"].as_u64().unwrap() as usize;
    let to = last["range"]["end"]["line"].as_u64().unwrap() as usize;
    assert!(lines[from].contains("count: 1"), "{}", lines[from]);
    let bretons = lines
        .iter()
        .position(|l| l.contains("Breton army"))
        .unwrap();
    assert!(to - from >= rest - 1 && to < bretons, "{from}..{to}");
    // The other side is whole.
    assert_eq!(r[1]["name"], "Breton army");
}

/// A file with thousands of problems publishes the first `MAX_PUBLISHED` and one more
/// saying how many are left out: all of them, each a JSON object with its related
/// places, came to gigabytes for a list repeated a few hundred thousand times.
#[test]
fn a_file_with_thousands_of_problems_publishes_a_bounded_list() {
    let mut s = Session::new();
    let group = "(units: [(counter: \"saxe\", count: 2)], at: Hexes([\"0903\", \"1004\"])),";
    // Two mistakes, each over the thousand findings of a check that a file lists.
    let unknown = "(units: [(counter: \"nobody\", count: 1)], at: Hexes([\"0903\"])), \
                   (units: [(counter: \"saxe\", count: 1)], at: Hexes([\"9999\"])), ";
    let text = std::fs::read_to_string(s.root.join(JENGLAND))
        .unwrap()
        .replacen(group, &format!("{group} {}", unknown.repeat(1500)), 1);
    let published = s.open(JENGLAND, Some(&text));
    let max = muster_lsp::MAX_PUBLISHED;
    assert_eq!(published.len(), max + 1, "{} published", published.len());
    let last = published[max]["message"].as_str().unwrap();
    assert!(last.contains("more problems"), "{last}");
    let more: usize = last.split(' ').next().unwrap().parse().unwrap();
    assert!(more >= 500, "{last}");
}

/// The rules vocabulary is completed and explained from the schema: inside a rule's
/// `when`, the conditions; inside `then`, the effects; on a condition, its meaning.
#[test]
fn completes_and_explains_the_vocabulary() {
    const SYSTEM: &str = "scenarios/lrf/lrf.system.ron";
    let mut s = Session::new();
    let text = std::fs::read_to_string(s.root.join(SYSTEM)).unwrap().replacen(
        "    rules: (\n",
        "    rules: (\n        effects: [(id: \"creek\", section: \"7\", when: All([Defending, ]), then: [])],\n",
        1,
    );
    s.open(SYSTEM, Some(&text));
    let r = s.request(
        "textDocument/completion",
        s.at(
            SYSTEM,
            &text,
            "All([Defending, ])",
            "All([Defending, ".len(),
        ),
    );
    let got = labels(&r);
    for v in [
        "AllAttackersAcross",
        "InEnemyZoc",
        "Weather",
        "Not",
        "OwnSide",
    ] {
        assert!(got.contains(&v.to_string()), "{got:?}");
    }
    let r = s.request(
        "textDocument/completion",
        s.at(SYSTEM, &text, "then: [])", "then: [".len()),
    );
    let got = labels(&r);
    for v in ["OddsShift", "MayNot", "StackingLimit", "Zoc"] {
        assert!(got.contains(&v.to_string()), "{got:?}");
    }
    let r = s.request("textDocument/hover", s.at(SYSTEM, &text, "Defending, ]", 2));
    assert!(hover_text(&r).contains("The unit defends"), "{r}");
    let r = s.request(
        "textDocument/hover",
        s.at(SYSTEM, &text, "All([Defending", 1),
    );
    assert!(
        hover_text(&r).contains("Every condition of the list holds"),
        "{r}"
    );
    let r = s.request(
        "textDocument/hover",
        s.at(SYSTEM, &text, "effects: [(id: \"creek\"", 2),
    );
    assert!(
        hover_text(&r).contains("vocabulary of conditions and effects"),
        "{r}"
    );
}

/// The variants of a vocabulary enum in the generated system schema, each with its
/// description and whether it takes no value (a bare name such as `Defending`).
fn vocabulary(name: &str) -> Vec<(String, String, bool)> {
    let path = muster_testkit::repo().join("schema/system.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    schema["$defs"][name]["oneOf"]
        .as_array()
        .unwrap_or_else(|| panic!("{name} has no variants in the schema"))
        .iter()
        .map(|v| {
            let described = v["description"].as_str().unwrap_or_default().to_string();
            match v["const"].as_str() {
                Some(bare) => (bare.to_string(), described, true),
                None => {
                    let name = v["required"][0].as_str().unwrap().to_string();
                    (name, described, false)
                }
            }
        })
        .collect()
}

/// Every condition, effect and act of the vocabulary is offered where it may be
/// written, and every one has the words a hover shows; each bare condition and each act
/// is hovered in place and shows them.
#[test]
fn every_condition_effect_and_act_is_completed_and_explained() {
    const SYSTEM: &str = "scenarios/lrf/lrf.system.ron";
    let (conditions, effects, acts) = (
        vocabulary("Condition"),
        vocabulary("Effect"),
        vocabulary("Act"),
    );
    assert!(conditions.len() >= 30 && effects.len() >= 17 && acts.len() >= 10);
    for (name, described, _) in conditions.iter().chain(&effects).chain(&acts) {
        assert!(
            !described.is_empty(),
            "`{name}` has no description to hover"
        );
    }
    let bare: Vec<&str> = conditions
        .iter()
        .filter(|c| c.2)
        .map(|c| c.0.as_str())
        .collect();
    let may_not: Vec<String> = acts.iter().map(|a| format!("MayNot({})", a.0)).collect();
    let rule = format!(
        "        effects: [(id: \"every\", section: \"7\", when: All([{}, ]), then: [{}, ])],\n",
        bare.join(", "),
        may_not.join(", ")
    );
    let mut s = Session::new();
    let text = std::fs::read_to_string(s.root.join(SYSTEM))
        .unwrap()
        .replacen("    rules: (\n", &format!("    rules: (\n{rule}"), 1);
    s.open(SYSTEM, Some(&text));
    let when = format!("{}, ]", bare.last().unwrap());
    let got = labels(&s.request(
        "textDocument/completion",
        s.at(SYSTEM, &text, &when, when.len() - 1),
    ));
    for (name, _, _) in &conditions {
        assert!(
            got.contains(name),
            "condition `{name}` not offered: {got:?}"
        );
    }
    let then = format!("{}, ]", may_not.last().unwrap());
    let got = labels(&s.request(
        "textDocument/completion",
        s.at(SYSTEM, &text, &then, then.len() - 1),
    ));
    for (name, _, _) in &effects {
        assert!(got.contains(name), "effect `{name}` not offered: {got:?}");
    }
    let first_line = |d: &str| d.lines().next().unwrap_or_default().to_string();
    let line = text.lines().find(|l| l.contains("id: \"every\"")).unwrap();
    let bare_conditions = conditions.iter().filter(|c| c.2).map(|c| (c, false));
    for ((name, described, _), act) in bare_conditions.chain(acts.iter().map(|a| (a, true))) {
        // Where the name itself starts on the rule's line.
        let from = if act {
            line.find(&format!("MayNot({name})"))
                .map(|i| i + "MayNot(".len())
        } else {
            [" ", "["]
                .iter()
                .find_map(|before| line.find(&format!("{before}{name}, ")).map(|i| i + 1))
        };
        let from = from.unwrap_or_else(|| panic!("`{name}` is not on the rule's line"));
        let at = s.at(SYSTEM, &text, line, from + 1);
        let shown = hover_text(&s.request("textDocument/hover", at)).to_string();
        assert!(
            shown.contains(&first_line(described)),
            "hover on `{name}` shows {shown:?}, not {described:?}"
        );
    }
}

/// The combat rules and a table read by differential are completed and explained from
/// the schema: the obligations, the fields a combined attack lacks, the kinds of index,
/// and what a rule and the index mean.
#[test]
fn completes_and_explains_the_combat_rules() {
    const SYSTEM: &str = "scenarios/lrf/lrf.system.ron";
    let mut s = Session::new();
    let text = std::fs::read_to_string(s.root.join(SYSTEM))
        .unwrap()
        .replacen("attacks: Voluntary", "attacks: ", 1)
        .replacen(
            "combined: Some((section: \"9.1\", attackers: true, defenders: OneDefender)),",
            "combined: Some((section: \"9.1\", )),\n            split_strength: Some((section: \"9.1\", allowed: false)),",
            1,
        )
        .replacen("        odds: [\"1/2\"", "        index: ,\n        odds: [\"1/2\"", 1);
    s.open(SYSTEM, Some(&text));
    let r = s.request(
        "textDocument/completion",
        s.at(SYSTEM, &text, "attacks: )", "attacks: ".len()),
    );
    let got = labels(&r);
    for v in [
        "Voluntary",
        "EveryAdjacentEnemy",
        "EveryAdjacentUnit",
        "EveryAdjacentEnemyAndUnit",
    ] {
        assert!(got.contains(&v.to_string()), "{got:?}");
    }
    let r = s.request(
        "textDocument/completion",
        s.at(SYSTEM, &text, "\"9.1\", )),", "\"9.1\", ".len()),
    );
    let got = labels(&r);
    for v in ["attackers", "defenders", "note"] {
        assert!(got.contains(&v.to_string()), "{got:?}");
    }
    assert!(!got.contains(&"section".to_string()), "{got:?}");
    let r = s.request(
        "textDocument/completion",
        s.at(SYSTEM, &text, "index: ,", "index: ".len()),
    );
    assert_eq!(labels(&r), ["Odds", "Differential"]);
    let r = s.request(
        "textDocument/hover",
        s.at(SYSTEM, &text, "split_strength: Some", 2),
    );
    assert!(
        hover_text(&r).contains("strength may be split among several attacks"),
        "{r}"
    );
    let r = s.request(
        "textDocument/hover",
        s.at(SYSTEM, &text, "once_per_phase: Some", 2),
    );
    assert!(
        hover_text(&r).contains("How often a unit may attack"),
        "{r}"
    );
    let r = s.request("textDocument/hover", s.at(SYSTEM, &text, "index: ,", 2));
    assert!(
        hover_text(&r).contains("odds, the default, or the differential"),
        "{r}"
    );
}

#[test]
fn hover_on_a_hex_shows_every_terrain_in_it_and_what_they_make_together() {
    let mut s = Session::new();
    let system = s.root.join("scenarios/lrf/lrf.system.ron");
    let text = std::fs::read_to_string(&system).unwrap().replacen(
        "    rules: (\n",
        "    rules: (\n        terrain_combine: (cost: Cumulative, combat: Strongest),\n",
        1,
    );
    std::fs::write(&system, text).unwrap();
    let map = "maps/lrf/jengland.map.ron";
    let text = std::fs::read_to_string(s.root.join(map)).unwrap().replacen(
        "    overlays: [\n",
        "    overlays: [\n        AddTerrain(terrain: \"village\", area: List([\"0201\"])),\n",
        1,
    );
    let diagnostics = s.open(map, Some(&text));
    assert_eq!(diagnostics, Vec::<Value>::new());
    let r = s.request(
        "textDocument/hover",
        s.at(map, &text, "List([\"0201\"]))", 7),
    );
    let shown = r["contents"]["value"].as_str().unwrap();
    // Woods (2 MP, shift -1) and a village (1 MP, modifier +1): costs added up, the
    // strongest modifier and shift.
    assert!(
        shown.starts_with(
            "**hex 0201**\n\nterrain: Woods (`woods`, 2 MP)  \nalso: Village (`village`, 1 MP)  \nall together: 3 MP, die modifier +1, column shift -1"
        ),
        "{shown}"
    );
    // The added terrain itself is the system's row, as a terrain overlay's is.
    let r = s.request(
        "textDocument/hover",
        s.at(map, &text, "AddTerrain(terrain: \"village\"", 21),
    );
    let shown = r["contents"]["value"].as_str().unwrap();
    assert!(
        shown.starts_with("**Village** (terrain `village`)"),
        "{shown}"
    );
    // A hex with one terrain says nothing more.
    let r = s.request("textDocument/hover", s.at(map, &text, "\"0202\"", 2));
    let shown = r["contents"]["value"].as_str().unwrap();
    assert!(!shown.contains("also:"), "{shown}");
}
