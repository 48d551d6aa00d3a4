//! Placed set-up in words: where a setup group goes, one line per counter of a group with
//! the status it starts at and how many the owner picks, and the units each side keeps
//! in its holding boxes.

use std::collections::HashMap;

use muster_hex::{HexGrid, HexId};
use muster_model::counters::Army;
use muster_model::scenario::{Forces, HoldingBox, Placement, SetupGroup};
use muster_semantic::ScenarioCx;
use serde::Serialize;

use super::{CounterCount, SetupLine};

/// Where a setup group goes, in words, with the hexes it names.
pub(super) fn placement_text(army: Option<&Army>, at: &Placement) -> (String, Vec<String>) {
    let run = |a: &str, b: &str| -> Vec<String> {
        match (HexId::parse(a), HexId::parse(b)) {
            (Ok(a), Ok(b)) => HexGrid::straight_range(a, b)
                .map(|hexes| hexes.iter().map(HexId::to_string).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    };
    match at {
        Placement::Hexes(list) => (
            format!(
                "{} {}",
                if list.len() == 1 { "hex" } else { "hexes" },
                list.join(", ")
            ),
            list.clone(),
        ),
        Placement::Range(a, b) => (format!("range {a}-{b}, one unit a hex"), run(a, b)),
        Placement::OnUnit { kind, counter } => {
            let counter = counter.as_ref().map(|c| {
                let name = army
                    .and_then(|a| a.counters.iter().find(|x| &x.id == c))
                    .map_or(String::new(), |x| format!(" \"{}\"", x.name));
                format!("{c}{name}")
            });
            let text = match (kind, counter) {
                (Some(k), Some(c)) => format!("stacked on a friendly {k} unit, {c}"),
                (Some(k), None) => format!("stacked on a friendly {k} unit"),
                (None, Some(c)) => format!("stacked on {c}"),
                (None, None) => "stacked on a friendly unit".to_string(),
            };
            (text, Vec::new())
        }
        Placement::Spaced { from, to, min_gap } => (
            format!("spaced along {from}-{to}, gap {min_gap}"),
            run(from, to),
        ),
        Placement::Box(b) => (format!("in the {}", b.name()), Vec::new()),
    }
}

/// One line per counter of a setup group (or of a neutral placement): a counter listed
/// many times in the group is one line counting them all, so the summary stays as small
/// as the army, however long the list.
pub(super) fn placed_lines(
    cx: &ScenarioCx,
    (group, army): (usize, Option<&Army>),
    units: &[muster_model::scenario::UnitGroup],
    at: &Placement,
    choose: Option<u8>,
) -> Vec<SetupLine> {
    let (mut placement, hexes) = placement_text(army, at);
    if let Some(n) = choose {
        let listed: usize = units.iter().map(|u| usize::from(u.count)).sum();
        placement = format!("the owner picks {n} of these {listed}: {placement}");
    }
    let ladder = cx.status_ladder();
    let mut lines: Vec<SetupLine> = Vec::new();
    let mut line_of: HashMap<(&str, Option<&str>), usize> = HashMap::new();
    for u in units {
        let key = (u.counter.as_str(), u.status.as_deref());
        if let Some(&k) = line_of.get(&key) {
            lines[k].count += usize::from(u.count);
            continue;
        }
        line_of.insert(key, lines.len());
        lines.push(SetupLine {
            group,
            counter: u.counter.clone(),
            name: army
                .and_then(|a| a.counters.iter().find(|c| c.id == u.counter))
                .map_or(u.counter.clone(), |c| c.name.clone()),
            count: usize::from(u.count),
            status: u.status.as_ref().map(|s| {
                ladder
                    .and_then(|l| l.levels.iter().find(|x| &x.id == s))
                    .map_or(s.clone(), |x| x.name.clone())
            }),
            hexes: hexes.clone(),
            placement: placement.clone(),
            at: None,
            facing: None,
        });
    }
    lines
}

/// The units a side keeps in one holding box at the start.
#[derive(Debug, Serialize)]
pub struct BoxLine {
    /// The box in words (`reserves box`).
    pub name: String,
    pub units: Vec<CounterCount>,
}

/// The holding boxes of side `index` with the units set up in each, boxes in the order
/// reserves, replacements, eliminated, units in the order listed.
pub(super) fn boxes(cx: &ScenarioCx, index: usize) -> Vec<BoxLine> {
    let Some(side) = cx.scenario.sides.get(index) else {
        return Vec::new();
    };
    let setup: &[SetupGroup] = match &side.forces {
        Forces::Placed { setup, .. } => setup,
        // Zoned and table forces have no holding boxes.
        Forces::Zoned(_) | Forces::Table(_) => return Vec::new(),
    };
    let mut by_box: std::collections::BTreeMap<HoldingBox, Vec<CounterCount>> =
        std::collections::BTreeMap::new();
    for g in setup {
        let Placement::Box(b) = g.at else {
            continue;
        };
        let army = cx.group_army(index, g.army.as_deref());
        let units = by_box.entry(b).or_default();
        for u in &g.units {
            match units.iter_mut().find(|c| c.counter == u.counter) {
                Some(c) => c.count += usize::from(u.count),
                None => units.push(CounterCount {
                    counter: u.counter.clone(),
                    name: army
                        .and_then(|a| a.counters.iter().find(|c| c.id == u.counter))
                        .map_or(u.counter.clone(), |c| c.name.clone()),
                    count: usize::from(u.count),
                }),
            }
        }
    }
    by_box
        .into_iter()
        .map(|(b, units)| BoxLine {
            name: b.name().to_string(),
            units,
        })
        .collect()
}
