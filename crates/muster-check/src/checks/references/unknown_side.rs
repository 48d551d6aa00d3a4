use muster_model::scenario::VictoryCondition;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_db::suggest::did_you_mean;
use muster_semantic::ScenarioCx;
use muster_semantic::hooks::RefKind;

declare_check! {
    /// ## What it does
    /// Checks that side ids used by `deploys_first`, `plays_first`, reinforcements,
    /// victory conditions and special rules are sides of the scenario.
    ///
    /// ## Why is this bad?
    /// The turn order, the arriving units or the winner would belong to nobody.
    ///
    /// ## Example
    /// ```ron
    /// plays_first: "bleu",
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// plays_first: "blue",
    /// ```
    pub META = ("references::unknown-side", Error, "a side the scenario does not have");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let s = cx.scenario;
    let known: Vec<&str> = s.sides.iter().map(|x| x.id.as_str()).collect();
    let mut refs: Vec<(Place, &str)> = vec![(Place::top("plays_first"), s.plays_first.as_str())];
    if let Some(first) = &s.deploys_first {
        refs.insert(0, (Place::top("deploys_first"), first.as_str()));
    }
    refs.extend(
        s.reinforcements
            .iter()
            .enumerate()
            .map(|(i, r)| (Place::reinforcement(i).field("side"), r.side.as_str())),
    );
    refs.extend(s.withdrawals.iter().enumerate().map(|(i, w)| {
        (
            Place::top("withdrawals").index(i).field("side"),
            w.side.as_str(),
        )
    }));
    for (i, v) in s.victory.iter().enumerate() {
        let (variant, side) = match v {
            VictoryCondition::ExitUnits { side, .. } => ("ExitUnits", side),
            VictoryCondition::Otherwise { side, .. } => ("Otherwise", side),
            VictoryCondition::ExtraTurns { side, .. } => ("ExtraTurns", side),
            VictoryCondition::ShiftOnEliminations { side, .. } => ("ShiftOnEliminations", side),
            VictoryCondition::WinsIfAllMet { side } => ("WinsIfAllMet", side),
            VictoryCondition::Achieves { side, .. } => ("Achieves", side),
            VictoryCondition::FirstTo { races, .. } => {
                for (k, race) in races.iter().enumerate() {
                    let at = Place::victory(i).variant("FirstTo").field("races").index(k);
                    refs.push((at.field("side"), race.side.as_str()));
                }
                continue;
            }
            _ => continue,
        };
        refs.push((
            Place::victory(i).field(variant).field("side"),
            side.as_str(),
        ));
    }
    for hook in cx.hooks() {
        for r in hook.references() {
            // A place only for what is reported: a hook may list many sides.
            if let RefKind::Side(side) = r.kind
                && !known.contains(&side)
            {
                refs.push((hook.place_of(&r), side));
            }
        }
    }
    for (place, side) in refs {
        if !known.contains(&side) {
            sink.push(
                Report::new(
                    &META,
                    place,
                    format!("no side `{side}` in scenario `{}`", s.id),
                )
                .help_opt(
                    did_you_mean(side, known.iter().copied())
                        .or_else(|| Some(format!("sides: {}", known.join(", ")))),
                ),
            );
        }
    }
}
