//! Zip archives as VASSAL reads them, written byte for byte the same for the same
//! entries: stored (not compressed: the images are PNG already), in the order given,
//! every entry dated 1980-01-01.

use std::io::{Cursor, Read, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipArchive, ZipWriter};

/// Writes `entries` (name, bytes) in order.
pub fn write(entries: &[(String, Vec<u8>)]) -> Result<Vec<u8>, String> {
    write_keeping(entries, None, &|_| false)
}

/// Writes `entries`, after every entry of `keep_from` whose name `replaced` does not
/// claim, copied as it is (compression and all).
pub fn write_keeping(
    entries: &[(String, Vec<u8>)],
    keep_from: Option<&[u8]>,
    replaced: &dyn Fn(&str) -> bool,
) -> Result<Vec<u8>, String> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Stored)
        .last_modified_time(DateTime::default())
        .unix_permissions(0o644);
    if let Some(old) = keep_from {
        let mut archive =
            ZipArchive::new(Cursor::new(old)).map_err(|e| format!("not a zip archive ({e})"))?;
        for i in 0..archive.len() {
            let file = archive
                .by_index_raw(i)
                .map_err(|e| format!("cannot read entry {i} ({e})"))?;
            let name = file
                .name()
                .map_err(|e| format!("entry {i} has an unreadable name ({e})"))?
                .into_owned();
            if replaced(&name) || entries.iter().any(|(n, _)| *n == name) {
                continue;
            }
            zip.raw_copy_file(file)
                .map_err(|e| format!("cannot copy an entry ({e})"))?;
        }
    }
    for (name, bytes) in entries {
        zip.start_file(name.as_str(), options)
            .map_err(|e| format!("cannot write `{name}` ({e})"))?;
        zip.write_all(bytes)
            .map_err(|e| format!("cannot write `{name}` ({e})"))?;
    }
    let cursor = zip
        .finish()
        .map_err(|e| format!("cannot finish the archive ({e})"))?;
    Ok(cursor.into_inner())
}

/// Every entry of an archive, by name, in the archive's order.
pub fn read(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut archive =
        ZipArchive::new(Cursor::new(bytes)).map_err(|e| format!("not a zip archive ({e})"))?;
    let mut out = Vec::with_capacity(archive.len());
    for i in 0..archive.len() {
        let mut file = archive
            .by_index(i)
            .map_err(|e| format!("cannot read entry {i} ({e})"))?;
        let name = file
            .name()
            .map_err(|e| format!("entry {i} has an unreadable name ({e})"))?
            .into_owned();
        let mut data = Vec::new();
        file.read_to_end(&mut data)
            .map_err(|e| format!("cannot read `{name}` ({e})"))?;
        out.push((name, data));
    }
    Ok(out)
}
