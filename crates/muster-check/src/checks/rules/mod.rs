//! Rules: the typed rules of a system (`rules: (...)`) must name what the system
//! defines and must not contradict themselves. The reasoning is in
//! `semantic::rules`; these checks report its findings.

pub mod band_gap;
pub mod defence_conflict;
pub mod elimination_conflict;
pub mod exit_cost;
pub mod follow_up_conflict;
pub mod immunity_conflict;
pub mod impossible_roll;
pub mod ladder_skipped;
pub mod movement_conflict;
pub mod panic_conflict;
pub mod permission_conflict;
pub mod phase_without_actor;
pub mod sight_conflict;
pub mod state_effect_conflict;
pub mod terrain_exception_conflict;
pub mod trigger_conflict;
pub mod unknown_name;
pub mod victory_order;

use muster_model::system::RulesSystem;

use muster_db::load::Document;
use muster_db::registry::CheckMeta;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;
use muster_semantic::rules::Finding;

/// The system of a system file.
fn system<'a>(cx: &FileCx<'a>) -> Option<&'a RulesSystem> {
    match cx.doc {
        Document::System(s) => Some(s),
        _ => None,
    }
}

/// Reports every finding under `meta`.
fn report(meta: &'static CheckMeta, findings: Vec<Finding>, sink: &mut Sink) {
    for f in findings {
        let mut r = Report::new(meta, f.place, f.message).help_opt(f.help);
        if let Some((at, text)) = f.label {
            r = r.label(at, text);
        }
        sink.push(r);
    }
}
