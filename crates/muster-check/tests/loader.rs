//! Loader diagnostics whose inputs cannot be committed as fixture files.

use std::path::Path;

use muster_db::load::{load_bytes, load_path};

#[test]
fn a_file_above_the_limit_is_refused_without_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.scenario.ron");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(muster_db::source::MAX_FILE_BYTES + 1).unwrap();
    let loaded = load_path(&path, "huge.scenario.ron");
    assert_eq!(loaded.diagnostics.len(), 1);
    assert_eq!(loaded.diagnostics[0].code, "structure::too-large");
    assert!(loaded.diagnostics[0].message.contains("limit"));
}

#[test]
fn a_folder_given_as_a_file_is_unreadable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("folder.scenario.ron");
    std::fs::create_dir(&path).unwrap();
    let loaded = load_path(&path, "folder.scenario.ron");
    assert_eq!(loaded.diagnostics[0].code, "structure::unreadable");
}

#[test]
fn any_bytes_give_diagnostics_never_a_panic() {
    // A cheap deterministic fuzz over mutations of a real scenario.
    let base = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/_valid/valid.scenario.ron"),
    )
    .unwrap();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for round in 0..400 {
        let mut bytes = base.clone();
        for _ in 0..(round % 7 + 1) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let at = (seed as usize) % bytes.len();
            match seed % 3 {
                0 => bytes[at] = (seed >> 32) as u8,
                1 => {
                    bytes.truncate(at.max(1));
                }
                _ => bytes.insert(at, b"([{\"'/:,)]}"[(seed as usize >> 8) % 11]),
            }
        }
        let loaded = load_bytes(Path::new("fuzz.scenario.ron"), "fuzz.scenario.ron", bytes);
        for d in &loaded.diagnostics {
            assert!(d.span.end <= loaded.file.text.len() && d.span.start <= d.span.end);
        }
    }
}
