//! The CLI's cases on disk: every `tests/cmd/*.toml` is one run of `muster` (arguments,
//! folder, exit code) beside the whole of its standard output (`.stdout`) and error
//! (`.stderr`), and for `new`, the files it writes (`.out/`). The fixture project
//! `tests/cmd/project/` holds a copy of the LRF data with scenarios carrying mistakes of
//! many kinds (`scenarios/lrf/mistakes/`); other cases run on the bundled data.
//!
//! After a change of output, bless with `TRYCMD=overwrite cargo test -p muster-cli --test
//! cmd` and read the diff of `tests/cmd/` before committing it.

#[test]
fn cli_cases() {
    trycmd::TestCases::new()
        // Output as it is when piped, whatever the terminal running the tests.
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .case("tests/cmd/*.toml")
        .case("tests/cmd/*.md");
}
