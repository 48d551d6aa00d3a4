//! A self-contained HTML page: the board, the order of battle beside it and the
//! diagnostics under it. Clicking a diagnostic flashes its hex or counter. The live
//! variant (the preview server's) listens for server-sent events and swaps the page's
//! content in place, keeping zoom and scroll.

use std::fmt::Write;

use muster_db::Diagnostic;
use muster_semantic::board::{Board, EntryAt, PieceState, SupplyAt, SupplyMark, TableMark};

use crate::Rendered;
use crate::marks::MarkTarget;
use crate::svg::esc;

/// How a diagnostic's file is named on the page (`scenarios/x.scenario.ron`).
pub type NameOf<'a> = &'a dyn Fn(&Diagnostic) -> String;

/// A whole page. `live`: the event-stream URL the page listens on for updates.
pub fn page(
    rendered: &Rendered,
    diagnostics: &[Diagnostic],
    name_of: NameOf<'_>,
    live: Option<&str>,
) -> String {
    let mut out = String::with_capacity(rendered.svg.len() + 16 * 1024);
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{} - muster</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(&rendered.title)
    );
    out.push_str("<nav id=\"tools\"><button type=\"button\" id=\"zoom-out\" title=\"Zoom out\">&minus;</button><button type=\"button\" id=\"zoom-in\" title=\"Zoom in\">+</button><button type=\"button\" id=\"zoom-fit\" title=\"Fit to width\">fit</button>");
    if live.is_some() {
        out.push_str("<a href=\"/\">all files</a><span id=\"status\">live</span>");
    }
    out.push_str("</nav>\n<div id=\"content\">\n");
    out.push_str(&content(rendered, diagnostics, name_of, live.is_some()));
    out.push_str("</div>\n");
    if live.is_some() {
        out.push_str("<aside id=\"rules\" hidden></aside>\n");
    }
    out.push_str("<script>\n");
    out.push_str(SCRIPT);
    if let Some(url) = live {
        let _ = write!(out, "{LIVE}\n{RULES}\nlisten({});\n", json_string(url));
    }
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// What the live page swaps in on every update. `live`: the page is served, so the turn
/// line links to the turns before and after (`?turn=N`).
pub fn content(
    rendered: &Rendered,
    diagnostics: &[Diagnostic],
    name_of: NameOf<'_>,
    live: bool,
) -> String {
    let mut out = String::with_capacity(rendered.svg.len() + 8 * 1024);
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == muster_db::Severity::Error)
        .count();
    let _ = write!(
        out,
        "<header><h1>{}</h1><p class=\"counts\" data-errors=\"{errors}\" data-diagnostics=\"{}\">{} {} &middot; {errors} error(s), {} diagnostic(s)</p>",
        esc(&rendered.title),
        diagnostics.len(),
        rendered.what,
        rendered.board.as_ref().map_or(String::new(), |b| format!(
            "at the start of turn {}",
            b.turn
        )),
        diagnostics.len()
    );
    if let Some(board) = &rendered.board {
        turn_line(&mut out, board, live);
    }
    out.push_str("</header>\n");
    out.push_str("<main>\n<div id=\"board\">\n");
    out.push_str(&rendered.svg);
    out.push_str("</div>\n<aside id=\"oob\">\n<h2>Order of battle</h2>\n");
    match &rendered.board {
        Some(board) => order_of_battle(&mut out, board),
        None => {
            let _ = writeln!(
                out,
                "<p>{}</p>",
                esc(rendered
                    .unavailable
                    .as_deref()
                    .unwrap_or("a map has no forces"))
            );
        }
    }
    out.push_str("</aside>\n</main>\n<section id=\"diagnostics-list\">\n<h2>Diagnostics</h2>\n");
    if diagnostics.is_empty() {
        out.push_str("<p class=\"clean\">No problems found.</p>\n");
    } else {
        out.push_str("<ul>\n");
        for (i, d) in diagnostics.iter().enumerate() {
            let at = d.start();
            let target = rendered
                .marks
                .iter()
                .find(|m| m.diagnostic == i)
                .map_or(MarkTarget::Nowhere, |m| m.target);
            let on_board = match target {
                MarkTarget::Hex(h) => format!(" data-hex=\"{h}\""),
                MarkTarget::Counter(_) | MarkTarget::TableUnit(_) => {
                    " data-on-board=\"unit\"".to_string()
                }
                MarkTarget::Nowhere => String::new(),
            };
            let _ = write!(
                out,
                "<li class=\"diagnostic {sev}\" data-index=\"{i}\" data-code=\"{code}\"{on_board}><span class=\"sev\">{sev}</span> <code>{code}</code> <span class=\"where\">{file}:{line}:{col}</span> <span class=\"message\">{msg}</span>",
                sev = d.severity,
                code = d.code,
                file = esc(&name_of(d)),
                line = at.line,
                col = at.column,
                msg = esc(&d.message),
            );
            if let Some(help) = &d.help {
                let _ = write!(out, "<div class=\"help\">help: {}</div>", esc(help));
            }
            if target == MarkTarget::Nowhere {
                out.push_str("<div class=\"off\">not on the board</div>");
            }
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
    out
}

/// The board's turn, with links to the turns before and after on a served page, and
/// the weather the turn record gives it.
fn turn_line(out: &mut String, board: &Board, live: bool) {
    let _ = write!(
        out,
        "<p id=\"turn\" data-turn=\"{t}\" data-last-turn=\"{last}\">",
        t = board.turn,
        last = board.last_turn
    );
    if live && board.turn > 1 {
        let _ = write!(
            out,
            "<a id=\"turn-before\" href=\"?turn={}\" title=\"The turn before\">&larr;</a> ",
            board.turn - 1
        );
    }
    let _ = write!(out, "Turn {} of {}", board.turn, board.last_turn);
    if live && board.turn < board.last_turn {
        let _ = write!(
            out,
            " <a id=\"turn-after\" href=\"?turn={}\" title=\"The turn after\">&rarr;</a>",
            board.turn + 1
        );
    }
    if let Some(line) = crate::svg::weather_line(&board.weather) {
        let _ = write!(
            out,
            " &middot; <span id=\"weather\" data-weather=\"{}\">{}</span>",
            esc(crate::svg::weather_id(&board.weather)),
            esc(&line)
        );
    }
    out.push_str("</p>");
}

fn order_of_battle(out: &mut String, board: &Board) {
    let sides = board.sides.len();
    for side in (0..sides).map(Some).chain(std::iter::once(None)) {
        let pieces: Vec<_> = board.pieces.iter().filter(|p| p.side == side).collect();
        let units: Vec<_> = board
            .table
            .iter()
            .filter(|m| match m {
                TableMark::Unit { side: s, .. } | TableMark::Band { side: s, .. } => {
                    Some(*s) == side
                }
                TableMark::Area { .. } => false,
            })
            .collect();
        let entries: Vec<_> = board
            .entries
            .iter()
            .filter(|e| Some(e.side) == side)
            .collect();
        let unplaced: Vec<_> = board.unplaced.iter().filter(|u| u.side == side).collect();
        let supply: Vec<_> = board.supply.iter().filter(|s| s.side == side).collect();
        if side.is_none() && pieces.is_empty() && unplaced.is_empty() && supply.is_empty() {
            continue;
        }
        let (id, name) = match side.and_then(|i| board.sides.get(i)) {
            Some(s) => (s.id.as_str(), s.name.as_str()),
            None => ("neutral", "Neutral units"),
        };
        let _ = writeln!(
            out,
            "<section class=\"side\" data-side=\"{}\"><h3>{}</h3><ul>",
            esc(id),
            esc(name)
        );
        for p in pieces {
            let state = match p.state {
                PieceState::Placed => String::new(),
                PieceState::Chosen => " <em>(owner's choice)</em>".to_string(),
                PieceState::Choice => " <em>(owner's choice of the group's hexes)</em>".to_string(),
                PieceState::Arrived { turn } => format!(" <em>(turn {turn})</em>"),
            };
            let _ = writeln!(
                out,
                "<li data-counter=\"{}\" data-hex=\"{}\">{} <code>{}</code>{} &middot; {}{state}</li>",
                esc(&p.counter),
                p.hex,
                esc(if p.name.is_empty() {
                    &p.counter
                } else {
                    &p.name
                }),
                esc(&p.counter),
                p.strength
                    .as_ref()
                    .map_or(String::new(), |s| format!(" [{}]", esc(s)))
                    + &if p.count > 1 {
                        format!(" &times;{}", p.count)
                    } else {
                        String::new()
                    },
                p.hex
            );
        }
        for m in units {
            match m {
                TableMark::Unit {
                    id,
                    name,
                    troop,
                    bases,
                    battle,
                    ..
                } => {
                    let _ = writeln!(
                        out,
                        "<li data-unit=\"{}\">{} <code>{}</code> &middot; {bases} x {}{}</li>",
                        esc(id),
                        esc(name),
                        esc(id),
                        esc(troop),
                        battle
                            .as_ref()
                            .map_or(String::new(), |b| format!(" &middot; {}", esc(b)))
                    );
                }
                TableMark::Band {
                    id, name, figures, ..
                } => {
                    let _ = writeln!(
                        out,
                        "<li data-band=\"{}\">{} &middot; {}</li>",
                        esc(id),
                        esc(name),
                        esc(figures)
                    );
                }
                TableMark::Area { .. } => {}
            }
        }
        for e in entries {
            let at = match &e.at {
                EntryAt::Hexes(list) => list
                    .iter()
                    .map(|(h, _)| h.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                EntryAt::Inside(list) => format!(
                    "appearing in {}",
                    list.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                EntryAt::Edge(edge) => format!("{edge} edge"),
                EntryAt::TableEdge(name) => format!("{name} edge"),
            };
            let turn = if e.turn > 0 {
                format!("turn {}", e.turn)
            } else {
                "turn rolled".to_string()
            };
            let _ = writeln!(
                out,
                "<li class=\"entry\">{turn}: {} at {}</li>",
                esc(&e.units),
                esc(&at)
            );
        }
        supply_items(out, &supply);
        for u in unplaced {
            let _ = writeln!(
                out,
                "<li class=\"unplaced\"><code>{}</code>: not drawn, {}</li>",
                esc(&u.what),
                esc(&u.reason)
            );
        }
        out.push_str("</ul></section>\n");
    }
}

/// A side's supply sources, one item each.
fn supply_items(out: &mut String, supply: &[&SupplyMark]) {
    for s in supply {
        let (kind, at) = match &s.at {
            SupplyAt::Hex(hex) => ("hex", format!("hex {hex}")),
            SupplyAt::Edge(edge, _) => ("edge", format!("the {edge} edge")),
            SupplyAt::Label(label, hex) => ("label", format!("{label} ({hex})")),
        };
        let _ = writeln!(
            out,
            "<li class=\"supply\" data-source=\"{kind}\">supply source: {}</li>",
            esc(&at)
        );
    }
}

fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("\\u003c"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

const STYLE: &str = "
body{margin:0;font-family:'DejaVu Sans',Verdana,Arial,sans-serif;background:#f6f3ea;color:#1f1f1f}
#tools{position:sticky;top:0;z-index:2;background:#e9e4d4;padding:4px 8px;display:flex;gap:6px;align-items:center}
#tools a{margin-left:12px}#status{margin-left:auto;font-size:12px;color:#3d7a3d}
header{padding:4px 12px}header h1{margin:4px 0;font-size:20px}.counts{margin:0;color:#555}#turn{margin:2px 0}#turn a{text-decoration:none;padding:0 4px}
main{display:flex;gap:12px;align-items:flex-start;padding:0 12px}
#board{overflow:auto;max-width:75vw;max-height:85vh;border:1px solid #cfc8b4;background:#fff}
#board svg{display:block}
#oob{flex:1;min-width:240px;font-size:13px}#oob h3{margin:8px 0 2px}#oob ul{margin:0;padding-left:16px}
.unplaced{color:#a11}
#diagnostics-list{padding:0 12px 24px}#diagnostics-list ul{padding-left:0;list-style:none}
li.diagnostic{cursor:pointer;padding:4px 6px;border-left:4px solid #ccc;margin:3px 0;background:#fff}
li.error{border-color:#d0021b}li.warning{border-color:#e07b00}li.info{border-color:#2b6cb0}
li.diagnostic .sev{font-weight:bold}li.diagnostic .where{color:#666}
.help{color:#2b5d2b;margin-left:12px}.off{color:#888;font-size:12px;margin-left:12px}
.flash{animation:flash 1.2s ease-in-out 2}
@keyframes flash{0%,100%{opacity:1}50%{opacity:.15}}
g.diagnostic.selected polygon,g.diagnostic.selected rect,g.diagnostic.selected circle{stroke-width:6}
#rules{position:fixed;right:12px;bottom:12px;z-index:3;max-width:440px;max-height:60vh;overflow:auto;background:#fff;border:1px solid #cfc8b4;box-shadow:0 2px 8px rgba(0,0,0,.2);padding:6px 10px;font-size:13px}
#rules h2{font-size:15px;margin:4px 0}#rules table{border-collapse:collapse}#rules td{padding:2px 6px;vertical-align:top}
#rules ul{margin:0;padding-left:14px}#rules .rules,#rules .hint{color:#555}#rules .error{color:#d0021b}
body.live g.counter{cursor:pointer}
";

const SCRIPT: &str = r#"
let zoom = 1;
function applyZoom() {
  const svg = document.querySelector('#board svg');
  if (!svg) return;
  const w = parseFloat(svg.getAttribute('width')) || 800;
  svg.style.width = (w * zoom) + 'px';
  svg.style.height = 'auto';
}
document.getElementById('zoom-in').onclick = () => { zoom = Math.min(zoom * 1.25, 8); applyZoom(); };
document.getElementById('zoom-out').onclick = () => { zoom = Math.max(zoom / 1.25, 0.1); applyZoom(); };
document.getElementById('zoom-fit').onclick = () => {
  const svg = document.querySelector('#board svg');
  const board = document.getElementById('board');
  if (!svg) return;
  zoom = board.clientWidth / (parseFloat(svg.getAttribute('width')) || board.clientWidth);
  applyZoom();
};
function highlight(index) {
  document.querySelectorAll('g.diagnostic.selected').forEach(g => g.classList.remove('selected', 'flash'));
  const mark = document.querySelector('#board g.diagnostic[data-index="' + index + '"]');
  if (!mark) return false;
  mark.classList.add('selected', 'flash');
  const board = document.getElementById('board');
  const box = mark.getBoundingClientRect();
  const frame = board.getBoundingClientRect();
  board.scrollLeft += box.left - frame.left - frame.width / 2;
  board.scrollTop += box.top - frame.top - frame.height / 2;
  return true;
}
document.getElementById('content').addEventListener('click', e => {
  const li = e.target.closest('li.diagnostic');
  if (li) highlight(li.dataset.index);
});
applyZoom();
"#;

const LIVE: &str = r#"
function listen(url) {
  const status = document.getElementById('status');
  const source = new EventSource(url);
  source.onopen = () => { status.textContent = 'live'; };
  source.onerror = () => { status.textContent = 'reconnecting...'; };
  source.addEventListener('update', async () => {
    const board = document.getElementById('board');
    const left = board ? board.scrollLeft : 0, top = board ? board.scrollTop : 0;
    const x = window.scrollX, y = window.scrollY;
    try {
      const query = new URLSearchParams(location.search);
      query.set('content', '1');
      const response = await fetch(location.pathname + '?' + query, {cache: 'no-store'});
      if (!response.ok) return;
      document.getElementById('content').innerHTML = await response.text();
      applyZoom();
      const again = document.getElementById('board');
      if (again) { again.scrollLeft = left; again.scrollTop = top; }
      window.scrollTo(x, y);
      reapplyRules();
      document.body.dataset.updates = String((parseInt(document.body.dataset.updates || '0', 10)) + 1);
    } catch (err) {
      status.textContent = 'update failed: ' + err;
    }
  });
}
"#;

/// Clicking a counter on a served page: its reach (`/reach`); a click on a shaded hex
/// moves it there first (`/reach?to=`); then the odds of an attack on an enemy it may
/// attack (`/combat`), judged as a charge along the path it moved, with the units a
/// Shift-click adds joining the attack; all drawn from the server's escaped answers.
const RULES: &str = r#"
document.body.classList.add('live');
let selected = null, attacked = null, joined = [], asked = 0;
function rulesPanel() { return document.getElementById('rules'); }
function dropLayers(which) {
  document.querySelectorAll(which || '#board svg #reach, #board svg #move, #board svg #attack').forEach(g => g.remove());
}
function clearRules() {
  selected = null; attacked = null; joined = []; asked++;
  dropLayers();
  const panel = rulesPanel();
  panel.hidden = true; panel.innerHTML = '';
  document.body.dataset.rules = '';
}
function rulesError(message) {
  dropLayers();
  selected = null; attacked = null; joined = [];
  const panel = rulesPanel();
  panel.innerHTML = '';
  const p = document.createElement('p');
  p.className = 'error';
  p.textContent = message;
  panel.appendChild(p);
  panel.hidden = false;
  document.body.dataset.rules = 'error';
}
async function askRules(path, pairs) {
  const query = new URLSearchParams(pairs);
  query.set('file', decodeURIComponent(location.pathname.replace(/^\/view\//, '')));
  const turn = document.getElementById('turn');
  query.set('turn', turn ? turn.dataset.turn : '1');
  const response = await fetch(path + '?' + query, {cache: 'no-store'});
  let answer = null;
  try { answer = await response.json(); } catch (err) { answer = null; }
  if (!response.ok || !answer || answer.error) {
    throw new Error(answer && answer.error ? answer.error : 'the server answered ' + response.status);
  }
  return answer;
}
function draw(layer) {
  const svg = document.querySelector('#board svg');
  if (svg) svg.insertAdjacentHTML('beforeend', layer);
}
async function showReach(unit, to) {
  const mine = ++asked;
  try {
    const pairs = [['unit', unit]];
    if (to) pairs.push(['to', to]);
    const answer = await askRules('/reach', pairs);
    if (mine !== asked) return;
    dropLayers();
    draw(answer.shade);
    if (!selected || selected.unit !== unit) joined = [];
    selected = {unit, targets: answer.targets, hexes: answer.reach.hexes.map(h => h.hex), moved: to || null};
    attacked = null;
    const panel = rulesPanel();
    panel.innerHTML = answer.panel; panel.hidden = false;
    document.body.dataset.rules = (to ? 'move:' + unit + '@' + to : 'reach:' + unit);
  } catch (err) {
    if (mine === asked) rulesError(err.message);
  }
}
async function showCombat(defender) {
  const mine = ++asked;
  try {
    const attackers = [selected.unit, ...joined];
    const pairs = [['defender', defender], ...attackers.map(a => ['attacker', a])];
    if (selected.moved) pairs.push(['move', selected.unit + '@' + selected.moved]);
    const answer = await askRules('/combat', pairs);
    if (mine !== asked) return;
    dropLayers('#board svg #attack');
    draw(answer.shade);
    attacked = defender;
    const panel = rulesPanel();
    panel.innerHTML = answer.panel; panel.hidden = false;
    document.body.dataset.rules = 'combat:' + attackers.join('+') + '>' + defender;
  } catch (err) {
    if (mine === asked) rulesError(err.message);
  }
}
async function reapplyRules() {
  if (!selected) return;
  const unit = selected.unit, to = selected.moved, defender = attacked, kept = joined;
  await showReach(unit, to);
  joined = kept;
  if (defender && selected && selected.targets.includes(defender)) await showCombat(defender);
}
document.addEventListener('click', e => {
  if (e.target.closest('#rules, #tools, a, button, li.diagnostic')) return;
  const counter = e.target.closest('#board g.counter[data-unit]');
  if (!counter) {
    const cell = e.target.closest('#board svg [data-hex]');
    if (selected && cell && selected.hexes.includes(cell.dataset.hex)) showReach(selected.unit, cell.dataset.hex);
    else if (selected || !rulesPanel().hidden) clearRules();
    return;
  }
  const unit = counter.dataset.unit;
  if (e.shiftKey && selected && unit !== selected.unit) {
    joined = joined.includes(unit) ? joined.filter(j => j !== unit) : [...joined, unit];
    if (attacked) showCombat(attacked);
    return;
  }
  if (selected && unit !== selected.unit && selected.targets.includes(unit)) showCombat(unit);
  else showReach(unit);
});
document.addEventListener('keydown', e => { if (e.key === 'Escape') clearRules(); });
"#;
