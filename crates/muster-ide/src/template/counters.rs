//! The skeleton of a new counter sheet (`muster new counters`): two armies, each with
//! one counter of every unit kind of the system, every guessed value marked with
//! [`PLACEHOLDER_MARK`](super::PLACEHOLDER_MARK), and the optional counter fields shown
//! in an example behind [`EXAMPLE_MARK`](super::EXAMPLE_MARK).

use muster_model::system::{GridKind, KindStats, RulesSystem, UnitRole};

use super::{PLACEHOLDER_MARK, check_id, quoted, title};

/// The two armies of a new sheet: id suffix, name, colour.
const ARMIES: [(&str, &str, &str); 2] = [("red", "Red army", "red"), ("blue", "Blue army", "blue")];

/// The text of `NAME.counters.ron`: counter sheet `id` of `system`.
pub fn counters(id: &str, system: &RulesSystem) -> Result<String, String> {
    check_id(id)?;
    if let GridKind::Table { .. } = system.grid {
        return Err(format!(
            "system `{}` plays on an open table, where scenarios give forces by troop type; `muster new counters` writes counter sheets of hex games",
            system.id
        ));
    }
    if system.unit_kinds.is_empty() {
        return Err(format!(
            "system `{}` has no unit kinds; add them to its `unit_kinds` first",
            system.id
        ));
    }
    let kinds: Vec<&str> = system.unit_kinds.iter().map(|k| k.id.as_str()).collect();
    let mut text = format!(
        "// {name}: a counter sheet skeleton of `{system}` written by `muster new counters`.\n\
         //\n\
         // Two armies, each with one counter of every unit kind of `{system}`:\n\
         // {kinds}.\n\
         // Every value muster had to guess (names, colours, strengths, movement) ends with\n\
         // `// {PLACEHOLDER_MARK}`: put the values printed on the counters, add or remove\n\
         // counters and armies, and delete the comment; `template::placeholder` warns until\n\
         // then. A line starting `//~ ` is an example: delete those four characters to use it.\n\
         // Counter ids are unique across the sheet; scenarios name counters by id.\n",
        name = title(id),
        system = system.id,
        kinds = kinds.join(", "),
    );
    text += "CounterSheet(\n";
    text += &format!("    id: {},\n", quoted(id));
    text += &format!("    system: {},\n", quoted(&system.id));
    text += "    armies: [\n";
    for (i, (suffix, name, colour)) in ARMIES.iter().enumerate() {
        let army = format!("{id}-{suffix}");
        text += "        (\n";
        text += "            // The army's id (scenarios name it), name and background colour.\n";
        text += &format!("            id: {},\n", quoted(&army));
        text += &format!(
            "            name: {}, // {PLACEHOLDER_MARK}\n",
            quoted(name)
        );
        text += &format!(
            "            colour: {}, // {PLACEHOLDER_MARK}\n",
            quoted(colour)
        );
        text += "            // One entry per counter design; `count` is how many copies the sheet holds.\n";
        text += "            counters: [\n";
        for kind in &system.unit_kinds {
            let (strength, movement) = guess(system, &kind.id);
            let range = if kind.missile { ", range: 2" } else { "" };
            text += &format!(
                "                (id: {}, name: {}, kind: {}, strength: {strength}, movement: {movement:?}{range}), // {PLACEHOLDER_MARK}\n",
                quoted(&format!("{army}-{}", kind.id)),
                quoted(&format!("{} {}", title(suffix), kind.name)),
                quoted(&kind.id),
            );
        }
        if i == 0 {
            let kind = &system.unit_kinds[0];
            let (strength, movement) = guess(system, &kind.id);
            text += "                // A two-step counter (its reduced side), several copies, a value not printed:\n";
            text += &format!(
                "                //~ (id: {}, name: {}, kind: {}, strength: {}, reduced: {}, movement: {movement:?}, count: 2, assumed: {{\"movement\": \"not printed; the other counters of the kind\"}}), // {PLACEHOLDER_MARK}\n",
                quoted(&format!("{army}-{}-2", kind.id)),
                quoted(&format!("{} {} 2", title(suffix), kind.name)),
                quoted(&kind.id),
                strength.max(1) + 1,
                strength.max(1),
            );
        }
        text += "            ],\n";
        text += "        ),\n";
    }
    text += "    ],\n";
    text += ")\n";
    Ok(text)
}

/// A guessed strength and movement for a counter of `kind`: the kind's printed values
/// when the system has them, else 3 (1 for leaders and baggage) and 4 MP mounted, 2 on foot.
fn guess(system: &RulesSystem, kind: &str) -> (u8, f64) {
    let Some(k) = system.unit_kinds.iter().find(|k| k.id == kind) else {
        return (3, 2.0);
    };
    let strength = if k.role == UnitRole::Combat { 3 } else { 1 };
    let movement = if k.mounted { 4.0 } else { 2.0 };
    match &k.stats {
        Some(KindStats::Counter {
            melee, movement, ..
        }) => (melee.points().max(1), *movement),
        Some(KindStats::Leader {
            movement, melee, ..
        }) => (melee.points().max(1), *movement),
        _ => (strength, movement),
    }
}
