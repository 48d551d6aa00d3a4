//! The project file, `muster.toml` at the project root:
//!
//! ```toml
//! [paths]
//! check = ["scenarios", "maps"]    # what `muster validate` and `muster watch` check by default
//!
//! [checks]
//! "morale::threshold-unreachable" = "off"   # or "warning" / "error"
//!
//! [compile]
//! out = "build/tables"             # where `muster compile` and `muster watch --compile` write
//!
//! [limits]
//! max-hexes = 9801                 # hexes of a map's grid (columns x rows), 1 to 9801
//! max-raster-cells = 100000        # cells of an open table's raster, 1 to 16777216
//!
//! [optional-rules]
//! prestags = ["elevation"]         # on in every scenario of the system, beside its own
//! ```
//!
//! `[limits]` bounds what one map may cost. Defaults: `max-hexes` 9801 (99 x 99, all
//! that `CCRR` hex numbers can name; a grid wider or deeper than 99 is refused whatever
//! the limit) and `max-raster-cells` 100,000 (a 72 x 48 inch table at a quarter inch is
//! 55,296). A map beyond them is reported by `maps::grid-too-large` at its size and is
//! not compiled. Without `[compile] out`, `muster compile` writes to
//! `target/muster/<id>.terrain.json` under the project root.
//!
//! Its own mistakes are diagnostics with spans, like any data file's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use muster_db::declare_check;
use muster_db::load::{Document, Loaded};
use muster_db::report::{Loc, Report, Sink};
use muster_db::source::SourceFile;
use muster_db::{Diagnostic, Severity};

pub use muster_db::limits::{CONFIG_FILE, Limits, MAX_RASTER_CELLS_CEILING, load_limits};
use muster_db::limits::{LimitsSection, read_config_text};

// The codes this module reports, declared where they are checked.

declare_check! {
    /// ## What it does
    /// Reports a `[checks]` entry that turns off, or makes a warning of, a check whose findings make a file unusable (`structure::*`, unknown references).
    ///
    /// ## Why is this bad?
    /// Those files cannot be checked further or loaded by an engine; hiding the error hides a broken file.
    ///
    /// ## Example
    /// ```toml
    /// [checks]
    /// "structure::syntax" = "off"
    /// ```
    ///
    /// Use instead:
    /// ```toml
    /// [checks]
    /// "morale::threshold-unreachable" = "off"
    /// ```
    pub CANNOT_RELAX = ("config::cannot-relax", Error, "muster.toml turns off an error that cannot be relaxed");
}

declare_check! {
    /// ## What it does
    /// Reports TOML syntax errors, unknown sections or keys, and values of the wrong kind in `muster.toml`. Its sections are `[paths]` (`check`), `[checks]` (code = "off" | "warning" | "error") and `[compile]` (`out`).
    ///
    /// ## Why is this bad?
    /// A setting muster cannot read is ignored, so the project would not be checked the way its authors intend.
    ///
    /// ## Example
    /// ```toml
    /// [chekcs]
    /// "morale::threshold-unreachable" = "warning"
    /// ```
    ///
    /// Use instead:
    /// ```toml
    /// [checks]
    /// "morale::threshold-unreachable" = "warning"
    /// ```
    pub INVALID = ("config::invalid", Error, "muster.toml is not a valid project file");
}

declare_check! {
    /// ## What it does
    /// Reports an entry of `[paths] check` that names no file or folder under the project root.
    ///
    /// ## Why is this bad?
    /// The files meant to be checked would not be, and CI would pass without looking at them.
    ///
    /// ## Example
    /// ```toml
    /// [paths]
    /// check = ["mpas"]
    /// ```
    ///
    /// Use instead:
    /// ```toml
    /// [paths]
    /// check = ["maps"]
    /// ```
    pub MISSING_PATH = ("config::missing-path", Error, "muster.toml lists a path that does not exist");
}

declare_check! {
    /// ## What it does
    /// Reports a key of `[checks]` that is not a registered check code, with the nearest code.
    ///
    /// ## Why is this bad?
    /// The setting would silently do nothing.
    ///
    /// ## Example
    /// ```toml
    /// [checks]
    /// "stacking::overstacked" = "warning"
    /// ```
    ///
    /// Use instead:
    /// ```toml
    /// [checks]
    /// "stacking::over-stacked" = "warning"
    /// ```
    pub UNKNOWN_CHECK = ("config::unknown-check", Error, "muster.toml names a check that does not exist");
}

declare_check! {
    /// ## What it does
    /// Checks each `[optional-rules]` entry of `muster.toml`: the key must be the id of
    /// a rules system of the project, and each name one of that system's
    /// `rules.optional_rules`.
    ///
    /// ## Why is this bad?
    /// A misspelt optional rule is silently not in play: every scenario of the system
    /// is checked and summarised without the rule the project meant to switch on.
    ///
    /// ## Example
    /// ```toml
    /// [optional-rules]
    /// test = ["elevaton"]
    /// ```
    ///
    /// Use instead:
    /// ```toml
    /// [optional-rules]
    /// test = ["elevation"]
    /// ```
    pub UNKNOWN_OPTIONAL = ("config::unknown-optional-rule", Error, "muster.toml switches on an optional rule the system does not have");
}

/// What a project sets a check to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Off,
    Warning,
    Error,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    paths: Option<PathsSection>,
    #[serde(default)]
    checks: BTreeMap<Spanned<String>, Spanned<Level>>,
    #[serde(default)]
    compile: Option<CompileSection>,
    #[serde(default)]
    limits: Option<LimitsSection>,
    #[serde(default, rename = "optional-rules")]
    optional_rules: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PathsSection {
    check: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CompileSection {
    out: String,
}

/// The project's settings, with the diagnostics of `muster.toml` itself.
#[derive(Debug, Default)]
pub struct Config {
    pub file: Option<PathBuf>,
    /// Files and folders checked by default (absolute). Empty: `scenarios/` and `maps/`.
    pub check_paths: Vec<PathBuf>,
    pub compile_out: Option<PathBuf>,
    pub levels: BTreeMap<String, Level>,
    /// `[limits]`: what one map may cost.
    pub limits: Limits,
    /// `[optional-rules]`: each system id with its span, and the rule names with theirs.
    pub optional_rules: Vec<OptionalEntry>,
    /// The project file, for diagnostics found after loading (unknown optional rules).
    pub source: Option<std::sync::Arc<SourceFile>>,
    pub diagnostics: Vec<Diagnostic>,
}

/// One system's line of `[optional-rules]`, with spans into `muster.toml`.
#[derive(Debug, Clone)]
pub struct OptionalEntry {
    pub system: (String, std::ops::Range<usize>),
    pub rules: Vec<(String, std::ops::Range<usize>)>,
}

impl Config {
    /// The `[optional-rules]` entries that name no system of the project, or no
    /// optional rule of it (`config::unknown-optional-rule`).
    pub fn optional_rule_diagnostics(&self, db: &muster_db::Db) -> Vec<Diagnostic> {
        let Some(file) = &self.source else {
            return Vec::new();
        };
        let mut sink = Sink::new(file);
        let systems: Vec<&muster_model::system::RulesSystem> = db
            .files
            .iter()
            .filter_map(|l| match &l.doc {
                Some(Document::System(s)) => Some(s),
                _ => None,
            })
            .collect();
        for entry in &self.optional_rules {
            let (id, span) = &entry.system;
            let Some(system) = systems.iter().find(|s| &s.id == id) else {
                sink.push(
                    Report::new(
                        &UNKNOWN_OPTIONAL,
                        Loc::Span(span.clone()),
                        format!("no rules system `{id}` in the project"),
                    )
                    .help_opt(muster_db::suggest::did_you_mean(
                        id,
                        systems.iter().map(|s| s.id.as_str()),
                    )),
                );
                continue;
            };
            let known = || system.rules.optional_rules.iter().map(|o| o.id.as_str());
            for (name, span) in &entry.rules {
                if !known().any(|k| k == name) {
                    let help = muster_db::suggest::did_you_mean(name, known()).or_else(|| {
                        Some(format!(
                            "`muster list rules --system {id}` lists its optional rules"
                        ))
                    });
                    sink.push(
                        Report::new(
                            &UNKNOWN_OPTIONAL,
                            Loc::Span(span.clone()),
                            format!("system `{id}` has no optional rule `{name}`"),
                        )
                        .help_opt(help),
                    );
                }
            }
        }
        let mut out = sink.finish();
        out.sort_by_key(Diagnostic::sort_key);
        self.apply(&mut out);
        out
    }

    /// Whether the project turns check `code` off. Such a check is not run at all (a
    /// code that cannot be relaxed is never off).
    pub fn is_off(&self, code: &str) -> bool {
        crate::suppress::suppressible(code) && self.levels.get(code) == Some(&Level::Off)
    }

    /// Applies the configured levels: `off` drops a finding, `warning` and `error` change
    /// its severity. Findings that cannot be relaxed keep their severity.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        if self.levels.is_empty() {
            return;
        }
        diagnostics.retain_mut(|d| {
            if !crate::suppress::suppressible(d.code) {
                return true;
            }
            match self.levels.get(d.code) {
                Some(Level::Off) => false,
                Some(Level::Warning) => {
                    d.severity = Severity::Warning;
                    true
                }
                Some(Level::Error) => {
                    d.severity = Severity::Error;
                    true
                }
                None => true,
            }
        });
    }
}

/// Reads `root/muster.toml` if there is one.
pub fn load(root: &Path, display: &dyn Fn(&Path) -> String) -> Config {
    let path = root.join(CONFIG_FILE);
    match read_config_text(&path) {
        Some(text) => parse(SourceFile::new(&path, display(&path), text), root),
        None => Config::default(),
    }
}

/// Parses the text of a project file.
pub fn parse(file: SourceFile, root: &Path) -> Config {
    let loaded = Loaded::plain(file);
    let mut sink = Sink::new(&loaded.file);
    let mut config = Config {
        file: Some(loaded.file.path.clone()),
        ..Config::default()
    };
    match toml::from_str::<ConfigFile>(&loaded.file.text) {
        Err(err) => {
            let span = err.span().unwrap_or(0..0);
            let span = if span.is_empty() {
                span.start..(span.start + 1).min(loaded.file.text.len())
            } else {
                span
            };
            sink.push(
                Report::new(
                    &INVALID,
                    Loc::Span(span),
                    err.message().trim_end_matches('.').to_string(),
                )
                .help("see `muster explain config::invalid` for the file's sections"),
            );
        }
        Ok(parsed) => {
            for (code, level) in parsed.checks {
                let key = code.span();
                let code = code.into_inner();
                if crate::registry::find(&code).is_none() {
                    let codes = crate::registry::REGISTRY.iter().map(|c| c.meta.code);
                    sink.push(
                        Report::new(&UNKNOWN_CHECK, Loc::Span(key), format!("no check `{code}`"))
                            .help_opt(
                                muster_db::suggest::did_you_mean(&code, codes).or_else(|| {
                                    Some("`muster checks` lists every code".to_string())
                                }),
                            ),
                    );
                    continue;
                }
                let value = level.span();
                let level = level.into_inner();
                if !crate::suppress::suppressible(&code) && level != Level::Error {
                    sink.push(
                        Report::new(
                            &CANNOT_RELAX,
                            Loc::Span(value),
                            format!("`{code}` cannot be turned off or made a warning"),
                        )
                        .note("errors that make a file unusable are always errors"),
                    );
                    continue;
                }
                config.levels.insert(code, level);
            }
            for entry in parsed.paths.map(|p| p.check).unwrap_or_default() {
                let span = entry.span();
                let path = root.join(entry.get_ref());
                let root_dir = muster_db::project::normalize(root);
                if !muster_db::project::normalize(&path).starts_with(&root_dir) {
                    sink.push(
                        Report::new(
                            &MISSING_PATH,
                            Loc::Span(span),
                            format!("`{}` is outside the project", entry.get_ref()),
                        )
                        .help("list files and folders inside the folder holding `muster.toml`"),
                    );
                } else if !path.exists() {
                    sink.push(
                        Report::new(
                            &MISSING_PATH,
                            Loc::Span(span),
                            format!("`{}` does not exist in the project", entry.get_ref()),
                        )
                        .help("paths are relative to the folder holding `muster.toml`"),
                    );
                } else {
                    config.check_paths.push(path);
                }
            }
            config.compile_out = parsed.compile.map(|c| root.join(c.out));
            config.optional_rules = parsed
                .optional_rules
                .into_iter()
                .map(|(system, rules)| OptionalEntry {
                    system: (system.get_ref().clone(), system.span()),
                    rules: rules
                        .into_iter()
                        .map(|r| (r.get_ref().clone(), r.span()))
                        .collect(),
                })
                .collect();
            if let Some(section) = parsed.limits {
                let (limits, wrong) = section.read();
                config.limits = limits;
                for (span, message, help) in wrong {
                    sink.push(Report::new(&INVALID, Loc::Span(span), message).help(help));
                }
            }
        }
    }
    config.diagnostics = sink.finish();
    config.source = Some(std::sync::Arc::clone(&loaded.file));
    config
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Config {
        parse(
            SourceFile::new("muster.toml", "muster.toml", text.to_string()),
            Path::new("."),
        )
    }

    #[test]
    fn reads_levels_and_paths() {
        let c = parse_text(
            "[checks]\n\"morale::threshold-unreachable\" = \"off\"\n[compile]\nout = \"build\"\n",
        );
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert_eq!(
            c.levels.get("morale::threshold-unreachable"),
            Some(&Level::Off)
        );
        assert_eq!(c.compile_out, Some(PathBuf::from("./build")));
    }

    #[test]
    fn its_own_mistakes_have_spans() {
        let c = parse_text("[checks]\n\"stacking::overstacked\" = \"off\"\n");
        assert_eq!(c.diagnostics[0].code, "config::unknown-check");
        assert_eq!(
            &c.diagnostics[0].file.text[c.diagnostics[0].span.clone()],
            "\"stacking::overstacked\""
        );
        let c = parse_text("[chekcs]\n");
        assert_eq!(c.diagnostics[0].code, "config::invalid");
        let c = parse_text("[checks]\n\"structure::syntax\" = \"off\"\n");
        assert_eq!(c.diagnostics[0].code, "config::cannot-relax");
    }

    #[test]
    fn limits_have_defaults_and_ranges() {
        let c = parse_text("");
        assert_eq!(c.limits, Limits::DEFAULT);
        let c = parse_text("[limits]\nmax-hexes = 400\nmax-raster-cells = 5000\n");
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert_eq!(c.limits.max_hexes, 400);
        assert_eq!(c.limits.max_raster_cells, 5000);
        let c = parse_text("[limits]\nmax-hexes = 0\nmax-raster-cells = -3\n");
        let wrong: Vec<&str> = c
            .diagnostics
            .iter()
            .map(|d| &d.file.text[d.span.clone()])
            .collect();
        assert_eq!(wrong, ["0", "-3"]);
        assert!(c.diagnostics[0].message.contains("outside 1 to 9801"));
        assert_eq!(c.limits, Limits::DEFAULT);
    }

    #[test]
    fn check_paths_stay_inside_the_project() {
        let c = parse_text("[paths]\ncheck = [\"src\", \"..\", \"/\"]\n");
        let codes: Vec<_> = c.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["config::missing-path", "config::missing-path"]);
        assert_eq!(c.check_paths, [PathBuf::from("./src")]);
    }
}
