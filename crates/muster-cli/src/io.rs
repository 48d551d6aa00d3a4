//! Writing to stdout and stderr without panicking. `println!` panics when the reader
//! has gone away (`muster validate | head -1`) or the disk is full; these macros write
//! through a locked handle instead.
//!
//! - A closed pipe stops all further output silently: the reader asked for no more.
//!   The exit code stays what the command decided (0, 1 or 2).
//! - Any other write error (a full disk) is remembered; `main` reports it once on
//!   stderr and exits with 2, because the output the user asked for is incomplete.

use std::io::{ErrorKind, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static FAILURE: Mutex<Option<String>> = Mutex::new(None);

/// Writes `text` to stdout, flushing it so that a closed pipe is noticed at once.
pub fn stdout(text: std::fmt::Arguments<'_>) {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut handle = std::io::stdout().lock();
    let result = handle.write_fmt(text).and_then(|()| handle.flush());
    if let Err(e) = result {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
        if e.kind() != ErrorKind::BrokenPipe {
            let mut failure = FAILURE.lock().unwrap_or_else(|p| p.into_inner());
            failure.get_or_insert_with(|| format!("cannot write the output: {e}"));
        }
    }
}

/// Writes `text` to stderr; errors are ignored (there is nowhere left to report them).
pub fn stderr(text: std::fmt::Arguments<'_>) {
    let mut handle = std::io::stderr().lock();
    let _ = handle.write_fmt(text).and_then(|()| handle.flush());
}

/// The first write error other than a closed pipe, if any.
pub fn failure() -> Option<String> {
    FAILURE.lock().unwrap_or_else(|p| p.into_inner()).take()
}

macro_rules! out {
    ($($arg:tt)*) => { $crate::io::stdout(format_args!($($arg)*)) };
}

macro_rules! outln {
    () => { $crate::io::stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::io::stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

macro_rules! err {
    ($($arg:tt)*) => { $crate::io::stderr(format_args!($($arg)*)) };
}

macro_rules! errln {
    ($($arg:tt)*) => { $crate::io::stderr(format_args!("{}\n", format_args!($($arg)*))) };
}

pub(crate) use {err, errln, out, outln};
