//! Arguments. Each flag carries its own documentation; `--help` is generated from it.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Scenario and data toolchain for historical battle games: validates rules systems,
/// counter sheets, maps and scenarios, and compiles maps into terrain tables.
#[derive(Debug, Parser)]
#[command(name = "muster", version, max_term_width = 100)]
pub struct Cli {
    /// Project root (the folder holding `scenarios/` and `maps/`). Default: the nearest
    /// folder upwards from the current one that has `muster.toml`, `scenarios/` or `maps/`.
    #[arg(long, global = true)]
    pub root: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check files and report every problem with its place in the file.
    Validate {
        /// Files or folders to check. Default: the project's `scenarios/` and `maps/`.
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Fail (exit 1) on warnings too.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Validate everything, then re-validate on every save until Ctrl-C.
    Watch {
        /// Files or folders to watch. Default: the project (`[paths] check` or
        /// `scenarios/` and `maps/`).
        paths: Vec<PathBuf>,
        /// Do not clear the screen before each round.
        #[arg(long)]
        no_clear: bool,
        /// Also recompile the terrain table of every changed map into this folder.
        #[arg(long, value_name = "OUT_DIR")]
        compile: Option<PathBuf>,
        /// Debounce window in milliseconds.
        #[arg(long, default_value_t = 200)]
        debounce_ms: u64,
    },
    /// Compile a map (or a scenario's map) into a terrain table for engines.
    Compile {
        /// A `*.map.ron` file, or a scenario whose map to compile.
        input: PathBuf,
        /// Where to write the JSON terrain table (written atomically). Default:
        /// `<[compile] out>/<map id>.json` from `muster.toml`.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// The balance sheet of a scenario: forces per side, strength, morale figures.
    Summary {
        scenario: PathBuf,
        #[arg(long, value_enum, default_value_t = SummaryFormat::Human)]
        format: SummaryFormat,
        /// Also list every value marked as assumed (not printed in the rulebook).
        #[arg(long)]
        assumed: bool,
    },
    /// Print the documentation of a check code (`geometry::off-map`, or `off-map` when
    /// that short name is unique) or of a special-rule hook (`evasion`: its example and
    /// parameters).
    Explain {
        /// A check code (`references::unknown-counter`), its short name when unique
        /// (`unknown-counter`), a hook id (`evasion`), or `hooks` for the list of hooks.
        code: String,
    },
    /// List every check with its code, severity and summary.
    Checks,
    /// Print the JSON Schema of a file kind, or write all schemas into a folder.
    Schema {
        /// `system`, `counters`, `map`, `scenario`, `terrain-table` or `report`.
        kind: Option<String>,
        /// Write every schema into this folder instead of printing one.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Rendered diagnostics with source excerpts, then a summary line.
    Human,
    /// One JSON document (schema: `schema/report.schema.json`).
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and other review tools.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=..,line=..::message`).
    Github,
    /// `file:line:col: severity[code]: message`, one per line.
    Short,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SummaryFormat {
    Human,
    Json,
}
