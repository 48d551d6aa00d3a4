//! `/reach` and `/combat`: the rules engine's answers about the board of a scenario of
//! the project at a turn, as JSON, computed from the latest round as `muster query`
//! computes them. The live page asks them when a counter is clicked.
//!
//! - `/reach?file=SCENARIO&unit=ID[&to=HEX][&turn=N]`: `{"reach", "targets", "shade",
//!   "panel"}`: the engine's reach (as `muster query reach --format json`), the units
//!   the unit may attack from where it stands, the board's reach layer (SVG) and a panel
//!   (HTML). With `to`, a hex of its reach, the unit moves there first: `moved` gives
//!   the path, `targets` are those it may attack from there, and the shade draws the
//!   path.
//! - `/combat?file=SCENARIO&attacker=ID[&attacker=ID..]&defender=ID[&move=ID@HEX..]
//!   [&turn=N]`: `{"combat", "shade", "panel"}`, the combat as `muster query combat`
//!   gives it. Several attackers make a combined attack; `move` first moves an attacker
//!   to a hex of its reach along its path, which the engine judges as a charge.
//!
//! A question that cannot be answered is `{"error": "..."}` with a 4xx status: 400 for a
//! query that is malformed or makes no sense, 404 for a file or unit the project does
//! not have, 422 for a scenario the engine cannot load. Every string in `shade` and
//! `panel` is escaped.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use muster_db::project::Db;
use muster_db::text::escape;
use muster_engine::{Combat, Engine, Modifier, Position, QueryError, Reach, RuleRef};
use muster_model::FileKind;
use muster_render::svg::esc;
use serde::Serialize;

use super::Site;
use super::answer::{Page, json};
use super::pages::{drawable, inside, percent_decode};
use crate::query::{Asked, explain, of_scenario};

/// A question not answered: the status and why, in words.
#[derive(Debug)]
struct Refused(u16, String);

fn bad(why: impl Into<String>) -> Refused {
    Refused(400, why.into())
}

/// The answer to `/reach` or `/combat` (`path`).
pub(super) fn respond(site: &Site, path: &str, query: &str) -> Page {
    match answer(site, path, query) {
        Ok(body) => json(200, body),
        Err(Refused(status, why)) => json(status, serde_json::json!({ "error": why }).to_string()),
    }
}

fn answer(site: &Site, path: &str, query: &str) -> Result<String, Refused> {
    let params = Params::parse(query)?;
    let rel = params.one("file")?;
    let turn = params.turn()?;
    let Some(round) = site.published.current() else {
        return Err(Refused(503, "the project has not been checked yet".into()));
    };
    let index = scenario(site, &round.db, rel)?;
    let asked = of_scenario(&round.db, index, &escape(rel), turn).map_err(|e| Refused(422, e))?;
    let engine = Engine::new(asked.system, asked.map, &asked.position);
    let refused = |e: QueryError| {
        let status = match e {
            QueryError::UnknownUnit { .. } | QueryError::NotUnitOrHex { .. } => 404,
            _ => 400,
        };
        Refused(status, explain(e, &asked, turn))
    };
    if path == "/reach" {
        reach(&engine, &asked, &params, &refused)
    } else {
        combat(&engine, &asked, &params, &refused)
    }
}

/// How an engine error is refused.
type Refuse<'r> = &'r dyn Fn(QueryError) -> Refused;

fn to_json<T: Serialize>(answer: &T) -> Result<String, Refused> {
    serde_json::to_string(answer)
        .map_err(|e| Refused(500, format!("cannot write the answer as JSON: {e}")))
}

fn reach(
    engine: &Engine,
    asked: &Asked,
    params: &Params,
    refused: Refuse,
) -> Result<String, Refused> {
    #[derive(Serialize)]
    struct Answer<'a> {
        reach: &'a Reach,
        #[serde(skip_serializing_if = "Option::is_none")]
        moved: Option<Moved>,
        targets: Vec<String>,
        shade: String,
        panel: String,
    }
    let unit = params.one("unit")?;
    let reach = engine.reach(unit).map_err(refused)?;
    let mut shade = crate::picture::reach_shade(&reach)
        .map(|s| muster_render::reach_layer(asked.map, &s))
        .unwrap_or_default();
    let (targets, moved) = match params.optional("to")? {
        None => (engine.targets(unit).map_err(refused)?, None),
        Some(to) => {
            let mut position = asked.position.clone();
            let moved = move_to(&reach, &mut position, to)?;
            let there = Engine::new(asked.system, asked.map, &position);
            let path: Vec<muster_hex::HexId> = (moved.path.iter())
                .filter_map(|h| muster_hex::HexId::parse(h).ok())
                .collect();
            shade.push_str(&muster_render::move_layer(asked.map, unit, &path));
            (there.targets(unit).map_err(refused)?, Some(moved))
        }
    };
    let panel = reach_panel(&reach, &targets, moved.as_ref());
    to_json(&Answer {
        reach: &reach,
        moved,
        targets,
        shade,
        panel,
    })
}

/// Where a unit moved before it attacks: the hex, and its path there (its hex first).
#[derive(Debug, Clone, Serialize)]
struct Moved {
    to: String,
    path: Vec<String>,
}

/// Moves the unit of `reach` to `to` in `position`, if `to` is in its reach.
fn move_to(reach: &Reach, position: &mut Position, to: &str) -> Result<Moved, Refused> {
    let hex = reach.at(to).ok_or_else(|| {
        bad(format!(
            "`{}` cannot end its move in `{}`: give a hex of its reach",
            escape(&reach.unit),
            escape(to)
        ))
    })?;
    for u in position.units.iter_mut().filter(|u| u.id == reach.unit) {
        u.hex = hex.hex.clone();
    }
    Ok(Moved {
        to: hex.hex.clone(),
        path: hex.path.clone(),
    })
}

fn combat(
    engine: &Engine,
    asked: &Asked,
    params: &Params,
    refused: Refuse,
) -> Result<String, Refused> {
    #[derive(Serialize)]
    struct Answer<'a> {
        combat: &'a Combat,
        shade: String,
        panel: String,
    }
    let defender = params.one("defender")?;
    let attackers = params.all("attacker");
    if attackers.is_empty() {
        return Err(bad("give the attacking units: `attacker=ID`"));
    }
    // Attackers that move first: each to a hex of its reach, its path judged as a
    // charge (the hexes it enters, as `muster query combat --path` takes them).
    let mut position = asked.position.clone();
    let mut paths = BTreeMap::new();
    for m in params.all("move") {
        let Some((id, to)) = m.split_once('@') else {
            return Err(bad(format!("`move={}`: give `move=ID@HEX`", escape(m))));
        };
        if !attackers.contains(&id) {
            return Err(bad(format!(
                "`move={}`: only an attacker moves before the attack",
                escape(m)
            )));
        }
        if paths.contains_key(id) {
            return Err(bad(format!("`{}` moves twice", escape(id))));
        }
        let reach = engine.reach(id).map_err(refused)?;
        let moved = move_to(&reach, &mut position, to)?;
        paths.insert(
            id.to_string(),
            moved.path.get(1..).unwrap_or_default().to_vec(),
        );
    }
    let engine = Engine::new(asked.system, asked.map, &position);
    let combat = engine
        .combat(&attackers, defender, &paths)
        .map_err(refused)?;
    let hex = |h: &str| muster_hex::HexId::parse(h).ok();
    let shade = combat
        .defenders
        .first()
        .and_then(|d| hex(&d.hex))
        .map(|at| {
            let shade = muster_render::AttackShade {
                defender: defender.to_string(),
                at,
                attackers: combat
                    .attackers
                    .iter()
                    .filter_map(|a| hex(&a.hex))
                    .collect(),
                label: match (&combat.column, &combat.not_allowed) {
                    (Some(column), None) => column.clone(),
                    _ => "not allowed".to_string(),
                },
            };
            muster_render::attack_layer(asked.map, &shade)
        })
        .unwrap_or_default();
    let panel = combat_panel(&combat, &attackers, defender);
    to_json(&Answer {
        combat: &combat,
        shade,
        panel,
    })
}

/// The scenario of the project at `rel` (a path inside the project).
fn scenario(site: &Site, db: &Db, rel: &str) -> Result<usize, Refused> {
    let missing = || {
        Refused(
            404,
            format!("no scenario of the project at `{}`", escape(rel)),
        )
    };
    let file = inside(&site.root, rel).ok_or_else(missing)?;
    let index = db
        .index_of(&file)
        .filter(|&i| drawable(db, &site.root, i))
        .ok_or_else(missing)?;
    if db.files[index].kind != Some(FileKind::Scenario) {
        return Err(Refused(
            404,
            format!(
                "`{}` is a map: only the units of a scenario move and fight",
                escape(rel)
            ),
        ));
    }
    Ok(index)
}

/// A query's parameters, decoded (`+` is a space, `%XX` a byte).
#[derive(Debug)]
struct Params(Vec<(String, String)>);

impl Params {
    fn parse(query: &str) -> Result<Params, Refused> {
        let decode = |text: &str| {
            percent_decode(&text.replace('+', " "))
                .ok_or_else(|| bad("the query is not UTF-8 once decoded"))
        };
        let mut pairs = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            pairs.push((decode(name)?, decode(value)?));
        }
        Ok(Params(pairs))
    }

    fn all(&self, name: &str) -> Vec<&str> {
        (self.0.iter())
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The one non-empty value of `name`.
    fn one(&self, name: &str) -> Result<&str, Refused> {
        match self.all(name).as_slice() {
            [] | [""] => Err(bad(format!("give `{name}=` in the query"))),
            [one] => Ok(one),
            _ => Err(bad(format!("give `{name}=` once"))),
        }
    }

    /// The one non-empty value of `name`, if given.
    fn optional(&self, name: &str) -> Result<Option<&str>, Refused> {
        match self.all(name).as_slice() {
            [] => Ok(None),
            _ => self.one(name).map(Some),
        }
    }

    /// `turn=N`, the set-up (1) when left out.
    fn turn(&self) -> Result<u8, Refused> {
        match self.all("turn").as_slice() {
            [] => Ok(1),
            [t] => t
                .parse::<u8>()
                .ok()
                .filter(|&t| t >= 1)
                .ok_or_else(|| bad(format!("`turn={}`: give a turn from 1 to 255", escape(t)))),
            _ => Err(bad("give `turn=` once")),
        }
    }
}

fn rules_line(out: &mut String, rules: &[RuleRef]) {
    if rules.is_empty() {
        return;
    }
    out.push_str("<p class=\"rules\">Rules: ");
    for (k, r) in rules.iter().enumerate() {
        let sep = if k == 0 { "" } else { "; " };
        let _ = write!(out, "{sep}<span class=\"rule\">{}", esc(&r.rule));
        if let Some(s) = &r.section {
            let _ = write!(out, " <span class=\"section\">({})</span>", esc(s));
        }
        out.push_str("</span>");
    }
    out.push_str("</p>");
}

/// The panel beside a unit's shaded reach, and the hex it moved to, if it did.
fn reach_panel(reach: &Reach, targets: &[String], moved: Option<&Moved>) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<section class=\"reach\" data-unit=\"{u}\" data-hexes=\"{count}\"><h2>Where <code>{u}</code> can move</h2><p>From {from} with {mp} MP: {count} hexes to end the move in, shaded with the MP left.</p>",
        u = esc(&reach.unit),
        from = esc(&reach.from),
        mp = reach.movement,
        count = reach.hexes.len(),
    );
    let from_where = match moved {
        Some(m) => {
            let _ = write!(
                out,
                "<p class=\"moved\" data-to=\"{to}\">Moved to {to} by {}: an attack from there is judged as a charge along this path.</p>",
                esc(&m.path.join(" ")),
                to = esc(&m.to),
            );
            "from there"
        }
        None => "from where it stands",
    };
    if !reach.exits.is_empty() {
        out.push_str("<p class=\"exits\">It may leave the map from ");
        for (k, x) in reach.exits.iter().enumerate() {
            let sep = if k == 0 { "" } else { ", " };
            let _ = write!(
                out,
                "{sep}<code data-exit=\"{h}\">{h}</code> ({} MP left)",
                x.mp_left,
                h = esc(&x.hex)
            );
        }
        out.push_str(".</p>");
    }
    if targets.is_empty() {
        let _ = write!(
            out,
            "<p class=\"targets\">No enemy it may attack {from_where}.</p>"
        );
    } else {
        out.push_str("<p class=\"targets\">It may attack: ");
        for (k, t) in targets.iter().enumerate() {
            let sep = if k == 0 { "" } else { ", " };
            let _ = write!(out, "{sep}<code data-target=\"{t}\">{t}</code>", t = esc(t));
        }
        out.push_str(". Click one for the odds.</p>");
    }
    rules_line(&mut out, &reach.rules);
    out.push_str("<p class=\"hint\">Click a shaded hex to move there first; Shift-click another unit to join an attack. Escape, or a click beside the shading, clears.</p></section>");
    out
}

fn modifiers(out: &mut String, list: &[Modifier]) {
    for m in list {
        let _ = write!(
            out,
            "<li class=\"modifier\" data-value=\"{v}\">{v:+} {}",
            esc(&m.what),
            v = m.value
        );
        if let Some(s) = &m.section {
            let _ = write!(out, " <span class=\"section\">({})</span>", esc(s));
        }
        out.push_str("</li>");
    }
}

/// The odds of an attack, with every modifier and the rules cited.
fn combat_panel(c: &Combat, attackers: &[&str], defender: &str) -> String {
    let mut out = String::new();
    let names: Vec<String> = attackers
        .iter()
        .map(|a| format!("<code>{}</code>", esc(a)))
        .collect();
    let _ = write!(
        out,
        "<section class=\"odds\" data-defender=\"{d}\" data-attack=\"{}\" data-defence=\"{}\" data-ratio=\"{}\" data-column=\"{}\"><h2>{} {} <code>{d}</code></h2><table>",
        c.attack,
        c.defence,
        esc(&c.ratio),
        esc(c.column.as_deref().unwrap_or_default()),
        names.join(", "),
        if attackers.len() == 1 {
            "attacks"
        } else {
            "attack"
        },
        d = esc(defender),
    );
    for (side, list) in [("attack", &c.attackers), ("defence", &c.defenders)] {
        for s in list {
            let _ = write!(
                out,
                "<tr class=\"strength {side}\" data-unit=\"{u}\" data-total=\"{total}\"><td>{side}</td><td><code>{u}</code> {hex}{range}</td><td>{base}</td><td><ul>",
                u = esc(&s.unit),
                hex = esc(&s.hex),
                range = if s.at_range { " from range" } else { "" },
                base = s.base,
                total = s.total,
            );
            modifiers(&mut out, &s.modifiers);
            let _ = write!(out, "</ul></td><td>= {}</td></tr>", s.total);
        }
    }
    out.push_str("</table>");
    if let Some(p) = &c.protection {
        let _ = write!(
            out,
            "<div class=\"protection\">Against fire the hex defends at {}:<ul>",
            p.value
        );
        modifiers(&mut out, std::slice::from_ref(p));
        out.push_str("</ul></div>");
    }
    let _ = write!(
        out,
        "<p class=\"ratio\">{} against {}: {} {}</p>",
        c.attack,
        c.defence,
        esc(&c.index),
        esc(&c.ratio)
    );
    match (&c.column, &c.not_allowed) {
        (_, Some(why)) => {
            let _ = write!(
                out,
                "<p class=\"not-allowed\">Not allowed: {}</p>",
                esc(why)
            );
        }
        (Some(column), None) => {
            let before = c.column_before_shifts.as_deref().unwrap_or(column);
            let _ = write!(
                out,
                "<p class=\"column\">Column <strong>{}</strong> (rounded to {})</p>",
                esc(column),
                esc(before)
            );
        }
        (None, None) => out.push_str("<p>The system has no combat results table.</p>"),
    }
    for (class, title, list) in [
        ("shifts", "Column shifts", &c.shifts),
        ("die-modifiers", "Die modifiers", &c.die_modifiers),
    ] {
        if !list.is_empty() {
            let _ = write!(out, "<div class=\"{class}\">{title}:<ul>");
            modifiers(&mut out, list);
            out.push_str("</ul></div>");
        }
    }
    if !c.results.is_empty() {
        out.push_str("<p class=\"results\">By die: ");
        let list: Vec<String> = (c.results.iter())
            .map(|r| format!("{} {}", r.die, esc(&r.result)))
            .collect();
        out.push_str(&list.join(", "));
        out.push_str("</p>");
    }
    if !c.modified.is_empty() {
        out.push_str("<p class=\"modified\">After die modifiers: ");
        let list: Vec<String> = (c.modified.iter())
            .map(|r| {
                let result = r.result.as_deref().map_or("no row".into(), esc);
                format!("{} as {} {result}", r.die, r.roll)
            })
            .collect();
        out.push_str(&list.join(", "));
        out.push_str("</p>");
    }
    if !c.may_retreat.is_empty() {
        let ids: Vec<String> = (c.may_retreat.iter())
            .map(|u| format!("<code>{}</code>", esc(u)))
            .collect();
        let _ = write!(
            out,
            "<p class=\"retreat\">May retreat before combat: {}</p>",
            ids.join(", ")
        );
    }
    for j in &c.charges {
        let _ = write!(
            out,
            "<p class=\"charge\" data-unit=\"{u}\" data-charge=\"{}\"><code>{u}</code> through {}: {}</p>",
            j.charge,
            esc(&j.path.join(" ")),
            match &j.reason {
                Some(why) => format!("no charge, {}", esc(why)),
                None => "a charge".to_string(),
            },
            u = esc(&j.unit),
        );
    }
    rules_line(&mut out, &c.rules);
    out.push_str("<p class=\"hint\">Shift-click another unit to join the attack. Escape, or a click beside the shading, clears.</p></section>");
    out
}

#[cfg(test)]
mod tests {
    use muster_engine::{ReachHex, Strength};

    use super::*;

    #[test]
    fn queries_are_decoded_and_checked() {
        let p = Params::parse(
            "file=scenarios/a%20b.scenario.ron&unit=a+b&turn=2&attacker=x&attacker=y",
        )
        .unwrap();
        assert_eq!(p.one("file").unwrap(), "scenarios/a b.scenario.ron");
        assert_eq!(p.one("unit").unwrap(), "a b");
        assert_eq!(p.turn().unwrap(), 2);
        assert_eq!(p.all("attacker"), ["x", "y"]);
        assert_eq!(p.one("attacker").unwrap_err().0, 400);
        assert_eq!(p.one("defender").unwrap_err().0, 400);
        assert_eq!(Params::parse("").unwrap().turn().unwrap(), 1);
        for turn in ["turn=0", "turn=256", "turn=-1", "turn=", "turn=1&turn=2"] {
            let refused = Params::parse(turn).unwrap().turn().unwrap_err();
            assert_eq!(refused.0, 400, "{turn}");
        }
        assert_eq!(Params::parse("unit=%ff").unwrap_err().0, 400);
        assert_eq!(
            Params::parse("unit=").unwrap().one("unit").unwrap_err().0,
            400
        );
    }

    #[test]
    fn panels_escape_every_string() {
        let evil = "<img src=x onerror=alert(1)>&\"";
        let reach = Reach {
            unit: evil.to_string(),
            from: "0101".to_string(),
            movement: 2.0,
            moor_cost: None,
            exits: vec![ReachHex {
                hex: evil.to_string(),
                mp_left: 1.0,
                path: vec!["0101".to_string()],
                mode: None,
                minimum_move: false,
                enemy_zoc: false,
            }],
            hexes: vec![ReachHex {
                hex: "0102".to_string(),
                mp_left: 1.0,
                path: vec!["0101".to_string(), "0102".to_string()],
                mode: None,
                minimum_move: false,
                enemy_zoc: false,
            }],
            rules: vec![RuleRef {
                rule: evil.to_string(),
                section: Some(evil.to_string()),
            }],
        };
        let strength = Strength {
            unit: evil.to_string(),
            hex: "0102".to_string(),
            base: 2.0,
            modifiers: vec![Modifier {
                what: evil.to_string(),
                value: 1.0,
                section: Some(evil.to_string()),
            }],
            total: 3.0,
            at_range: false,
        };
        let combat = Combat {
            attackers: vec![strength.clone()],
            defenders: vec![strength],
            attack: 3.0,
            defence: 3.0,
            protection: Some(Modifier {
                what: evil.to_string(),
                value: 2.0,
                section: Some(evil.to_string()),
            }),
            index: "odds".to_string(),
            ratio: evil.to_string(),
            column_before_shifts: Some(evil.to_string()),
            shifts: Vec::new(),
            column: Some(evil.to_string()),
            die_modifiers: Vec::new(),
            results: Vec::new(),
            modified: Vec::new(),
            charges: vec![muster_engine::ChargeJudgement {
                unit: evil.to_string(),
                path: vec![evil.to_string()],
                charge: false,
                reason: Some(evil.to_string()),
                section: None,
            }],
            may_retreat: vec![evil.to_string()],
            not_allowed: None,
            rules: reach.rules.clone(),
        };
        for html in [
            reach_panel(&reach, &[evil.to_string()], None),
            reach_panel(
                &reach,
                &[],
                Some(&Moved {
                    to: evil.to_string(),
                    path: vec![evil.to_string()],
                }),
            ),
            combat_panel(&combat, &[evil], evil),
        ] {
            assert!(
                html.contains("class=\"odds\"") || html.contains("class=\"exits\""),
                "{html}"
            );
            assert!(!html.contains("<img"), "{html}");
            assert!(!html.contains("&\""), "{html}");
            assert!(
                html.contains("&lt;img src=x onerror=alert(1)&gt;"),
                "{html}"
            );
        }
    }
}
