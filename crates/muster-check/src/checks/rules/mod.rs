//! Rules: the typed rules of a system (`rules: (...)`) must name what the system
//! defines and must not contradict themselves. Each check holds its own findings and
//! asks `muster_semantic::rules` what the rules mean (which kinds a troop name covers,
//! which permission applies, every name the rules refer to).

pub mod band_gap;
pub mod bonus_without_leader;
pub mod compulsory_conflict;
pub mod compulsory_unmeetable;
pub mod defence_conflict;
pub mod effect_conflict;
pub mod effect_overlap;
pub mod elimination_conflict;
pub mod exit_cost;
pub mod follow_up_conflict;
pub mod immunity_conflict;
pub mod impossible_roll;
pub mod ladder_skipped;
pub mod movement_conflict;
pub mod never_holds;
pub mod outside_the_game;
pub mod panic_conflict;
pub mod permission_conflict;
pub mod phase_without_actor;
pub mod sight_conflict;
pub mod split_strength_conflict;
pub mod state_effect_conflict;
pub mod terrain_exception_conflict;
pub mod trigger_conflict;
pub mod uncited_rule;
pub mod unknown_name;
pub mod unknown_scenario_name;
pub mod unusable_mode;
pub mod victory_order;
pub mod voluntary_binds;

use muster_model::rules::Allowance;
use muster_model::system::RulesSystem;

use muster_db::load::Document;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;

/// The system of a system file.
fn system<'a>(cx: &FileCx<'a>) -> Option<&'a RulesSystem> {
    match cx.doc {
        Document::System(s) => Some(s),
        _ => None,
    }
}

/// Pushes every report.
fn report(reports: Vec<Report>, sink: &mut Sink) {
    for r in reports {
        sink.push(r);
    }
}

/// An allowance in a message: `must`, `may`, `may never`.
fn allowance_words(a: Allowance) -> &'static str {
    match a {
        Allowance::Must => "must",
        Allowance::May => "may",
        Allowance::Never => "may never",
    }
}
