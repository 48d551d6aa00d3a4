//! The one home of every output format of diagnostics. Each format is an [`Emitter`]:
//! given the number of files checked and the sorted diagnostics, it returns the text to
//! print. The CLI is the only place that renders; the library hands over data
//! (`Diagnostic`, and the JSON and SARIF shapes of `muster_ide::output`).

use muster_db::Diagnostic;
use muster_ide::output::{JsonReport, sarif};

use crate::cli::Format;
use crate::render;

/// A format of `muster validate`'s report.
pub trait Emitter {
    fn emit(&self, files: usize, diagnostics: &[Diagnostic]) -> Result<String, String>;
}

/// Rendered diagnostics with source excerpts, then the summary line.
pub struct Human {
    pub colour: bool,
}

/// `file:line:col: severity[code]: message`, one per line.
pub struct Short;

/// GitHub Actions workflow commands.
pub struct Github;

/// One JSON document (`schema/report.schema.json`).
pub struct Json;

/// SARIF 2.1.0.
pub struct Sarif;

impl Emitter for Human {
    fn emit(&self, files: usize, diagnostics: &[Diagnostic]) -> Result<String, String> {
        let handler = render::handler(self.colour);
        let mut out = render::human(&handler, diagnostics);
        out.push_str(&render::summary_line(files, diagnostics));
        out.push('\n');
        Ok(out)
    }
}

impl Emitter for Short {
    fn emit(&self, _files: usize, diagnostics: &[Diagnostic]) -> Result<String, String> {
        Ok(lines(diagnostics, render::short))
    }
}

impl Emitter for Github {
    fn emit(&self, _files: usize, diagnostics: &[Diagnostic]) -> Result<String, String> {
        Ok(lines(diagnostics, render::github))
    }
}

impl Emitter for Json {
    fn emit(&self, files: usize, diagnostics: &[Diagnostic]) -> Result<String, String> {
        let report = JsonReport::new(files, diagnostics);
        serde_json::to_string_pretty(&report)
            .map(|text| text + "\n")
            .map_err(|e| e.to_string())
    }
}

impl Emitter for Sarif {
    fn emit(&self, _files: usize, diagnostics: &[Diagnostic]) -> Result<String, String> {
        serde_json::to_string_pretty(&sarif::log(diagnostics))
            .map(|text| text + "\n")
            .map_err(|e| e.to_string())
    }
}

fn lines(diagnostics: &[Diagnostic], one: fn(&Diagnostic) -> String) -> String {
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&one(d));
        out.push('\n');
    }
    out
}

/// The emitter of a `--format`.
pub fn for_format(format: Format) -> Box<dyn Emitter> {
    match format {
        Format::Human => Box::new(Human {
            colour: render::use_colour(),
        }),
        Format::Short => Box::new(Short),
        Format::Github => Box::new(Github),
        Format::Json => Box::new(Json),
        Format::Sarif => Box::new(Sarif),
    }
}
