//! The project file `muster.toml` (see [`crate::config`]).

mod cannot_relax;
mod invalid;
mod missing_path;
mod unknown_check;

pub use cannot_relax::CANNOT_RELAX;
pub use invalid::INVALID;
pub use missing_path::MISSING_PATH;
pub use unknown_check::UNKNOWN_CHECK;
