//! What is served: the index of the project's maps and scenarios and the page (or the
//! live content) of one of them, drawn from the latest round.

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use muster_db::load::Document;
use muster_db::project::{Db, Resolution, normalize};
use muster_db::{Diagnostic, Severity};
use muster_model::FileKind;
use muster_render::Options;
use muster_render::svg::esc;

use super::answer::{Page, html, message, not_found};
use super::{Round, Site};

pub(super) fn respond(site: &Site, path: &str, query: &str) -> Page {
    let Some(path) = percent_decode(path) else {
        return not_found();
    };
    if path == "/reach" || path == "/combat" {
        return super::rules::respond(site, &path, query);
    }
    if path == "/" || path == "/index.html" {
        let Some(round) = site.published.current() else {
            return message(503, "<p>The project has not been checked yet.</p>");
        };
        return html(200, index(&site.root, &round));
    }
    let Some(rel) = path.strip_prefix("/view/") else {
        return not_found();
    };
    let Some(file) = inside(&site.root, rel) else {
        return not_found();
    };
    let Some(round) = site.published.current() else {
        return message(503, "<p>The project has not been checked yet.</p>");
    };
    let db = &round.db;
    let Some(index) = db.index_of(&file).filter(|&i| drawable(db, &site.root, i)) else {
        return not_found();
    };
    let content = query.split('&').any(|kv| kv == "content=1");
    // The board at the start of `turn=N` (the set-up when it is not a turn number).
    let turn = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("turn="))
        .and_then(|t| t.parse::<u8>().ok())
        .unwrap_or(1);
    html(200, view(&site.root, &round, index, content, turn))
}

/// A project file named by a relative path: no `..`, nothing absolute, inside the root.
pub(super) fn inside(root: &Path, rel: &str) -> Option<PathBuf> {
    if rel.is_empty() || rel.contains('\\') || rel.contains('\0') {
        return None;
    }
    let rel = Path::new(rel);
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return None;
    }
    let file = normalize(&root.join(rel));
    file.starts_with(root).then_some(file)
}

/// Maps and scenarios inside the project are drawn.
pub(super) fn drawable(db: &Db, root: &Path, index: usize) -> bool {
    let loaded = &db.files[index];
    matches!(loaded.kind, Some(FileKind::Map | FileKind::Scenario))
        && normalize(&loaded.file.path).starts_with(root)
}

fn relative(root: &Path, path: &Path) -> String {
    let path = normalize(path);
    path.strip_prefix(root)
        .unwrap_or(&path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// The page (or its content) of the map or scenario at `index`, at the start of `turn`.
fn view(root: &Path, round: &Round, index: usize, content: bool, turn: u8) -> String {
    let (db, report) = (&*round.db, &*round.report);
    let path = normalize(&db.files[index].file.path);
    let mut diagnostics: Vec<Diagnostic> = report.get(&path).cloned().unwrap_or_default();
    // A scenario is drawn on its map: the map's problems are shown too.
    if let Some(Document::Scenario(s)) = db.doc(index)
        && let Resolution::Found(m) = db.resolve(index, &s.map, FileKind::Map)
        && m != index
        && let Some(map_diagnostics) = report.get(&normalize(&db.files[m].file.path))
    {
        diagnostics.extend(map_diagnostics.iter().cloned());
    }
    diagnostics.sort_by_key(Diagnostic::sort_key);
    let options = Options {
        turn,
        ..Options::default()
    };
    let rendered = muster_render::render(db, index, &diagnostics, &options);
    let name_of = |d: &Diagnostic| relative(root, &d.file.path);
    if content {
        muster_render::html::content(&rendered, &diagnostics, &name_of, true)
    } else {
        let live = format!("/events?since={}", round.generation);
        muster_render::html::page(&rendered, &diagnostics, &name_of, Some(&live))
    }
}

/// Every map and scenario of the project with its counts.
fn index(root: &Path, round: &Round) -> String {
    let (db, report, generation) = (&*round.db, &*round.report, round.generation);
    let mut files: Vec<(String, &'static str, Option<&Vec<Diagnostic>>)> = (0..db.files.len())
        .filter(|&i| drawable(db, root, i))
        .map(|i| {
            let path = normalize(&db.files[i].file.path);
            let what = match db.files[i].kind {
                Some(FileKind::Map) => "map",
                _ => "scenario",
            };
            (relative(root, &path), what, report.get(&path))
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files.dedup_by(|a, b| a.0 == b.0);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} - muster preview</title>\n<style>{INDEX_STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n<p>Maps and scenarios of the project, checked on every save.</p>\n<table>\n<thead><tr><th>file</th><th>kind</th><th>errors</th><th>warnings</th></tr></thead>\n<tbody>\n",
        esc(&project_name(root)),
        esc(&project_name(root)),
    );
    for (rel, what, diagnostics) in &files {
        let (errors, warnings) = diagnostics.map_or((None, None), |list| {
            let errors = list
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count();
            let warnings = list
                .iter()
                .filter(|d| d.severity == Severity::Warning)
                .count();
            (Some(errors), Some(warnings))
        });
        let count = |n: Option<usize>, class: &str| match n {
            Some(0) => "<td>0</td>".to_string(),
            Some(n) => format!("<td class=\"{class}\">{n}</td>"),
            None => "<td class=\"unchecked\">not checked</td>".to_string(),
        };
        let _ = writeln!(
            out,
            "<tr data-file=\"{}\"><td><a href=\"/view/{}\">{}</a></td><td>{what}</td>{}{}</tr>",
            esc(rel),
            esc(&percent_encode(rel)),
            esc(rel),
            count(errors, "errors"),
            count(warnings, "warnings"),
        );
    }
    if files.is_empty() {
        out.push_str("<tr><td colspan=\"4\">No maps or scenarios found.</td></tr>\n");
    }
    let _ = write!(
        out,
        "</tbody>\n</table>\n<script>\nnew EventSource('/events?since={generation}').addEventListener('update', () => location.reload());\n</script>\n</body>\n</html>\n"
    );
    out
}

fn project_name(root: &Path) -> String {
    root.file_name().map_or("muster project".to_string(), |n| {
        n.to_string_lossy().into_owned()
    })
}

/// `%20` and the like; `None` when the result is not UTF-8.
pub(super) fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(byte as char);
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

const INDEX_STYLE: &str = "
body{margin:0;padding:8px 16px;font-family:'DejaVu Sans',Verdana,Arial,sans-serif;background:#f6f3ea;color:#1f1f1f}
table{border-collapse:collapse;background:#fff}th,td{padding:4px 10px;border-bottom:1px solid #e2dccb;text-align:left}
td.errors{color:#d0021b;font-weight:bold}td.warnings{color:#e07b00;font-weight:bold}td.unchecked{color:#888}
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_project() {
        let root = Path::new("/p");
        assert_eq!(
            inside(root, "scenarios/a.scenario.ron"),
            Some(PathBuf::from("/p/scenarios/a.scenario.ron"))
        );
        for bad in ["", "../x", "a/../../x", "/etc/passwd", "./a", "a\\..\\b"] {
            assert_eq!(inside(root, bad), None, "{bad}");
        }
    }

    #[test]
    fn percent_round_trip() {
        let name = "scenarios/a b%c.scenario.ron";
        assert_eq!(percent_decode(&percent_encode(name)).as_deref(), Some(name));
        assert_eq!(percent_decode("%2e%2e/x").as_deref(), Some("../x"));
        assert_eq!(percent_decode("%zz").as_deref(), Some("%zz"));
    }
}
