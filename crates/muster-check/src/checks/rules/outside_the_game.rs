use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::vocab::Condition;
use muster_semantic::ScenarioCx;
use muster_semantic::rules::vocab::{Game, never_holds_in};

declare_check! {
    /// ## What it does
    /// Checks a scenario's turn record, replacement points and its own special rules
    /// against the length of its game: each turn of the turn record must be a turn of
    /// the game (1 to `turns` plus `extra_turns`) and listed once, replacement turns
    /// must run forward within the game, and the `when` of each special rule (with the
    /// `when` the system gives a rule it declares under that id) must be able to hold in
    /// this game (a turn range after the last turn, more labelled hexes held than the
    /// map has, or a condition that can never hold, cannot).
    ///
    /// ## Why is this bad?
    /// Weather given for a turn that is never played, or a rule for turns after the
    /// end, is a rule that never comes into play: most often the turn count or the
    /// rule's turns were mistyped.
    ///
    /// ## Example
    /// ```ron
    /// turn_record: [(turn: 1, weather: "clear"), (turn: 2, weather: "mud"), (turn: 9, weather: "mud")],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// turn_record: [(turn: 1, weather: "clear"), (turn: 2, weather: "mud"), (turn: 3, weather: "mud")],
    /// ```
    pub META = ("rules::outside-the-game", Warning, "a turn record entry, replacement or special rule outside the scenario's game");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let s = cx.scenario;
    let last = s.turns.saturating_add(s.extra_turns);
    // The first entry of each turn, by turn: a record repeated many times costs its length.
    let mut seen: Vec<Option<Place>> = vec![None; usize::from(u8::MAX) + 1];
    for (i, entry) in s.turn_record.iter().enumerate() {
        let at = Place::top("turn_record").index(i).field("turn");
        if entry.turn == 0 || entry.turn > last {
            sink.push(
                Report::new(
                    &META,
                    at.clone(),
                    format!(
                        "turn {} is not a turn of this game, which has turns 1 to {last}",
                        entry.turn
                    ),
                )
                .help("correct the turn, or the scenario's `turns`"),
            );
        } else if let Some(first) = &seen[usize::from(entry.turn)] {
            sink.push(
                Report::new(
                    &META,
                    at.clone(),
                    format!("turn {} is already in the turn record", entry.turn),
                )
                .label(first.clone(), "first given here")
                .help("give each turn once"),
            );
        }
        seen[usize::from(entry.turn)].get_or_insert(at);
    }
    for (i, r) in s.replacement_points.iter().enumerate() {
        let at = Place::top("replacement_points").index(i);
        if r.from == 0 || r.from > r.to || r.to > last {
            sink.push(
                Report::new(
                    &META,
                    at.field("to"),
                    format!(
                        "replacements on turns {} to {} do not fall within this game's turns 1 to {last}",
                        r.from, r.to
                    ),
                )
                .help("give turns from 1 up to the last, the first no later than the last"),
            );
        }
    }
    let Some(system) = cx.system else { return };
    let game = Game {
        last_turn: Some(last),
        labels: cx.map.map(|m| {
            let mut texts: Vec<&str> = m.table().labels.iter().map(|l| l.text.as_str()).collect();
            texts.sort_unstable();
            texts.dedup();
            texts.len()
        }),
    };
    for (i, rule) in s.special_rules.iter().enumerate() {
        // A rule the system declares under this id is narrowed by the scenario's own
        // `when`: both must be able to hold.
        let declared = system
            .rules
            .special_rules
            .iter()
            .find(|r| r.id == rule.hook)
            .and_then(|r| r.when.clone());
        let when = match (declared, rule.when.clone()) {
            (Some(a), Some(b)) => Condition::All(vec![a, b]),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => continue,
        };
        let at = if rule.when.is_some() { "when" } else { "hook" };
        if let Some(why) = never_holds_in(&when, system, &game) {
            sink.push(
                Report::new(
                    &META,
                    Place::special_rule(i).field(at),
                    format!(
                        "special rule `{}` can never apply in this game: {why}",
                        rule.hook
                    ),
                )
                .help("correct the rule's condition, or the game it is written for (the scenario's `turns`, its map's labels)"),
            );
        }
    }
}
