//! `muster`: the command-line tool. Thin glue over `muster-check` (validation,
//! summaries, docs) and `muster-map` (compilation): it parses arguments, finds the
//! project, renders diagnostics and chooses the exit code (0 clean, 1 errors, 2 could
//! not run).

mod cli;
mod commands;
mod emit;
mod io;
mod list;
mod new;
mod outside;
mod picture;
mod project;
mod query;
mod render;
mod serve;
mod summary;
mod tiled;
mod vassal;
mod watch;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match commands::run(args) {
        Ok(code) => match io::failure() {
            Some(message) => {
                io::errln!("muster: {}", muster_db::text::escape(&message));
                ExitCode::from(2)
            }
            None => code,
        },
        Err(message) => {
            io::errln!("muster: {}", muster_db::text::escape(&message));
            ExitCode::from(2)
        }
    }
}
