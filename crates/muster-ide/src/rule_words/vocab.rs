//! The rules vocabulary in words: a condition, an effect, a rule, and the typed
//! mechanics (zones of control, movement modes, supply), as `summary` and
//! `muster list rules` print them.

use muster_model::system::{Carrier, MoveCost};
use muster_model::vocab::{
    Act, ArrivalRules, BlockedEntry, Clash, ClashRule, Condition, Effect, EffectRule, Facing,
    HexControl, KeptState, MovementMode, Orders, Past, ReplacementGives, ReplacementPlace,
    ReplacementRules, SideFact, SupplyRules, TableSide, ZocEffect, ZocEntry, ZocLeaving,
    ZoneOfControl,
};

/// A number without a needless `.0`.
fn number(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{n:.0}")
    } else {
        format!("{n}")
    }
}

/// A condition in words (`cavalry units in woods when defending`).
pub fn condition_words(c: &Condition) -> String {
    let nested = |x: &Condition| match x {
        Condition::All(l) | Condition::Any(l) if l.len() > 1 => format!("({})", condition_words(x)),
        _ => condition_words(x),
    };
    match c {
        Condition::All(list) if list.is_empty() => "always".to_string(),
        Condition::All(list) => list.iter().map(nested).collect::<Vec<_>>().join(" and "),
        Condition::Any(list) if list.is_empty() => "never".to_string(),
        Condition::Any(list) => list.iter().map(nested).collect::<Vec<_>>().join(" or "),
        Condition::Not(inner) => match inner.as_ref() {
            Condition::Outnumbers(r) if *r == 1.0 => "smaller than the group it fights".to_string(),
            Condition::Behind(x) if matches!(x.as_ref(), Condition::Troop(t) if t == "*") => {
                "in the front rank".to_string()
            }
            _ => format!("not {}", nested(inner)),
        },
        Condition::Side(s) => format!("units of `{s}`"),
        Condition::Troop(t) if t == "*" => "every unit".to_string(),
        Condition::Troop(t) => format!("`{t}` units"),
        Condition::Status(s) => format!("units at status `{s}`"),
        Condition::Turns { from, to } if from == to => format!("on turn {from}"),
        Condition::Turns { from, to } => format!("on turns {from} to {to}"),
        Condition::Weather(w) => format!("in `{w}` weather"),
        Condition::Phase(p) => format!("in the `{p}` phase"),
        Condition::Attacking => "when attacking".to_string(),
        Condition::Defending => "when defending".to_string(),
        Condition::InTerrain(t) => format!("in `{t}`"),
        Condition::Crossing(f) => format!("across `{f}`"),
        Condition::AllAttackersAcross(f) => format!("when every attacker is across `{f}`"),
        Condition::AdjacentToEnemy => "next to an enemy unit".to_string(),
        Condition::StackedWith(t) => format!("stacked with a friendly `{t}` unit"),
        Condition::InEnemyZoc => "in an enemy zone of control".to_string(),
        Condition::InSupply => "in supply".to_string(),
        Condition::InCommand => "within a friendly leader's control radius".to_string(),
        Condition::Panicked => "while panicked".to_string(),
        Condition::Bracketed => "units with a bracketed melee strength".to_string(),
        Condition::DotMelee => "units with a dot for melee strength".to_string(),
        Condition::StackedWithUnit(inner) => {
            format!("stacked with a friendly unit ({})", condition_words(inner))
        }
        Condition::Outpaces(by) => format!(
            "with a printed allowance {} or more above the fastest attacker's",
            number(*by)
        ),
        Condition::Surrounded => {
            "in a flank attack (the defender ringed by its attackers)".to_string()
        }
        Condition::OpponentIn(t) => format!("against a unit in `{t}`"),
        Condition::Opponent(inner) => format!("against {}", nested(inner)),
        Condition::InFormation(f) => format!("in `{f:?}` formation"),
        Condition::Higher => "higher than the opponent".to_string(),
        Condition::Lower => "lower than the opponent".to_string(),
        Condition::Moving(m) => format!("moving by `{m}`"),
        Condition::Counter(c) => format!("counter `{c}`"),
        Condition::OwnSide(f) => format!("once their side {}", fact_words(f)),
        Condition::EnemySide(f) => format!("once the enemy {}", fact_words(f)),
        Condition::Did { act, when } => {
            format!("having {} {}", done_words(*act), past_words(*when))
        }
        Condition::Through(x) => format!("through a `{x}` hexside"),
        Condition::AttackedThrough(x) => format!("when attacked through a `{x}` hexside"),
        Condition::InState(x) => format!("in `{x}`"),
        Condition::Carrying => "carrying a unit aboard".to_string(),
        Condition::Plotted(x) => format!("when plotted to `{x}`"),
        Condition::Event(e) => format!("on {}", e.words()),
        Condition::ContactedOn(side) => format!("touched by an enemy on its {}", side_words(*side)),
        Condition::PassedThrough(side) => format!(
            "when friends pass straight through it from its {}",
            side_words(*side)
        ),
        Condition::Behind(inner) => match inner.as_ref() {
            Condition::Troop(t) if t == "*" => "directly behind a friendly unit".to_string(),
            Condition::Not(x) if matches!(x.as_ref(), Condition::Behind(y) if matches!(y.as_ref(), Condition::Troop(t) if t == "*")) => {
                "in the second rank, directly behind a front-rank unit".to_string()
            }
            _ => format!(
                "directly behind a friendly unit ({})",
                condition_words(inner)
            ),
        },
        Condition::FollowsLeader(inner) => {
            format!("following a leader ({})", condition_words(inner))
        }
        Condition::Outnumbers(r) if *r == 1.0 => {
            "at least as many as the group it fights".to_string()
        }
        Condition::Outnumbers(r) => {
            format!("outnumbering the group it fights {} to 1", number(*r))
        }
        Condition::NearestOpponent => "against the nearest enemy it could take on".to_string(),
        Condition::Near { within, unit } => format!(
            "within {} of another friendly unit ({})",
            number(*within),
            condition_words(unit)
        ),
    }
}

fn side_words(s: TableSide) -> &'static str {
    match s {
        TableSide::Front => "front",
        TableSide::Flank => "flank",
        TableSide::Rear => "rear",
    }
}

fn done_words(a: Act) -> &'static str {
    match a {
        Act::Move => "moved",
        Act::Enter => "entered",
        Act::Attack => "attacked",
        Act::Fire => "fired",
        Act::Retreat => "retreated",
        Act::Advance => "advanced",
        Act::Charge => "charged",
        Act::Melee => "meleed",
        Act::Evade => "evaded",
        Act::Face => "changed facing",
        Act::EndMove => "ended a move",
        Act::Moor => "moored",
        Act::Unmoor => "unmoored",
        Act::Load => "taken units aboard",
    }
}

fn past_words(p: Past) -> &'static str {
    match p {
        Past::ThisPlayerTurn => "this player-turn",
        Past::LastPlayerTurn => "in the last player-turn",
        Past::ThisTurn => "this turn",
    }
}

fn fact_words(f: &SideFact) -> String {
    match f {
        SideFact::Demoralised => "is demoralised".to_string(),
        SideFact::LossesAtLeast(n) => format!("has lost {n}"),
        SideFact::Controls(l) => format!("holds `{l}`"),
        SideFact::ControlsAtLeast(n) => format!("holds {n} or more labelled hexes"),
        SideFact::ActedBefore(a) => format!("has {} in an earlier player-turn", done_words(*a)),
        SideFact::ActedInEarlierTurn(a) => {
            format!("has {} in an earlier game turn", done_words(*a))
        }
        SideFact::Leadership(n) => format!("has the leadership note `{n}`"),
    }
}

fn act_words(a: Act) -> &'static str {
    match a {
        Act::Move => "move",
        Act::Enter => "enter",
        Act::Attack => "attack",
        Act::Fire => "fire",
        Act::Retreat => "retreat",
        Act::Advance => "advance",
        Act::Charge => "charge",
        Act::Melee => "attack in melee",
        Act::Evade => "evade",
        Act::Face => "change facing",
        Act::EndMove => "end a move there",
        Act::Moor => "moor",
        Act::Unmoor => "unmoor",
        Act::Load => "take units aboard",
    }
}

fn cost_words(c: &MoveCost) -> String {
    match c {
        MoveCost::Points(p) => format!("{} MP", number(*p)),
        MoveCost::Extra(p) => format!("+{} MP", number(*p)),
        MoveCost::Impassable => "impassable".to_string(),
    }
}

/// An effect in words (`odds shift -1`, `may not attack`).
pub fn effect_words(e: &Effect) -> String {
    match e {
        Effect::MoveCost(c) => format!("movement {}", cost_words(c)),
        Effect::OddsShift(n) => format!("odds shift {n:+}"),
        Effect::DieModifier(n) => format!("{n:+} to the die"),
        Effect::MoraleRoll(n) => format!("{n:+} to its morale tests"),
        Effect::Strength(f) if *f == 0.5 => "strength halved".to_string(),
        Effect::Strength(f) if *f == 2.0 => "strength doubled".to_string(),
        Effect::Strength(f) => format!("strength x{}", number(*f)),
        Effect::FixedStrength(n) => format!("strength is {n}"),
        Effect::FinalStrength(f) if *f == 2.0 => {
            "strength doubled after every other correction".to_string()
        }
        Effect::FinalStrength(f) => {
            format!("strength x{} after every other correction", number(*f))
        }
        Effect::LeaderBonus { capped } => format!(
            "adds the combat bonus of the friendly leaders stacked with it{}",
            if *capped {
                ", at most the strength of the units in the hex that take it"
            } else {
                ""
            }
        ),
        Effect::FireProtection(n) => format!("protected at {n} against fire"),
        Effect::FallsWith { with, reach } => format!(
            "eliminated with a unit {} it ({})",
            reach.words(),
            with.iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Effect::TerrainProof => "its defence is never changed by terrain".to_string(),
        Effect::NoCrossingCost => "pays no crossing cost".to_string(),
        Effect::WholeMove => "needs a whole move to pass".to_string(),
        Effect::RoadOnly => "enters only along a road".to_string(),
        Effect::NoTemptation => "never tempted to charge".to_string(),
        Effect::Flees => "flees the nearest enemy each movement phase".to_string(),
        Effect::PushedBack {
            inches,
            stays_locked,
        } => format!(
            "pushed back {}{}",
            super::inches(*inches),
            if *stays_locked {
                ", both sides staying locked in the melee"
            } else {
                ", out of the melee"
            }
        ),
        Effect::ChargeHalted { short_by } => format!(
            "its charge halts {} short of its target, and no melee follows",
            super::inches(*short_by)
        ),
        Effect::ShotOnlyWithin(d) => format!("shot at only within {}", super::inches(*d)),
        Effect::MoveAllowance(f) if *f == 0.5 => "moves at half its allowance".to_string(),
        Effect::MoveAllowance(f) => format!("moves at {f} times its allowance"),
        Effect::Immune(codes) => format!("unaffected by {}", codes.join(", ")),
        Effect::ResultBecomes { from, to } => format!("{from} is read as {to}"),
        Effect::StackingLimit(n) => format!("at most {n} a hex"),
        Effect::Zoc(ZocEffect::Exerts) => "exert a zone of control".to_string(),
        Effect::Zoc(ZocEffect::ExertsNone) => "exert no zone of control".to_string(),
        Effect::Zoc(ZocEffect::Ignores) => "ignore enemy zones of control".to_string(),
        Effect::Zoc(ZocEffect::ZoneToZone) => {
            "may move straight from one enemy zone of control to another".to_string()
        }
        Effect::Zoc(ZocEffect::Blocked) => "its zone of control does not reach there".to_string(),
        Effect::ZocEntry(x) => format!("in enemy zones of control, {}", entry_words(*x)),
        Effect::ZocLeaving(x) => format!("in enemy zones of control, {}", leaving_words(*x)),
        Effect::May(a) => format!("may {}", act_words(*a)),
        Effect::MayNot(a) => format!("may not {}", act_words(*a)),
        Effect::Must(a) => format!("must {}", act_words(*a)),
        Effect::VictoryPoints(n) => format!("{n:+} victory points"),
        Effect::NoChargeBonus => "its attackers gain no charge bonus".to_string(),
        Effect::ChargeBonus(n) => format!("charges for +{n}"),
        Effect::ToStatus(l) => format!("put at status `{l}`"),
        Effect::Becomes(k) => format!("becomes a `{k}`"),
        Effect::ShareLosses {
            first_to_principal,
            none_above_principal,
        } => {
            let mut text = "losses shared among the units fighting".to_string();
            if *first_to_principal {
                text += ", the first to the acting or target unit";
            }
            if *none_above_principal {
                text += ", none more than it";
            }
            text
        }
    }
}

/// What a rule does and when, in words, with its section
/// (`odds shift -1, when defending and when every attacker is across creek (7.3)`).
pub fn rule_words(when: Option<&Condition>, then: &[Effect], section: Option<&str>) -> String {
    let effects: Vec<String> = then.iter().map(effect_words).collect();
    let mut text = effects.join(", ");
    if let Some(c) = when {
        text += &format!(": {}", condition_words(c));
    }
    if let Some(s) = section {
        text += &format!(" ({s})");
    }
    text
}

/// A rule of a system's vocabulary, in words, with its id.
pub fn effect_rule_words(r: &EffectRule) -> String {
    format!(
        "{}: {}",
        r.id,
        rule_words(r.when.as_ref(), &r.then, Some(&r.section))
    )
}

fn entry_words(e: ZocEntry) -> String {
    match e {
        ZocEntry::Free => "entering is free".to_string(),
        ZocEntry::Stop => "a unit entering stops".to_string(),
        ZocEntry::Cost(c) => format!("entering costs +{} MP", number(c)),
    }
}

fn leaving_words(l: ZocLeaving) -> String {
    match l {
        ZocLeaving::Free => "leaving is free".to_string(),
        ZocLeaving::Cost(c) => format!("leaving costs +{} MP", number(c)),
        ZocLeaving::Forbidden => "leaving only by retreat or advance".to_string(),
    }
}

/// Zones of control in words.
pub fn zoc_words(z: &ZoneOfControl) -> String {
    let mut parts = vec![match &z.exerted_by {
        Some(c) => format!("exerted by {}", condition_words(c)),
        None => "exerted by every combat unit".to_string(),
    }];
    parts.push(entry_words(z.entry));
    parts.push(leaving_words(z.leaving));
    if !z.zone_to_zone {
        parts.push("no move from one enemy zone straight to another".to_string());
    }
    if z.no_retreat_into {
        parts.push("no retreat into one".to_string());
    }
    if z.blocks_supply {
        parts.push("supply is not traced through one".to_string());
    }
    if !z.blocked_by.is_empty() {
        parts.push(format!("not across {}", z.blocked_by.join(", ")));
    }
    if !z.not_into.is_empty() {
        parts.push(format!("not into {}", z.not_into.join(", ")));
    }
    format!("{} ({})", parts.join("; "), z.section)
}

/// Who holds a hex, in words.
pub fn control_words(c: &HexControl) -> String {
    let after = if c.kept_when_left {
        "once they leave, the side that stood there last; a hex never entered is nobody's"
    } else {
        "an empty hex is nobody's"
    };
    format!(
        "a hex is held by the side whose units alone stand in it; {after} ({})",
        c.section
    )
}

/// A movement mode in words.
pub fn mode_words(m: &MovementMode) -> String {
    let costs: Vec<String> = m
        .costs
        .iter()
        .map(|c| format!("{} on {}", cost_words(&c.cost), c.on))
        .collect();
    let mut text = format!("{}: {}", m.name, costs.join(", "));
    if let Some(who) = &m.who {
        text += &format!("; for {}", condition_words(who));
    }
    if !m.start_on.is_empty() {
        text += &format!("; starts on {}", m.start_on.join(" or "));
    }
    if !m.end_on.is_empty() {
        text += &format!("; ends on {}", m.end_on.join(" or "));
    }
    if m.not_adjacent_to_enemy {
        text += "; never next to an enemy unit";
    }
    if let Some(n) = m.capacity_per_turn {
        text += &format!("; at most {n} units a turn");
    }
    format!("{text} ({})", m.section)
}

/// Supply in words.
pub fn supply_words(s: &SupplyRules) -> String {
    let mut text = format!("traced up to {} hexes", s.trace_length);
    if !s.blocked_by_terrain.is_empty() {
        text += &format!(", not into {}", s.blocked_by_terrain.join(", "));
    }
    if !s.blocked_by_hexsides.is_empty() {
        text += &format!(", not across {}", s.blocked_by_hexsides.join(", "));
    }
    if s.blocked_by_enemy_units {
        text += ", not through enemy units";
    }
    format!("{text} ({})", s.section)
}

/// How reinforcements arrive, in words.
pub fn arrival_words(a: &ArrivalRules) -> String {
    let mut parts = Vec::new();
    match a.entry_cost {
        Some(mp) if mp > 0.0 => parts.push(format!(
            "entering costs {} MP beyond the entry hex",
            number(mp)
        )),
        _ => parts.push("entering costs only the entry hex".to_string()),
    }
    parts.push(if a.may_delay {
        "the owner may hold them back".to_string()
    } else {
        "they may not be held back".to_string()
    });
    if let Some(b) = a.blocked {
        parts.push(
            match b {
                BlockedEntry::NearestFreeHex => {
                    "an entry held by the enemy moves to the nearest free hex of that edge"
                }
                BlockedEntry::NextTurn => "an entry held by the enemy puts them back a turn",
                BlockedEntry::Lost => "an entry held by the enemy loses them",
            }
            .to_string(),
        );
    }
    format!("{} ({})", parts.join("; "), a.section)
}

/// Replacements in words.
pub fn replacement_words(r: &ReplacementRules) -> String {
    let buys: Vec<String> = r
        .buys
        .iter()
        .map(|b| {
            let gives = match b.gives {
                ReplacementGives::StepBack => "a step back".to_string(),
                ReplacementGives::FromEliminated { reduced: true } => {
                    "an eliminated unit back, reduced".to_string()
                }
                ReplacementGives::FromEliminated { reduced: false } => {
                    "an eliminated unit back".to_string()
                }
            };
            let points = if b.cost == 1 { "point" } else { "points" };
            format!("{} {points}: {gives}", b.cost)
        })
        .collect();
    let placed = match &r.placed {
        ReplacementPlace::InPlace => "where it stands".to_string(),
        ReplacementPlace::AtSupplySource => "on a supply source".to_string(),
        ReplacementPlace::AtLabel(l) => format!("at {l}"),
        ReplacementPlace::WithUnit(t) => format!("next to a `{t}` unit"),
    };
    let mut text = format!("{}; placed {placed}", buys.join(", "));
    if let Some(who) = &r.who {
        text += &format!("; for {}", condition_words(who));
    }
    format!("{text} ({})", r.section)
}

/// Facing in words.
pub fn facing_words(f: &Facing) -> String {
    let classes: Vec<String> = f
        .classes
        .iter()
        .map(|c| {
            let sides: Vec<String> = c.hexsides.iter().map(u8::to_string).collect();
            format!("{} (`{}`): hexsides {}", c.name, c.id, sides.join(", "))
        })
        .collect();
    let mut text = format!("hexside 0 faced, clockwise; {}", classes.join("; "));
    if let Some(cost) = f.turn_cost {
        text += &format!("; turning costs {} MP", number(cost));
        if let Some(n) = f.turn_up_to {
            text += &format!(" for up to {n} hexsides");
        }
    }
    format!("{text} ({})", f.section)
}

/// A carrier kind and its costs in words.
pub fn carrier_words(c: &Carrier) -> String {
    let mut text = format!(
        "`{}` carries up to {} units, at most {} a hex",
        c.kind, c.capacity, c.per_hex
    );
    let costs: Vec<String> = [
        ("mooring", c.moor_cost),
        ("unmooring", c.unmoor_cost),
        ("boarding", c.board_cost),
        ("unloading", c.unload_cost),
    ]
    .into_iter()
    .filter_map(|(what, cost)| Some(format!("{what} {} MP", number(cost?))))
    .collect();
    if !costs.is_empty() {
        text += &format!("; {}", costs.join(", "));
    }
    if !c.unload_not_into.is_empty() {
        text += &format!("; no unloading into {}", c.unload_not_into.join(", "));
    }
    text
}

/// A kept state in words.
pub fn state_words(s: &KeptState) -> String {
    let acts: Vec<&str> = s.set_by.iter().map(|a| done_words(*a)).collect();
    let mut text = format!(
        "{} (`{}`): set on units that {}",
        s.name,
        s.id,
        acts.join(" or ")
    );
    if !s.unless.is_empty() {
        text += &format!(" unless either side suffers {}", s.unless.join(", "));
    }
    let mut ends: Vec<String> = Vec::new();
    if !s.cleared_by.is_empty() {
        ends.push(format!("either side suffers {}", s.cleared_by.join(", ")));
    }
    if !s.ended_by.is_empty() {
        let acts: Vec<&str> = s.ended_by.iter().map(|a| done_words(*a)).collect();
        ends.push(format!("the unit has {}", acts.join(" or ")));
    }
    if ends.is_empty() {
        text += "; kept from turn to turn";
    } else {
        text += &format!("; kept from turn to turn until {}", ends.join(", or "));
    }
    format!("{text} ({})", s.section)
}

/// Plotted orders in words.
pub fn orders_words(o: &Orders) -> String {
    let tasks: Vec<String> = o
        .tasks
        .iter()
        .map(|t| {
            let mut text = format!("{} {}", t.code, t.name);
            if let Some(who) = &t.who {
                text += &format!(" (for {})", condition_words(who));
            }
            if !t.interrupted_by.is_empty() {
                text += &format!(", cancelled by an earlier {}", t.interrupted_by.join(", "));
            }
            text
        })
        .collect();
    let mut text = format!("tasks {}", tasks.join("; "));
    if o.one_per_turn {
        text += "; one task a unit each turn";
    }
    if o.binding {
        text += "; a plot is never changed";
    }
    if let Some(c) = &o.clash {
        text += &format!("; {}", clash_words(c));
    }
    format!("{text} ({})", o.section)
}

fn clash_words(c: &Clash) -> String {
    let rule = |r: ClashRule| match r {
        ClashRule::StrongerFirst => "the stronger in melee attack goes first (a die on a tie)",
        ClashRule::BothStop => "both stop, without combat",
    };
    format!(
        "entering one hex: {}; crossing one hexside: {} ({})",
        rule(c.same_hex),
        rule(c.same_hexside),
        c.section
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_reads_as_its_effects_and_its_condition() {
        let when = Condition::All(vec![
            Condition::Defending,
            Condition::Any(vec![
                Condition::InTerrain("woods".into()),
                Condition::Crossing("creek".into()),
            ]),
            Condition::Not(Box::new(Condition::InSupply)),
        ]);
        assert_eq!(
            rule_words(
                Some(&when),
                &[Effect::OddsShift(-1), Effect::MayNot(Act::Retreat)],
                Some("7.3")
            ),
            "odds shift -1, may not retreat: when defending and (in `woods` or across `creek`) and not in supply (7.3)"
        );
        assert_eq!(effect_words(&Effect::Strength(0.5)), "strength halved");
        assert_eq!(effect_words(&Effect::Strength(1.5)), "strength x1.5");
    }

    /// The side's state and the zone effects added for a fifth game read as words.
    #[test]
    fn side_facts_and_zone_effects_read_as_words() {
        let side = |f: SideFact| condition_words(&Condition::OwnSide(f));
        assert_eq!(
            side(SideFact::Demoralised),
            "once their side is demoralised"
        );
        assert_eq!(
            side(SideFact::LossesAtLeast(4)),
            "once their side has lost 4"
        );
        assert_eq!(
            side(SideFact::ControlsAtLeast(3)),
            "once their side holds 3 or more labelled hexes"
        );
        assert_eq!(
            side(SideFact::ActedBefore(Act::Melee)),
            "once their side has meleed in an earlier player-turn"
        );
        assert_eq!(
            condition_words(&Condition::StackedWith("E".into())),
            "stacked with a friendly `E` unit"
        );
        assert_eq!(
            effect_words(&Effect::ZocLeaving(ZocLeaving::Cost(2.0))),
            "in enemy zones of control, leaving costs +2 MP"
        );
        assert_eq!(
            effect_words(&Effect::MayNot(Act::EndMove)),
            "may not end a move there"
        );
    }
}
