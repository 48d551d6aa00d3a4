//! The catalogue of check codes. Codes are stable and never reused; every code has a
//! documentation page in ruff's sections (what it does, why it matters, an example and
//! the fix) that `muster explain` prints and `docs/checks.md` collects.

use crate::diagnostic::Severity;

/// A registered check: its code, default severity, one-line summary and documentation.
#[derive(Debug)]
pub struct CheckMeta {
    pub code: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
    /// Markdown with `## What it does`, `## Why is this bad?`, `## Example`, `Use instead:`.
    pub doc: &'static str,
}

impl CheckMeta {
    /// The group part of the code (`setup` in `setup::off-map`).
    pub fn group(&self) -> &'static str {
        self.code.split("::").next().unwrap_or(self.code)
    }

    /// The documentation as Markdown (doc-comment indentation removed).
    pub fn doc(&self) -> String {
        self.doc
            .lines()
            .map(|l| l.strip_prefix(' ').unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The fenced example in the doc that triggers the check, if any.
    pub fn example(&self) -> Option<String> {
        fenced_after(&self.doc(), "## Example")
    }

    /// The fenced example under `Use instead:`, if any.
    pub fn fixed_example(&self) -> Option<String> {
        fenced_after(&self.doc(), "Use instead:")
    }
}

fn fenced_after(doc: &str, heading: &str) -> Option<String> {
    let rest = &doc[doc.find(heading)? + heading.len()..];
    let open = rest.find("```")?;
    let body_start = open + rest[open..].find('\n')? + 1;
    let body_len = rest[body_start..].find("```")?;
    Some(rest[body_start..body_start + body_len].to_string())
}

/// Declares a check's metadata from its doc comment:
///
/// ```
/// muster_db::declare_check! {
///     /// ## What it does
///     /// Checks that every hex lies on the map.
///     pub OFF_MAP = ("geometry::off-map", Error, "a hex lies outside the map");
/// }
/// assert_eq!(OFF_MAP.code, "geometry::off-map");
/// assert!(OFF_MAP.doc.contains("## What it does"));
/// ```
#[macro_export]
macro_rules! declare_check {
    ($(#[doc = $doc:literal])* pub $name:ident = ($code:literal, $sev:ident, $summary:literal);) => {
        $(#[doc = $doc])*
        pub const $name: $crate::registry::CheckMeta = $crate::registry::CheckMeta {
            code: $code,
            severity: $crate::diagnostic::Severity::$sev,
            summary: $summary,
            doc: concat!($($doc, "\n"),*),
        };
    };
}
