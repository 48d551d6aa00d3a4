//! Every assumption in the bundled data is countable: marked in an `assumed` map or an
//! `// assumed: reason` comment, the two forms `muster summary --assumed` lists. A
//! comment that speaks of an assumption in any other way ("(assumed)" at the end of a
//! sentence) is an assumption nobody counts.

use std::path::Path;

use muster_testkit::repo;

use muster_db::Db;
use muster_db::project::{data_files_under, project_files};
use muster_db::source::SourceFile;
use muster_ide::provenance::stray_assumptions;
use muster_ide::summary::{AssumedValue, summarize};
use muster_semantic::{FileCx, ScenarioCx};

#[test]
fn no_comment_speaks_of_an_assumption_outside_the_marked_forms() {
    let mut files = Vec::new();
    for dir in ["scenarios", "maps"] {
        files.extend(data_files_under(&repo().join(dir)));
    }
    assert!(files.len() > 30, "the bundled data was not found");
    let mut stray = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path
            .strip_prefix(repo())
            .unwrap_or(&path)
            .display()
            .to_string();
        let file = SourceFile::new(&path, name.clone(), text);
        for m in stray_assumptions(&file) {
            stray.push(format!("{name}:{}: {}", m.line, m.text));
        }
    }
    assert!(
        stray.is_empty(),
        "comments that speak of an assumption without marking it (write `// assumed: reason`, \
         or put it in the record's `assumed` map):\n{}",
        stray.join("\n")
    );
}

/// The summary's assumed values of a bundled scenario.
fn assumed_of(rel: &str) -> Vec<AssumedValue> {
    let display = |p: &Path| {
        p.strip_prefix(repo())
            .map(|r| r.display().to_string())
            .unwrap_or_else(|_| p.display().to_string())
    };
    let db = Db::load(&repo(), &project_files(&repo()), &display);
    let index = db
        .index_of(&repo().join(rel))
        .unwrap_or_else(|| panic!("{rel} is not loaded"));
    let cx = ScenarioCx::new(FileCx::new(&db, index).expect("parsed")).expect("a scenario");
    summarize(&cx).assumed
}

fn listed(values: &[AssumedValue], item: &str, field: &str, words: &[&str]) -> bool {
    values.iter().any(|a| {
        a.item.contains(item) && a.field == field && words.iter().all(|w| a.reason.contains(w))
    })
}

/// The four assumptions of the "rules as data" issue are each listed by
/// `muster summary --assumed`.
#[test]
fn the_summary_lists_the_assumptions_that_were_only_in_prose() {
    let raid = assumed_of("scenarios/raid/raid-example.scenario.ron");
    let show = || {
        raid.iter()
            .map(|a| format!("{} `{}`: {}", a.item, a.field, a.reason))
            .collect::<Vec<_>>()
            .join("\n")
    };
    // The bands' entry edges: which roll gives which edge is not printed.
    assert!(
        listed(
            &raid,
            "raid-example.scenario.ron",
            "comment",
            &["edge", "roll"]
        ),
        "{}",
        show()
    );
    // The wall: "obstacles halve movement" applies to the move that crosses it.
    assert!(
        listed(&raid, "table feature `wall`", "crossing_factor", &["half"]),
        "{}",
        show()
    );
    // The 40% and 50% thresholds: figures, not VP; cattle excluded; rounded up.
    assert!(
        listed(
            &raid,
            "raid-example.scenario.ron",
            "comment",
            &["50%", "figures", "cattle", "rounded up"]
        ),
        "{}",
        show()
    );
    assert!(
        listed(
            &raid,
            "raid-example.scenario.ron",
            "comment",
            &["40%", "figures", "rounded up"]
        ),
        "{}",
        show()
    );
    // Chanson de Geste: 4 inches per inch in very rough ground for Mounted Knights only.
    let cdg = assumed_of("scenarios/cdg/courtrai.scenario.ron");
    assert!(
        listed(
            &cdg,
            "table feature `very-rough`",
            "troop_factors",
            &["Mounted Knights"]
        ),
        "{}",
        cdg.iter()
            .map(|a| format!("{} `{}`: {}", a.item, a.field, a.reason))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
