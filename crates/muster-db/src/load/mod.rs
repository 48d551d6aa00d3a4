//! Reading and parsing one file: size limit, UTF-8, file kind, RON or JSON into the
//! typed model, then the schema constraints the types cannot express. Every failure is
//! a diagnostic with a span; nothing here panics on any input.

use std::path::Path;
use std::sync::Arc;

use muster_model::FileKind;
use muster_model::counters::CounterSheet;
use muster_model::map::MapSource;
use muster_model::scenario::Scenario;
use muster_model::system::RulesSystem;
use serde::de::DeserializeOwned;

pub mod schema;
pub mod structure;

use crate::Diagnostic;
use crate::report::{Loc, Report, Sink};
use crate::source::{MAX_FILE_BYTES, SourceFile};

/// A parsed document of one of the four kinds.
#[derive(Debug, Clone)]
pub enum Document {
    System(RulesSystem),
    Counters(CounterSheet),
    Map(MapSource),
    Scenario(Scenario),
}

impl Document {
    pub fn kind(&self) -> FileKind {
        match self {
            Document::System(_) => FileKind::System,
            Document::Counters(_) => FileKind::Counters,
            Document::Map(_) => FileKind::Map,
            Document::Scenario(_) => FileKind::Scenario,
        }
    }

    pub fn id(&self) -> &str {
        match self {
            Document::System(d) => &d.id,
            Document::Counters(d) => &d.id,
            Document::Map(d) => &d.id,
            Document::Scenario(d) => &d.id,
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        let value = match self {
            Document::System(d) => serde_json::to_value(d),
            Document::Counters(d) => serde_json::to_value(d),
            Document::Map(d) => serde_json::to_value(d),
            Document::Scenario(d) => serde_json::to_value(d),
        };
        value.unwrap_or(serde_json::Value::Null)
    }
}

/// One file after loading: its text, what it is, the typed document if it parsed, and
/// the diagnostics found so far.
#[derive(Debug)]
pub struct Loaded {
    pub file: Arc<SourceFile>,
    pub kind: Option<FileKind>,
    pub doc: Option<Document>,
    pub diagnostics: Vec<Diagnostic>,
    /// The document's ids, indexed on first need ([`Loaded::ids`]).
    ids: std::sync::OnceLock<IdIndex>,
}

/// Where the parts that checks look up by id sit in a document: a system's unit kinds,
/// a counter sheet's counters army by army. Built once per file and shared by every
/// scenario that uses it; where an id is given twice, the first one is found, as a
/// search from the top would.
#[derive(Debug, Default)]
pub struct IdIndex {
    kinds: crate::FastMap<Box<str>, usize>,
    counters: Vec<crate::FastMap<Box<str>, usize>>,
}

impl IdIndex {
    fn of(doc: Option<&Document>) -> Self {
        fn positions<'i>(ids: impl Iterator<Item = &'i str>) -> crate::FastMap<Box<str>, usize> {
            let mut out = crate::FastMap::default();
            for (i, id) in ids.enumerate() {
                out.entry(id.into()).or_insert(i);
            }
            out
        }
        match doc {
            Some(Document::System(s)) => Self {
                kinds: positions(s.unit_kinds.iter().map(|k| k.id.as_str())),
                counters: Vec::new(),
            },
            Some(Document::Counters(c)) => Self {
                kinds: Default::default(),
                counters: c
                    .armies
                    .iter()
                    .map(|a| positions(a.counters.iter().map(|c| c.id.as_str())))
                    .collect(),
            },
            Some(Document::Map(_) | Document::Scenario(_)) | None => Self::default(),
        }
    }

    /// The position of the unit kind `id` among a system's.
    pub fn unit_kind(&self, id: &str) -> Option<usize> {
        self.kinds.get(id).copied()
    }

    /// The position of the counter `id` among those of a sheet's army `army`.
    pub fn counter(&self, army: usize, id: &str) -> Option<usize> {
        self.counters.get(army)?.get(id).copied()
    }
}

impl Loaded {
    fn new(file: SourceFile) -> Self {
        Self::shared(Arc::new(file))
    }

    fn shared(file: Arc<SourceFile>) -> Self {
        Self {
            file,
            kind: None,
            doc: None,
            diagnostics: Vec::new(),
            ids: std::sync::OnceLock::new(),
        }
    }

    /// The document's ids ([`IdIndex`]), indexed the first time they are asked for.
    pub fn ids(&self) -> &IdIndex {
        self.ids.get_or_init(|| IdIndex::of(self.doc.as_ref()))
    }

    /// A file that is not one of the data kinds (the project file): text only.
    pub fn plain(file: SourceFile) -> Self {
        Self::new(file)
    }

    pub fn is_json(&self) -> bool {
        self.file.file_name().ends_with(".json")
    }
}

/// Reads and parses a file. `name` is how diagnostics will name it.
///
/// Only regular files are read: the path's metadata is checked first, so a FIFO or a
/// device is refused without being opened (opening a FIFO for reading blocks). The size
/// limit is enforced on the bytes actually read, not only on the metadata, so a file that
/// grows, or a symlink to `/dev/zero`, never makes muster read more than the limit.
pub fn load_path(path: &Path, name: &str) -> Loaded {
    load_path_known(path, name, None)
}

/// [`load_path`], with the path's metadata when the caller already read it through a
/// path that is not a symlink (the project walk's check for links out of the root).
pub fn load_path_known(path: &Path, name: &str, meta: Option<std::fs::Metadata>) -> Loaded {
    match read_path(path, name, meta) {
        Ok(bytes) => load_bytes(path, name, bytes),
        Err(refused) => *refused,
    }
}

/// The bytes of the regular file at `path`, read afresh (the checks of [`load_path`]:
/// only regular files, at most the size limit), or the file refused with its
/// diagnostic when it cannot be read. Watch mode's cache reads every file this way on
/// every round, so a file that became unreadable, or changed without its size or
/// modification time changing, is never taken for the one it parsed before.
pub fn read_path(
    path: &Path,
    name: &str,
    meta: Option<std::fs::Metadata>,
) -> Result<Vec<u8>, Box<Loaded>> {
    let refuse = |report: Report| {
        let mut loaded = Loaded::new(SourceFile::new(path, name, String::new()));
        let mut sink = Sink::new(&loaded.file);
        sink.push(report);
        loaded.diagnostics = sink.finish();
        Err(Box::new(loaded))
    };
    let meta = match meta.map_or_else(|| std::fs::metadata(path), Ok) {
        Ok(meta) => meta,
        Err(err) => {
            return refuse(unreadable(format!(
                "cannot read the file: {}",
                io_words(&err)
            )));
        }
    };
    if meta.is_dir()
        && let Err(err) = std::fs::read_dir(path)
    {
        return refuse(
            unreadable(format!(
                "cannot read the folder `{name}`: {}",
                io_words(&err)
            ))
            .help("make the folder readable (`chmod u+rx`) or move it out of the project")
            .note("none of the files in it were checked"),
        );
    }
    if meta.is_dir() && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return refuse(
            unreadable(format!(
                "`{name}` is a symlink to a folder, which muster does not follow"
            ))
            .help("move the files into the project, or name the folder the link points to"),
        );
    }
    if !meta.is_file() {
        let what = not_regular(&meta.file_type());
        return refuse(
            unreadable(format!("`{name}` is {what}, not a regular file"))
                .help("muster reads only regular RON or JSON files; give the data file itself"),
        );
    }
    if meta.len() > MAX_FILE_BYTES {
        return refuse(too_large(format!("the file is {} bytes", meta.len())));
    }
    match read_at_most(path, MAX_FILE_BYTES, meta.len()) {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => refuse(too_large(
            "more than that could be read from it".to_string(),
        )),
        Err(err) => refuse(unreadable(format!(
            "cannot read the file: {}",
            io_words(&err)
        ))),
    }
}

/// Parses the text of an editor's buffer as the file at `path` (the language server's
/// overlay), with the same size limit as a file read from disk.
pub fn load_overlay(path: &Path, name: &str, buffer: &Arc<SourceFile>) -> Loaded {
    let text = buffer.text.as_str();
    if text.len() as u64 > MAX_FILE_BYTES {
        let mut loaded = Loaded::new(SourceFile::new(path, name, String::new()));
        let mut sink = Sink::new(&loaded.file);
        sink.push(too_large(format!("the buffer is {} bytes", text.len())));
        loaded.diagnostics = sink.finish();
        return loaded;
    }
    if buffer.name == name && buffer.path == path {
        load_shared(Arc::clone(buffer))
    } else {
        load_text(SourceFile::new(path, name, text.to_string()))
    }
}

/// The bytes of `path`, or `None` when it yields more than `limit` bytes (at most
/// `limit + 1` are ever read). `size` is what its metadata said, room made in advance
/// (the file may still grow or shrink while it is read).
fn read_at_most(path: &Path, limit: u64, size: u64) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::with_capacity(size.min(limit) as usize + 1);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

fn unreadable(message: String) -> Report {
    Report::new(&structure::UNREADABLE, Loc::Span(0..0), message)
}

fn too_large(what: String) -> Report {
    Report::new(
        &structure::TOO_LARGE,
        Loc::Span(0..0),
        format!("{what}, above muster's limit of {MAX_FILE_BYTES} bytes"),
    )
    .help("split the data into several files; scenario files are normally a few kilobytes")
}

/// An IO error in muster's words where the cause is common, else the system's.
fn io_words(err: &std::io::Error) -> String {
    match err.kind() {
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::NotFound => "it does not exist".to_string(),
        _ => err.to_string(),
    }
}

/// What a path that is not a regular file is, in words.
fn not_regular(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "not a file"
    }
}

/// Parses bytes already in memory (used by tests, fixtures and watch mode).
pub fn load_bytes(path: &Path, name: &str, bytes: Vec<u8>) -> Loaded {
    match String::from_utf8(bytes) {
        Ok(text) => load_text(SourceFile::new(path, name, text)),
        Err(err) => {
            let bad = err.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(err.as_bytes()).into_owned();
            let mut loaded = Loaded::new(SourceFile::new(path, name, text));
            let mut sink = Sink::new(&loaded.file);
            sink.push(
                Report::new(
                    &structure::NOT_TEXT,
                    Loc::Span(bad..bad + '\u{FFFD}'.len_utf8()),
                    format!("the file is not UTF-8 text (invalid byte at offset {bad})"),
                )
                .help("muster reads RON or JSON text files saved as UTF-8"),
            );
            loaded.diagnostics = sink.finish();
            loaded
        }
    }
}

pub fn load_text(file: SourceFile) -> Loaded {
    load_shared(Arc::new(file))
}

/// [`load_text`] of a source file that others hold too (an editor's buffer): its tree is
/// parsed once for all of them.
pub fn load_shared(file: Arc<SourceFile>) -> Loaded {
    let mut loaded = Loaded::shared(file);
    let kind = detect_kind(&loaded);
    loaded.kind = kind;
    let mut sink = Sink::new(&loaded.file);
    let doc = match kind {
        None => {
            sink.push(
                Report::new(
                    &structure::UNKNOWN_KIND,
                    Loc::Span(0..0),
                    format!("cannot tell what kind of file `{}` is", loaded.file.file_name()),
                )
                .help("start the file with `System(`, `CounterSheet(`, `Map(` or `Scenario(`, or name it `*.system.ron`, `*.counters.ron`, `*.map.ron` or `*.scenario.ron`"),
            );
            None
        }
        Some(kind) => parse_kind(&loaded, kind, &mut sink),
    };
    let diagnostics = sink.finish();
    loaded.doc = doc;
    loaded.diagnostics = diagnostics;
    loaded
}

/// The struct name at the top of a RON file wins; the file name decides otherwise.
fn detect_kind(loaded: &Loaded) -> Option<FileKind> {
    if !loaded.is_json()
        && let Some(name) = loaded.file.tree().value().and_then(|v| v.name())
        && let Some(kind) = FileKind::ALL.into_iter().find(|k| k.tag() == name)
    {
        return Some(kind);
    }
    FileKind::from_file_name(loaded.file.file_name())
}

fn parse_kind(loaded: &Loaded, kind: FileKind, sink: &mut Sink) -> Option<Document> {
    match kind {
        FileKind::System => parse_as::<RulesSystem>(loaded, sink).map(Document::System),
        FileKind::Counters => parse_as::<CounterSheet>(loaded, sink).map(Document::Counters),
        FileKind::Map => parse_as::<MapSource>(loaded, sink).map(Document::Map),
        FileKind::Scenario => parse_as::<Scenario>(loaded, sink).map(Document::Scenario),
    }
}

/// Reads the typed document from the file's syntax tree, recording where every value
/// came from. A file with syntax errors yields them all and no document.
fn parse_as<T: DeserializeOwned>(loaded: &Loaded, sink: &mut Sink) -> Option<T> {
    let tree = loaded.file.tree();
    if !tree.errors().is_empty() {
        for report in structure::from_syntax_errors(&loaded.file, tree) {
            sink.push(report);
        }
        return None;
    }
    let reading = muster_syntax::read::<T>(tree);
    loaded.file.set_spans(reading.spans.detach());
    for duplicate in &reading.duplicate_keys {
        sink.push(structure::from_duplicate_key(&loaded.file, duplicate));
    }
    match reading.value {
        Ok(v) => Some(v),
        Err(err) => {
            sink.push(structure::from_de_error(&loaded.file, &err));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn reads_stop_one_byte_past_the_limit() {
        // `/dev/zero` never ends: the read is bounded by the limit, not by the file.
        let zero = Path::new("/dev/zero");
        if zero.exists() {
            assert_eq!(read_at_most(zero, 1024, 0).unwrap(), None);
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.system.ron");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read_at_most(&path, 10, 10).unwrap().unwrap().len(), 10);
        assert_eq!(read_at_most(&path, 9, 10).unwrap(), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_refused_unopened() {
        let zero = Path::new("/dev/zero");
        if !zero.exists() {
            return;
        }
        let loaded = load_path(zero, "zero.scenario.ron");
        assert_eq!(loaded.diagnostics.len(), 1);
        assert_eq!(loaded.diagnostics[0].code, "structure::unreadable");
        assert!(
            loaded.diagnostics[0].message.contains("a device"),
            "{}",
            loaded.diagnostics[0].message
        );
    }
}
