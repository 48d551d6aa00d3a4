//! Composed victory conditions (`Achieves`, `FirstTo`) in words.

use muster_model::scenario::{ExitThrough, Outcome, Race, VictoryLevel, VictoryTest};
use muster_semantic::ScenarioCx;

use super::{area_text, level_words, side_name};

/// `Achieves`: "Victory for X (major) once ..., by turn N."
pub fn achieves_text(
    cx: &ScenarioCx,
    side: &str,
    level: VictoryLevel,
    test: &VictoryTest,
    by_turn: Option<u8>,
) -> String {
    let by = by_turn.map_or(String::new(), |t| format!(" by the end of turn {t}"));
    format!(
        "{} for {} once it has {}{by}.",
        capitalised(level_words(level)),
        side_name(cx, side),
        test_text(test)
    )
}

/// `FirstTo`: "The first side to ... wins (level): X by ...; Y by .... A tie: ...".
pub fn first_to_text(
    cx: &ScenarioCx,
    level: VictoryLevel,
    races: &[Race],
    tie: Option<&Outcome>,
) -> String {
    let races: Vec<String> = races
        .iter()
        .map(|r| {
            format!(
                "{} once it has {}",
                side_name(cx, &r.side),
                test_text(&r.test)
            )
        })
        .collect();
    let tie = match tie {
        None | Some(Outcome::Draw) => "a draw".to_string(),
        Some(Outcome::Wins(side)) => format!("victory for {}", side_name(cx, side)),
    };
    format!(
        "The first side to reach its goal wins ({}): {}; both in the same turn: {tie}.",
        level_words(level),
        races.join("; ")
    )
}

/// A test in words, as what a side has done ("40 victory points and 7 units exited");
/// composite members are bracketed.
pub fn test_text(test: &VictoryTest) -> String {
    words(test, false)
}

fn words(test: &VictoryTest, nested: bool) -> String {
    let units = |u: &[String]| {
        if u.iter().any(|x| x == "*") {
            "units".to_string()
        } else {
            format!("{} units", u.join(" or "))
        }
    };
    let join = |list: &[VictoryTest], word: &str| {
        let parts: Vec<String> = list.iter().map(|t| words(t, true)).collect();
        match parts.len() {
            0 => "nothing".to_string(),
            1 => parts[0].clone(),
            _ if nested => format!("({})", parts.join(word)),
            _ => parts.join(word),
        }
    };
    match test {
        VictoryTest::AllOf(list) => join(list, " and "),
        VictoryTest::AnyOf(list) => join(list, " or "),
        VictoryTest::Points(n) => format!("{n} victory points"),
        VictoryTest::Exited {
            units: u,
            count,
            through,
        } => {
            let through = match through {
                None => String::new(),
                Some(ExitThrough::Edge(e)) => format!(" off the {e} edge"),
                Some(ExitThrough::Hexes(a)) => format!(" through {}", area_text(a)),
            };
            format!("{count} {} exited{through}", units(u))
        }
        VictoryTest::Eliminated { units: u, count } => {
            format!("{count} enemy {} eliminated", units(u))
        }
        VictoryTest::Controls(labels) => format!("control of {}", labels.join(", ")),
        VictoryTest::EnemyDemoralised => "the enemy demoralised".to_string(),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

#[cfg(test)]
mod tests {
    use muster_model::scenario::{ExitThrough, VictoryTest as T};

    #[test]
    fn a_composed_test_reads_as_one_sentence() {
        let test = T::AllOf(vec![
            T::Points(40),
            T::Exited {
                units: vec!["*".into()],
                count: 7,
                through: Some(ExitThrough::Edge(muster_model::Edge::East)),
            },
            T::AnyOf(vec![
                T::Controls(vec!["Ligny".into()]),
                T::Eliminated {
                    units: vec!["cavalry".into(), "Hv".into()],
                    count: 3,
                },
            ]),
        ]);
        assert_eq!(
            super::test_text(&test),
            "40 victory points and 7 units exited off the east edge and (control of Ligny or 3 enemy cavalry or Hv units eliminated)"
        );
        assert_eq!(
            super::test_text(&T::AllOf(vec![T::EnemyDemoralised])),
            "the enemy demoralised"
        );
    }
}
