//! The system's typed rules in words, for the summary: a result table, the status
//! ladder, the sequence of play, each combat rule and how a hex's terrains combine,
//! each as one line. The summary reads the semantic rule queries through here too, so
//! that its rules vocabulary has one door.

mod combat;
mod vocab;
pub use combat::combat_words;
pub use vocab::{
    arrival_words, carrier_words, condition_words, control_words, effect_rule_words, effect_words,
    facing_words, mode_words, orders_words, replacement_words, rule_words, state_words,
    supply_words, zoc_words,
};

use muster_model::rules::{
    Actor, BandResult, BeyondFloor, ResultBand, ResultIndex, ResultTable, Rules, StatusLadder,
};
use muster_model::system::{CostCombine, EffectCombine, TerrainCombine};

pub use muster_semantic::rules::{allowances_among, men_represented, names_any, unled_sides};

fn range_words(band: &ResultBand) -> String {
    match (band.from, band.to) {
        (None, None) => "any".to_string(),
        (None, Some(t)) => format!("{t} or less"),
        (Some(f), None) => format!("{f}+"),
        (Some(f), Some(t)) if f == t => f.to_string(),
        (Some(f), Some(t)) => format!("{f}-{t}"),
    }
}

fn level_name<'a>(ladder: Option<&'a StatusLadder>, id: &'a str) -> &'a str {
    ladder
        .and_then(|l| l.levels.iter().find(|x| x.id == id))
        .map_or(id, |x| x.name.as_str())
}

fn result_words(r: &BandResult, ladder: Option<&StatusLadder>) -> String {
    let levels = |n: u8| {
        if n == 1 {
            "1 level".to_string()
        } else {
            format!("{n} levels")
        }
    };
    match r {
        BandResult::NoEffect => "no effect".to_string(),
        BandResult::LoseLevels(n) => levels(*n),
        BandResult::BothLoseLevels(n) => format!("both lose {}", levels(*n)),
        BandResult::ToLevel(l) => level_name(ladder, l).to_lowercase(),
        BandResult::Code(c) => format!("`{c}`"),
    }
}

/// A result table in words: `fire (difference): 0 or less no effect; 1-3 1 level; ...`.
pub fn table_words(table: &ResultTable, ladder: Option<&StatusLadder>) -> String {
    format!(
        "{} (by {}): {}",
        table.name,
        match table.by {
            ResultIndex::Difference => "difference",
            ResultIndex::Margin => "margin",
        },
        table
            .bands
            .iter()
            .map(|b| format!("{} {}", range_words(b), result_words(&b.result, ladder)))
            .collect::<Vec<_>>()
            .join("; ")
    )
}

/// The status ladder in words.
pub fn ladder_words(ladder: &StatusLadder) -> String {
    let mut text = ladder
        .levels
        .iter()
        .map(|l| l.name.as_str())
        .collect::<Vec<_>>()
        .join(" > ");
    if let (Some(f), Some(BeyondFloor::LoseBase)) = (&ladder.floor, ladder.beyond_floor) {
        text += &format!(
            "; each level lost at {} costs a base",
            level_name(Some(ladder), f)
        );
    }
    if let Some(share) = ladder.removed_at_share_lost {
        text += &format!(
            "; removed at {}% of its bases lost",
            (share * 100.0).round()
        );
    }
    for r in &ladder.recovery {
        text += &format!(
            "; {} restores {}",
            r.by,
            r.levels
                .iter()
                .map(|n| format!("+{n}"))
                .collect::<Vec<_>>()
                .join(" or ")
        );
    }
    text
}

/// How the terrains of one hex combine, in words.
pub fn terrain_combine_words(rule: &TerrainCombine) -> String {
    let cost = match rule.cost {
        CostCombine::MostCostly => "entering costs the most costly of them",
        CostCombine::Cumulative => "entering costs all their costs added up",
        CostCombine::Base => "entering costs the hex's own terrain only",
    };
    let combat = match rule.combat {
        EffectCombine::Strongest => {
            "the strongest die modifier and the strongest column shift count"
        }
        EffectCombine::Cumulative => "their die modifiers and their column shifts add up",
        EffectCombine::Base => "only the own terrain's die modifier and column shift count",
    };
    format!("a hex with added terrain features: {cost}; {combat}")
}

/// The sequence of play in words.
pub fn sequence_words(rules: &Rules) -> Option<String> {
    rules.sequence.as_ref().map(play_words)
}

/// A sequence of play in words, phase by phase.
pub fn play_words(seq: &muster_model::rules::SequenceOfPlay) -> String {
    let phases = |list: &[muster_model::rules::Phase]| {
        list.iter()
            .map(|p| {
                let who = p
                    .acts
                    .iter()
                    .map(|a| match a {
                        Actor::Phasing => "phasing",
                        Actor::NonPhasing => "non-phasing",
                        Actor::Both => "both",
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                let mut more = Vec::new();
                if !p.sides.is_empty() {
                    more.push(format!("{} only", p.sides.join(", ")));
                }
                if p.plots {
                    more.push("orders plotted".to_string());
                }
                if !p.executes.is_empty() {
                    more.push(format!("carries out {}", p.executes.join(", ")));
                }
                if p.simultaneous {
                    more.push("simultaneous".to_string());
                }
                if more.is_empty() {
                    format!("{} ({who})", p.name)
                } else {
                    format!("{} ({who}; {})", p.name, more.join("; "))
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    if !seq.start_of_turn.is_empty() {
        parts.push(phases(&seq.start_of_turn));
    }
    if !seq.player_turn.is_empty() {
        parts.push(format!("each player-turn: {}", phases(&seq.player_turn)));
    }
    if !seq.end_of_turn.is_empty() {
        parts.push(format!("then {}", phases(&seq.end_of_turn)));
    }
    parts.join("; ")
}

/// A distance in inches, in words (`1 inch`, `8 inches`).
pub fn inches(d: f64) -> String {
    if d == 1.0 {
        "1 inch".to_string()
    } else {
        format!("{d} inches")
    }
}

#[cfg(test)]
mod tests {
    use muster_model::rules::{Actor, Phase, Rules, SequenceOfPlay};

    fn phase(id: &str, sides: &[&str]) -> Phase {
        Phase {
            id: id.into(),
            name: id.into(),
            acts: vec![Actor::Phasing],
            sides: sides.iter().map(|s| s.to_string()).collect(),
            plots: false,
            executes: Vec::new(),
            simultaneous: false,
            note: None,
        }
    }

    #[test]
    fn arrivals_say_the_cost_and_the_delay() {
        use muster_model::vocab::{ArrivalRules, BlockedEntry};
        let mut a = ArrivalRules {
            section: "9".into(),
            entry_cost: Some(1.0),
            may_delay: false,
            blocked: Some(BlockedEntry::NextTurn),
            note: None,
        };
        assert_eq!(
            super::arrival_words(&a),
            "entering costs 1 MP beyond the entry hex; they may not be held back; an entry held by the enemy puts them back a turn (9)"
        );
        a.entry_cost = None;
        a.may_delay = true;
        a.blocked = None;
        assert_eq!(
            super::arrival_words(&a),
            "entering costs only the entry hex; the owner may hold them back (9)"
        );
    }

    #[test]
    fn a_phase_of_one_side_says_whose_it_is() {
        let rules = Rules {
            sequence: Some(SequenceOfPlay {
                start_of_turn: Vec::new(),
                player_turn: vec![phase("move", &[]), phase("rally", &["norse"])],
                end_of_turn: Vec::new(),
                note: None,
            }),
            ..Rules::default()
        };
        assert_eq!(
            super::sequence_words(&rules).unwrap(),
            "each player-turn: move (phasing), rally (phasing; norse only)"
        );
    }
}
