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
        /// Also serve a live preview: an index of the project's maps and scenarios and a
        /// page per file with the board, the order of battle and the diagnostics, updated
        /// on every save without reload. Bound to 127.0.0.1:7878 by default; port 0 lets
        /// the system pick one (the address is printed).
        #[arg(
            long,
            value_name = "ADDR",
            num_args = 0..=1,
            default_missing_value = "127.0.0.1:7878"
        )]
        serve: Option<String>,
    },
    /// Compile a map (or a scenario's map) into a terrain table for engines.
    Compile {
        /// A `*.map.ron` file, or a scenario whose map to compile.
        input: PathBuf,
        /// Where to write the JSON terrain table (written atomically). Default:
        /// `<[compile] out>/<map id>.json` from `muster.toml`.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Also write a scenario's set-up as an engine position (JSON,
        /// `schema/position.schema.json`).
        #[arg(long, value_name = "FILE")]
        position: Option<PathBuf>,
        /// Also write the scenario's rules system as JSON (`schema/system.schema.json`),
        /// the rules an engine plays the position by.
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
    },
    /// Draw a map or a scenario: terrain, hexsides, labels; every counter on its hex;
    /// reinforcement entries, deployment zones, objectives; and the current diagnostics
    /// outlined where they sit. A file with errors still draws whatever can be placed.
    Render {
        /// A `*.map.ron` or `*.scenario.ron` file (or its `.json` twin).
        input: PathBuf,
        /// Where to write, by extension: `.svg`, `.png` or `.html` (a self-contained page
        /// with the order of battle and the diagnostics); `-` writes the SVG to standard
        /// output. Written atomically. Default: `<[compile] out>/<id>.svg`, else
        /// `target/muster/<id>.svg`.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Draw the board as it stands at the start of this turn: the reinforcements that
        /// have arrived by then wait at their entry hexes.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..))]
        turn: u8,
        /// Leave counters and units out (terrain, zones, entries and objectives only).
        #[arg(long)]
        no_units: bool,
        /// Shade where this unit (a counter id, `#2` for a second copy) can move this
        /// turn, with the MP left in each hex, as `muster query reach` answers.
        #[arg(long, value_name = "COUNTER")]
        reach: Option<String>,
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
    /// Run the language server on standard input and output, for editors.
    Lsp,
    /// What the project holds: systems, armies, counters, maps, hooks, terrain, a map's
    /// edges. Works from any folder inside the project.
    List {
        #[command(subcommand)]
        what: ListWhat,
        /// Output format: aligned columns, or one JSON object (`{"counters": [...]}`).
        #[arg(long, value_enum, default_value_t = ListFormat::Human, global = true)]
        format: ListFormat,
    },
    /// Write a new project, rules system, counter sheet, map or scenario from a template.
    New {
        #[command(subcommand)]
        what: NewWhat,
    },
    /// Write for another program: a VASSAL module of a rules system and its scenarios,
    /// or a Tiled map of a map or a scenario.
    Export {
        #[command(subcommand)]
        what: ExportWhat,
    },
    /// Read a map made in another program into a muster map source (`muster import
    /// tiled`).
    Import {
        #[command(subcommand)]
        what: ImportWhat,
    },
    /// Ask the rules engine about a scenario's set-up or a position file: where a unit
    /// can move, the odds of an attack, a line of sight, supply.
    Query {
        #[command(subcommand)]
        what: QueryWhat,
        /// `human`, or `json` (the engine's typed answer).
        #[arg(long, value_enum, default_value_t = ListFormat::Human, global = true)]
        format: ListFormat,
        /// The turn of the scenario's board (its set-up is turn 1); not for position files.
        #[arg(long, default_value_t = 1, global = true, value_parser = clap::value_parser!(u8).range(1..))]
        turn: u8,
    },
    /// Print the JSON Schema of a file kind, or write all schemas into a folder.
    Schema {
        /// `system`, `counters`, `map`, `scenario`, `terrain-table` or `report`.
        kind: Option<String>,
        /// Write every schema into this folder instead of printing one.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum ExportWhat {
    /// A VASSAL module (`.vmod`) per rules system: a board per map with a hex grid that
    /// names every hex with muster's id, every counter as a piece, one predefined set-up
    /// per scenario (owner's choices in a "To place" window), and the combat results and
    /// terrain effects as charts. The same project gives the same bytes. Scenarios with
    /// errors are refused (their diagnostics are shown) unless `--allow-errors` is given.
    Vassal {
        /// A `*.system.ron` (all its scenarios in the project) or `*.scenario.ron`
        /// files. Default: every scenario of the project.
        inputs: Vec<PathBuf>,
        /// The module to write (atomically). Default with `--into`: that module. With
        /// scenarios of several systems, one module each: `NAME-<system>.vmod` beside it,
        /// or `DIR/<system>.vmod` when it is a folder.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Update this module: its own components and files stay; muster's set-ups,
        /// boards, pieces and charts are replaced.
        #[arg(long, value_name = "EXISTING.vmod")]
        into: Option<PathBuf>,
        /// Export even when the scenarios have errors.
        #[arg(long)]
        allow_errors: bool,
    },
    /// A hexagonal Tiled map (TMX) of a map, or of a scenario's map with its counters at
    /// the start in the object layer `setup`: one tile per terrain type (with its id and
    /// costs as properties), hexside features and labels in object layers. The tileset
    /// picture is written beside it as `NAME.terrain.png`. Both are written atomically.
    Tiled {
        /// A `*.map.ron` (hex map) or `*.scenario.ron` file.
        input: PathBuf,
        /// The TMX file to write (`MAP.tmx`).
        #[arg(short, long)]
        output: PathBuf,
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

#[derive(Debug, Subcommand)]
pub enum ListWhat {
    /// Rules systems, with their counter sheets, maps and scenarios.
    Systems,
    /// Armies of the counter sheets, with their counters and copies.
    Armies {
        /// Only the armies of this system.
        #[arg(long)]
        system: Option<String>,
    },
    /// Counters: id, name, kind, strength and copies on the sheet.
    Counters {
        /// Only the counters of this army (`muster list armies` lists them).
        #[arg(long)]
        army: Option<String>,
        /// Only the counters of this system.
        #[arg(long)]
        system: Option<String>,
    },
    /// Maps, with their system and size.
    Maps {
        /// Only the maps of this system.
        #[arg(long)]
        system: Option<String>,
    },
    /// Special-rule hooks (`muster explain HOOK` shows one).
    Hooks {
        /// Only the hooks a scenario of this system may use.
        #[arg(long)]
        system: Option<String>,
    },
    /// Terrain effects chart rows: movement cost and effects of each terrain, hexside
    /// feature and table feature.
    Terrain {
        /// Only the terrain of this system.
        #[arg(long)]
        system: Option<String>,
    },
    /// The rules stated in the vocabulary, in words: effects, special rules, zones of
    /// control, movement modes, supply, weather kinds and factions.
    Rules {
        /// Only the rules of this system.
        #[arg(long)]
        system: Option<String>,
    },
    /// A map's edge hexes per edge (enterable and impassable), its labels and the entry
    /// hexes its scenarios use.
    Edges {
        /// The map's id (`muster list maps`).
        map: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Human,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum NewWhat {
    /// A scenario skeleton in `scenarios/<system>/NAME.scenario.ron`: both sides, one
    /// setup line per counter of each army at placeholder hexes (`setup::placeholder`
    /// warns until each is replaced), and guessed turns, first players and victory
    /// condition (`template::placeholder` warns about those).
    Scenario {
        /// The scenario's id and file name (`my-battle`).
        name: String,
        /// The rules system (`muster list systems`).
        #[arg(long)]
        system: String,
        /// The map (`muster list maps`).
        #[arg(long)]
        map: String,
        /// The two armies, first side first (`muster list armies`). Default: the two
        /// armies whose ids start with the map's id.
        #[arg(long, value_delimiter = ',', num_args = 1..)]
        armies: Option<Vec<String>>,
        /// Overwrite the file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// A hex map skeleton in `maps/<system>/NAME.map.ron`, every hex the base terrain.
    Map {
        /// The map's id and file name.
        name: String,
        /// The rules system whose terrain the map uses.
        #[arg(long)]
        system: String,
        #[arg(long, default_value_t = 15)]
        columns: u16,
        #[arg(long, default_value_t = 12)]
        rows: u16,
        /// Overwrite the file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// A rules system skeleton in `scenarios/NAME/NAME.system.ron`: every section of a
    /// system, required ones with guessed values (`template::placeholder` warns until each
    /// is replaced), optional ones as examples behind `//~ `.
    System {
        /// The system's id and file name (`my-rules`).
        name: String,
        /// Overwrite the file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// A counter sheet skeleton in `scenarios/<system>/NAME.counters.ron`: two armies,
    /// each with one counter of every unit kind of the system at guessed values.
    Counters {
        /// The sheet's id and file name (`my-counters`).
        name: String,
        /// The rules system the counters belong to (`muster list systems`).
        #[arg(long)]
        system: String,
        /// Overwrite the file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// A new project in DIR: `muster.toml`, `scenarios/`, `maps/`, a README, a GitHub
    /// Actions workflow that uploads SARIF, and a pre-commit hook config.
    Project {
        dir: PathBuf,
        /// Overwrite files that exist.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ImportWhat {
    /// A hexagonal map painted in Tiled (TMX) as a muster map source with compact
    /// overlays (areas per terrain); tiles name their terrain in a `terrain` property.
    /// The new map is validated at once.
    Tiled {
        /// The `*.tmx` file.
        input: PathBuf,
        /// The rules system whose terrain and hexside features the map uses.
        #[arg(long)]
        system: String,
        /// The map source to write (`NAME.map.ron`); the map's id is `NAME`.
        #[arg(short, long)]
        output: PathBuf,
        /// Overwrite the output if it exists.
        #[arg(long)]
        force: bool,
    },
}

/// What `muster query` asks. INPUT is a scenario of the project or a position file
/// (JSON, `schema/position.schema.json`).
#[derive(Debug, Subcommand)]
pub enum QueryWhat {
    /// Every hex a unit may end its move in, with the MP left and a cheapest path.
    Reach {
        input: PathBuf,
        /// The unit: its counter id (`#2`, `#3` for further copies).
        unit: String,
        /// The unit is aboard a moored carrier in its hex and unloads first.
        #[arg(long)]
        unloading: bool,
    },
    /// The odds of an attack: strengths with their modifiers, the column, die modifiers.
    Combat {
        input: PathBuf,
        /// The attacking units.
        #[arg(required = true)]
        attackers: Vec<String>,
        /// The unit attacked.
        #[arg(long)]
        defender: String,
        /// A charge's path: the unit, then the hexes it moved through, its own last
        /// (`aquitaine-cavalry=0710,0709`).
        #[arg(long = "path", value_name = "UNIT=HEX,HEX")]
        paths: Vec<String>,
    },
    /// Whether one hex (or unit) sees another, and what blocks the line.
    Sight {
        input: PathBuf,
        from: String,
        to: String,
    },
    /// Whether a hex is in supply for a side, and the trace.
    Supply {
        input: PathBuf,
        hex: String,
        side: String,
    },
    /// Who holds each labelled hex of the map, and why (the system's `control` rule).
    Control { input: PathBuf },
    /// What a combat result does to a unit: the codes that befall it, those a rule
    /// cancels, their meaning, and a status or kind a rule gives.
    Result {
        input: PathBuf,
        /// The unit the result befalls.
        unit: String,
        /// The result, as a cell of the combat results table gives it (`D1R`).
        result: String,
        /// The unit takes the result as the attacker (by default, the defender).
        #[arg(long)]
        attacker: bool,
    },
    /// Whether a unit may do an act where it stands (`Moor`, `Unmoor`, `Load`, `Move`,
    /// `Fire`...), the rules that say so, and what a carrier's act costs.
    May {
        input: PathBuf,
        /// The unit: its counter id (`#2`, `#3` for further copies).
        unit: String,
        /// The act, as the rules vocabulary names it (`Unmoor`).
        act: String,
    },
    /// The kept states (PRESTAGS contact, a fleet's mooring) units enter or leave when
    /// they do an act together, with the result it brought.
    States {
        input: PathBuf,
        /// The act, as the rules vocabulary names it (`Melee`, `Moor`).
        act: String,
        /// The units doing it: a melee's attackers and defenders.
        #[arg(required = true)]
        units: Vec<String>,
        /// The results table's cell the act brought (`D`); none by default.
        #[arg(long, default_value = "")]
        result: String,
    },
}
