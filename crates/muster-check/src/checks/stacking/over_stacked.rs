use muster_model::scenario::Placement;
use muster_model::system::{StackingPolicy, UnitRole};

use smallvec::SmallVec;

use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;
use muster_semantic::stacking::occupancy;

declare_check! {
    /// ## What it does
    /// Applies the system's stacking policy to the setup. For Les Rois Francs: one
    /// combat unit per hex; a commander and/or one baggage unit may join a friendly
    /// combat unit. A `baggage-carrier` rule (Montfaucon's drakkars) lets a baggage
    /// counter carry only units of one kind up to a movement allowance. Commanders
    /// placed "on a unit" need a matching unit whose hex still has room.
    ///
    /// ## Why is this bad?
    /// The setup breaks the rules before the first turn; usually a hex was typed twice.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "0903"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    pub META = ("stacking::over-stacked", Error, "more units in a hex than the stacking rules allow");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(system) = cx.system else { return };
    let StackingPolicy::UnitsPerHex {
        combat_units,
        riders,
    } = &system.stacking
    else {
        return;
    };
    let carriers = cx.carriers();
    let occupancy = occupancy(cx);
    for (hex, occupants) in &occupancy {
        // Short lists, on the stack: most hexes hold a unit or two.
        let sides: SmallVec<[Option<usize>; 4]> = {
            let mut s: SmallVec<[_; 4]> = occupants.iter().map(|o| o.side).collect();
            s.dedup();
            s
        };
        for side in sides {
            let mine: SmallVec<[_; 8]> = occupants.iter().filter(|o| o.side == side).collect();
            let combat: SmallVec<[_; 8]> = mine
                .iter()
                .filter(|o| o.slot.role() == Some(UnitRole::Combat))
                .collect();
            if combat.len() > usize::from(*combat_units) {
                let extra = combat[usize::from(*combat_units)];
                sink.push(
                    Report::new(
                        &META,
                        extra.at.clone(),
                        format!(
                            "hex `{hex}` gets a second combat unit, `{}`",
                            extra.slot.counter_id
                        ),
                    )
                    .label(
                        Loc::Value(combat[0].at.clone()),
                        format!("`{}` is placed here first", combat[0].slot.counter_id),
                    )
                    .help(format!(
                        "{} allows {combat_units} combat unit per hex; move one of them",
                        system.name
                    )),
                );
            }
            for rule in riders {
                let these: SmallVec<[_; 8]> = mine
                    .iter()
                    .filter(|o| o.slot.role() == Some(rule.role))
                    .collect();
                if these.len() > usize::from(rule.max) {
                    let extra = these[usize::from(rule.max)];
                    sink.push(
                        Report::new(
                            &META,
                            extra.at.clone(),
                            format!(
                                "hex `{hex}` gets more than {} {:?} unit",
                                rule.max, rule.role
                            )
                            .to_lowercase(),
                        )
                        .label(Loc::Value(these[0].at.clone()), "first placed here"),
                    );
                }
                if !rule.may_stand_alone
                    && combat.is_empty()
                    && let Some(alone) = these.first()
                {
                    sink.push(Report::new(
                        &META,
                        alone.at.clone(),
                        format!(
                            "`{}` must join a friendly combat unit but hex `{hex}` has none",
                            alone.slot.counter_id
                        ),
                    ));
                }
            }
            // Baggage carriers restrict which combat unit may share their hex.
            for carrier in &carriers {
                if !mine.iter().any(|o| o.slot.counter_id == carrier.counter) {
                    continue;
                }
                for o in &combat {
                    let kind_ok = o.slot.kind.is_some_and(|k| k.id == carrier.carries_kind);
                    let move_ok = o
                        .slot
                        .counter
                        .and_then(|c| c.movement)
                        .is_some_and(|m| m <= carrier.max_movement);
                    if !(kind_ok && move_ok) {
                        sink.push(
                            Report::new(&META, o.at.clone(), format!("`{}` carries only `{}` units with at most {} movement points, but `{}` is in its hex `{hex}`", carrier.counter, carrier.carries_kind, carrier.max_movement, o.slot.counter_id))
                                .help("move the unit off the carrier's hex"),
                        );
                    }
                }
            }
        }
    }
    // Riders placed "on a unit": some matching host must still have room.
    for g in cx.groups() {
        let Placement::OnUnit { kind, counter } = g.at else {
            continue;
        };
        for rider in &g.units {
            let Some(role) = rider.role() else { continue };
            let Some(rule) = riders.iter().find(|r| r.role == role) else {
                continue;
            };
            let mut hosts = occupancy.iter().filter(|(_, occ)| {
                occ.iter().any(|o| {
                    o.side == g.side
                        && o.slot.role() == Some(UnitRole::Combat)
                        && kind
                            .as_ref()
                            .is_none_or(|k| o.slot.kind.is_some_and(|uk| &uk.id == k))
                        && counter.as_ref().is_none_or(|c| o.slot.counter_id == c)
                })
            });
            let any_host = hosts.clone().next().is_some();
            let room = hosts.any(|(_, occ)| {
                occ.iter()
                    .filter(|o| o.side == g.side && o.slot.role() == Some(role))
                    .count()
                    < usize::from(rule.max)
            });
            if any_host && !room {
                sink.push(Report::new(
                    &META,
                    g.place.field("at").variant("OnUnit"),
                    format!(
                        "every unit `{}` could join already has a {:?} with it",
                        rider.counter_id, role
                    )
                    .to_lowercase(),
                ));
            }
        }
    }
}
