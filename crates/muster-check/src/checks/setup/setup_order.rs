use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that a scenario says how the sides set up: one side first
    /// (`deploys_first`), or both at once (`simultaneous_setup: true`), and not both.
    ///
    /// ## Why is this bad?
    /// Who sets up first decides who sees the other's deployment before placing their
    /// own. A scenario that says neither leaves the players to guess; one that says both
    /// contradicts itself, and an engine cannot know which to follow.
    ///
    /// ## Example
    /// ```ron
    ///     deploys_first: "red",
    ///     simultaneous_setup: true,
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///     deploys_first: "red",
    /// ```
    pub META = ("setup::setup-order", Error, "a scenario that does not say, or says twice, who sets up first");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let s = cx.scenario;
    match (&s.deploys_first, s.simultaneous_setup) {
        (Some(first), true) => sink.push(
            Report::new(
                &META,
                Place::top("simultaneous_setup"),
                format!(
                    "scenario `{}` has both sides set up at once, yet says `{first}` deploys first",
                    s.id
                ),
            )
            .label(Place::top("deploys_first"), "one side first here")
            .help("keep `deploys_first` for a set-up in turn, or `simultaneous_setup: true`, not both"),
        ),
        (None, false) => sink.push(
            Report::new(
                &META,
                Place::root().field("id"),
                format!("scenario `{}` does not say who sets up first", s.id),
            )
            .help("add `deploys_first: \"<side id>\"`, or `simultaneous_setup: true` when both sides set up at once"),
        ),
        (Some(_), false) | (None, true) => {}
    }
}
