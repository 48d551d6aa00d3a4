use muster_db::declare_check;
use muster_db::registry::CheckMeta;
use muster_db::report::{Report, Sink};
use muster_db::suggest::did_you_mean;
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;
use muster_semantic::rules::names::{NameKind, NameRef, defined, resolves};
use muster_semantic::rules::{classes, name_refs};

declare_check! {
    /// ## What it does
    /// Checks that the system's typed rules name only what the system defines: troop
    /// types (a unit kind id, a class, or `"*"`), status levels of its ladder, its
    /// result tables, its terrain and feature kinds, codes of its combat results
    /// table, and in the vocabulary's conditions and effects its hexside features,
    /// weather kinds, factions, movement modes, facing side classes, kept states,
    /// plotted tasks and unit kinds; an optional rule's `switches_off` names rules of
    /// `effects`; `hooks` must name muster's built-in hooks.
    ///
    /// ## Why is this bad?
    /// A permission or morale trigger naming a troop type that does not exist applies to
    /// nobody, and a result sending units to an unknown status leaves an engine with no
    /// level to put them at: the rule is silently lost.
    ///
    /// ## Example
    /// ```ron
    /// (action: CounterCharge, troops: ["mounted-knigths"], allowed: Must),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (action: CounterCharge, troops: ["mounted-knights"], allowed: Must),
    /// ```
    pub META = ("rules::unknown-name", Error, "a rule names a troop type, status level, table or terrain the system does not define");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(unknown_names(system), sink);
    }
}

/// Troop types, status levels, result tables, terrain, result codes, elevations and
/// phases that the rules block names but the system does not define.
pub fn unknown_names(system: &RulesSystem) -> Vec<Report> {
    name_refs(system)
        .into_iter()
        .filter(|name| !resolves(system, name))
        .map(|name| unknown(&META, system, &name))
        .collect()
}

/// The report for a name that does not resolve, under `meta` (this check's, or the
/// scenario check's for the names a scenario's rules use).
pub fn unknown(meta: &'static CheckMeta, system: &RulesSystem, name: &NameRef) -> Report {
    let known = defined(system, name.kind);
    let n = name.name;
    let (message, fallback) = match name.kind {
        NameKind::Troop => (format!("unknown troop type `{n}`"), troop_types(system)),
        NameKind::Level if system.rules.status.is_none() => {
            return Report::new(
                meta,
                name.at.clone(),
                format!("status level `{n}` named, but the system has no status ladder"),
            )
            .help("give the levels in `rules: (status: (levels: [...]))`");
        }
        NameKind::Counter => {
            return Report::new(
                meta,
                name.at.clone(),
                format!("a rule of system `{}` names counter `{n}`, but counters belong to a counter sheet", system.id),
            )
            .help("name the counter's unit kind or a tag of it (`tags`), or state the rule in the scenario that uses the sheet");
        }
        NameKind::Level => (
            format!("unknown status level `{n}`"),
            format!("status levels: {}", known.join(", ")),
        ),
        NameKind::Table => (
            format!("unknown result table `{n}`"),
            listed(&known, "the system has no `result_tables`", "result tables"),
        ),
        NameKind::Terrain => (
            format!("unknown terrain `{n}`"),
            format!("terrain of system `{}`: {}", system.id, known.join(", ")),
        ),
        NameKind::Code => {
            return Report::new(
                meta,
                name.at.clone(),
                format!("result `{n}` is not made of the combat results table's codes"),
            )
            .help(listed(
                &known,
                "the system has no `combat_results` table",
                "result codes",
            ));
        }
        NameKind::Elevation => (
            format!("unknown elevation `{n}`"),
            listed(
                &known,
                "give the elevations in `line_of_sight: (elevations: [...])`",
                "elevations",
            ),
        ),
        NameKind::Phase => (
            format!("unknown phase `{n}`"),
            listed(&known, "the system has no `sequence` of play", "phases"),
        ),
        NameKind::Feature => (
            format!("unknown hexside feature `{n}`"),
            listed(
                &known,
                "the system has no `hexside_features`",
                "hexside features",
            ),
        ),
        NameKind::Ground => (
            format!("`{n}` is neither a terrain nor a hexside feature"),
            listed(
                &known,
                "the system has no terrain",
                "terrain and hexside features",
            ),
        ),
        NameKind::Weather => (
            format!("unknown weather `{n}`"),
            listed(
                &known,
                "give the kinds in `rules: (weather: [(id: ..., name: ...)])`",
                "weather kinds",
            ),
        ),
        NameKind::Faction => (
            format!("unknown faction `{n}`"),
            listed(
                &known,
                "give them in `rules: (factions: [(id: ..., name: ...)])`",
                "factions",
            ),
        ),
        NameKind::Mode => (
            format!("unknown movement mode `{n}`"),
            listed(
                &known,
                "give them in `rules: (movement_modes: [...])`",
                "movement modes",
            ),
        ),
        NameKind::Optional => (
            format!("unknown optional rule `{n}`"),
            listed(
                &known,
                "the system has no `optional_rules`",
                "optional rules",
            ),
        ),
        NameKind::Kind => (
            format!("unknown unit kind `{n}`"),
            format!("unit kinds of system `{}`: {}", system.id, known.join(", ")),
        ),
        NameKind::SideClass => (
            format!("unknown facing side class `{n}`"),
            listed(
                &known,
                "the system has no `facing`: give it in `rules: (facing: (classes: [...]))`",
                "side classes",
            ),
        ),
        NameKind::State => (
            format!("unknown kept state `{n}`"),
            listed(
                &known,
                "give the states in `rules: (states: [(id: ..., ...)])`",
                "kept states",
            ),
        ),
        NameKind::Task => (
            format!("unknown plotted task `{n}`"),
            listed(
                &known,
                "no optional rule gives plotted `orders` with tasks",
                "plotted tasks",
            ),
        ),
        NameKind::Rule => (
            format!("unknown rule `{n}`"),
            listed(&known, "the system has no `effects`", "rules of `effects`"),
        ),
        NameKind::Hook => (
            format!("muster has no built-in hook `{n}`"),
            format!(
                "built-in hooks: {}; a rule of this game's own is stated as data in `rules: (special_rules: [...])`",
                known.join(", ")
            ),
        ),
    };
    let help = did_you_mean(n, known.iter().copied()).unwrap_or(fallback);
    Report::new(meta, name.at.clone(), message).help(help)
}

/// `none` when the list is empty, else `what: a, b, c`.
fn listed(known: &[&str], none: &str, what: &str) -> String {
    if known.is_empty() {
        none.to_string()
    } else {
        format!("{what}: {}", known.join(", "))
    }
}

/// The troop types of a system, for a help line.
fn troop_types(system: &RulesSystem) -> String {
    let kinds: Vec<&str> = system.unit_kinds.iter().map(|k| k.id.as_str()).collect();
    let class_list = classes(system);
    let mut known = kinds.join(", ");
    if !class_list.is_empty() {
        known += &format!("; classes {}", class_list.join(", "));
    }
    let tag_list = muster_semantic::rules::tags(system);
    if !tag_list.is_empty() {
        known += &format!("; tags {}", tag_list.join(", "));
    }
    format!(
        "troop types of system `{}`: {known}; `*` for all",
        system.id
    )
}
