use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_db::suggest::did_you_mean;
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that the `status` a unit line starts at is a level of the system's status
    /// ladder (`rules: (status: (levels: [...]))`), in setup groups, neutrals and
    /// reinforcements alike; a system without a ladder has no status to start at.
    ///
    /// ## Why is this bad?
    /// A unit starting at a level the rules do not have cannot be set up: nobody knows
    /// which side of the counter is up or what strength it fights with, and the summary
    /// cannot count it.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "saxe", count: 2, status: "reduce")], at: Hexes(["0903", "1004"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2, status: "reduced")], at: Hexes(["0903", "1004"])),
    /// ```
    pub META = ("setup::unknown-status", Error, "a unit line starting at a status the system's ladder does not have");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    // Without the system its ladder is unknown; `references::unknown-file` says why.
    let Some(system) = cx.system else {
        return;
    };
    let ladder = system.rules.status.as_ref();
    for (place, line, _) in cx.unit_lines() {
        let Some(status) = line.status.as_deref() else {
            continue;
        };
        let at = place.field("status");
        match ladder {
            None => sink.push(
                Report::new(
                    &META,
                    at,
                    format!(
                        "`{}` starts at status `{status}`, but system `{}` has no status ladder",
                        line.counter, system.id
                    ),
                )
                .help("remove `status`, or give the system `rules: (status: (levels: [...]))`"),
            ),
            Some(l) if l.index_of(status).is_none() => {
                let ids: Vec<&str> = l.levels.iter().map(|x| x.id.as_str()).collect();
                let help = did_you_mean(status, ids.iter().copied())
                    .unwrap_or_else(|| format!("the levels are {}", ids.join(", ")));
                sink.push(
                    Report::new(
                        &META,
                        at,
                        format!(
                            "`{}` starts at status `{status}`, which is no level of system `{}`",
                            line.counter, system.id
                        ),
                    )
                    .help(help),
                );
            }
            Some(_) => {}
        }
    }
}
