//! `cargo xtask corpus N DIR`: a large project made of the bundled battles, for
//! measuring muster at scale. `DIR/ron` holds the Les Rois Francs and PRESTAGS systems,
//! counter sheets and maps as bundled, plus N scenarios copied round-robin from the
//! bundled ones with unique ids; `DIR/json` holds the same files as JSON twins, written
//! from the typed model.

use std::path::{Path, PathBuf};

use muster_model::counters::CounterSheet;
use muster_model::map::MapSource;
use muster_model::scenario::Scenario;
use muster_model::system::RulesSystem;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The rules systems whose battles make up the corpus.
const SYSTEMS: [&str; 2] = ["lrf", "prestags"];

/// What `write` produced.
pub struct Corpus {
    pub ron: PathBuf,
    pub json: PathBuf,
    pub scenarios: usize,
    pub ron_bytes: u64,
    pub json_bytes: u64,
}

fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

fn to_json<T: DeserializeOwned + Serialize>(path: &Path, text: &str) -> Result<String, String> {
    let value: T = ron_options()
        .from_str(text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::to_string_pretty(&value).map_err(|e| e.to_string())
}

fn write(path: &Path, text: &str) -> Result<u64, String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text.len() as u64)
}

/// The twin's name: `jengland.scenario.ron` -> `jengland.scenario.json`.
fn json_name(name: &str) -> String {
    name.strip_suffix(".ron")
        .map_or_else(|| name.to_string(), |stem| format!("{stem}.json"))
}

/// Gives the scenario a new id: the first `id: "..."` field of the file.
fn with_id(text: &str, n: usize) -> Option<String> {
    let at = text.find("\n    id: \"")? + "\n    id: \"".len();
    let end = at + text[at..].find('"')?;
    Some(format!(
        "{}{}-{n:06}{}",
        &text[..at],
        &text[at..end],
        &text[end..]
    ))
}

pub fn write_corpus(root: &Path, count: usize, dir: &Path) -> Result<Corpus, String> {
    let (ron_dir, json_dir) = (dir.join("ron"), dir.join("json"));
    for d in [&ron_dir, &json_dir] {
        if d.exists() {
            std::fs::remove_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
    }
    let mut corpus = Corpus {
        ron: ron_dir.clone(),
        json: json_dir.clone(),
        scenarios: count,
        ron_bytes: 0,
        json_bytes: 0,
    };
    let mut scenarios = Vec::new();
    for system in SYSTEMS {
        for folder in ["scenarios", "maps"] {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(root.join(folder).join(system))
                .map_err(|e| format!("{folder}/{system}: {e}"))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            entries.sort();
            for path in entries {
                let name = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or_default()
                    .to_string();
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                if name.ends_with(".scenario.ron") {
                    scenarios.push((system, name, text));
                    continue;
                }
                let json = if name.ends_with(".system.ron") {
                    to_json::<RulesSystem>(&path, &text)?
                } else if name.ends_with(".counters.ron") {
                    to_json::<CounterSheet>(&path, &text)?
                } else if name.ends_with(".map.ron") {
                    to_json::<MapSource>(&path, &text)?
                } else {
                    continue;
                };
                let rel = Path::new(folder).join(system);
                corpus.ron_bytes += write(&ron_dir.join(&rel).join(&name), &text)?;
                corpus.json_bytes += write(&json_dir.join(&rel).join(json_name(&name)), &json)?;
            }
        }
    }
    if scenarios.is_empty() {
        return Err("no bundled scenarios found".to_string());
    }
    for n in 0..count {
        let (system, name, text) = &scenarios[n % scenarios.len()];
        let text = with_id(text, n).ok_or_else(|| format!("{name}: no `id` field"))?;
        let stem = name.trim_end_matches(".scenario.ron");
        let file = format!("{stem}-{n:06}.scenario.ron");
        let rel = Path::new("scenarios")
            .join(system)
            .join(format!("{:03}", n / 1000));
        let json = to_json::<Scenario>(Path::new(&file), &text)?;
        corpus.ron_bytes += write(&ron_dir.join(&rel).join(&file), &text)?;
        corpus.json_bytes += write(&json_dir.join(&rel).join(json_name(&file)), &json)?;
    }
    Ok(corpus)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_id_replaces_the_first_id_field_only() {
        let text = "Scenario(\n    id: \"jengland\",\n    sides: [(\n        id: \"charles\"";
        let out = with_id(text, 42).unwrap();
        assert!(out.contains("id: \"jengland-000042\""));
        assert!(out.contains("id: \"charles\""));
        assert_eq!(json_name("a.scenario.ron"), "a.scenario.json");
    }
}
