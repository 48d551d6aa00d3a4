use muster_model::FileKind;

use muster_db::declare_check;
use muster_db::load::Document;
use muster_db::place::Place;
use muster_db::project::Resolution;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;
use muster_semantic::hooks::{GAMES, find, hooks_of};

declare_check! {
    /// ## What it does
    /// Checks that a scenario's map, counter sheet and special-rule hooks belong to the
    /// scenario's own rules system. A map and a counter sheet name their system in their
    /// own `system` field (an id, or a path from their file); it must resolve to the same
    /// system file as the scenario's `system`. A hook belongs to the systems `muster
    /// explain HOOK` lists; a scenario of a system muster ships (`lrf`, `prestags`,
    /// `cdg`, `raid`) may use its own system's hooks; any system may declare more in
    /// `rules: (hooks: [...])`, and a scenario of a system muster does not ship (a
    /// home-made one) may use only those its system declares.
    ///
    /// ## Why is this bad?
    /// The terrain, unit kinds and rules of one game mean nothing in another: an LRF
    /// scenario on PRESTAGS' mapsheet, or with `system: "prestags"`, would otherwise show
    /// only as a cascade of unknown terrain and unit kinds far from the line to fix.
    ///
    /// ## Example
    /// ```ron
    /// map: "tmap",
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// map: "test-map",
    /// ```
    pub META = ("references::wrong-system", Error, "a map, counter sheet or hook of another rules system");
}

/// The system file a file names in its `system` field, resolved from that file.
fn system_of(cx: &ScenarioCx, index: usize) -> Option<usize> {
    let db = cx.file.db;
    let reference = match db.doc(index)? {
        Document::Map(m) => &m.system,
        Document::Counters(c) => &c.system,
        Document::Scenario(s) => &s.system,
        Document::System(_) => return Some(index),
    };
    match db.resolve(index, reference, FileKind::System) {
        Resolution::Found(i) => Some(i),
        _ => None,
    }
}

fn system_id(cx: &ScenarioCx, index: usize) -> String {
    match cx.file.db.doc(index) {
        Some(Document::System(s)) => s.id.clone(),
        _ => "?".to_string(),
    }
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let s = cx.scenario;
    let db = cx.file.db;
    let Some(own) = system_of(cx, cx.file.index) else {
        return;
    };
    let own_id = system_id(cx, own);
    let files = [
        (
            Place::top("map"),
            "map",
            Some(s.map.as_str()),
            FileKind::Map,
        ),
        (
            Place::top("counters"),
            "counter sheet",
            s.counters.as_deref(),
            FileKind::Counters,
        ),
    ];
    for (place, what, reference, kind) in files {
        let Some(reference) = reference else { continue };
        let Resolution::Found(index) = db.resolve(cx.file.index, reference, kind) else {
            continue;
        };
        let Some(theirs) = system_of(cx, index) else {
            continue;
        };
        if theirs != own {
            let their_id = system_id(cx, theirs);
            sink.push(
                Report::new(
                    &META,
                    place,
                    format!(
                        "{what} `{reference}` is of system `{their_id}`, but this scenario is of system `{own_id}`"
                    ),
                )
                .label(Place::top("system"), format!("the scenario's system is `{own_id}`"))
                .help(format!(
                    "use a {what} of system `{own_id}`, or correct `system` if the scenario is a `{their_id}` one"
                )),
            );
        }
    }
    let Some(system) = cx.system else { return };
    let allowed = hooks_of(Some(system));
    for (i, rule) in s.special_rules.iter().enumerate() {
        let Some(hook) = find(&rule.hook) else {
            continue;
        };
        if allowed.iter().any(|h| h.id == hook.id) {
            continue;
        }
        let help = if GAMES.contains(&own_id.as_str()) && allowed.is_empty() {
            format!("system `{own_id}` has no special-rule hooks; remove the rule")
        } else if GAMES.contains(&own_id.as_str()) {
            format!(
                "hooks of system `{own_id}`: {}",
                allowed.iter().map(|h| h.id).collect::<Vec<_>>().join(", ")
            )
        } else {
            format!(
                "if system `{own_id}` has this rule too, declare it there: `rules: (hooks: [\"{}\"])`",
                hook.id
            )
        };
        sink.push(
            Report::new(
                &META,
                Place::special_rule(i).field("hook"),
                format!(
                    "hook `{}` is a rule of system {}, and system `{own_id}` does not declare it",
                    hook.id,
                    hook.systems
                        .iter()
                        .map(|s| format!("`{s}`"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            )
            .help(help),
        );
    }
}
