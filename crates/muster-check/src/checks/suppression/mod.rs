//! Suppressions: `// muster: allow(code) reason: ...` comments must be well formed and
//! must silence something. See [`crate::suppress`].

mod missing_reason;
mod not_allowed;
mod unknown_code;
mod unused;

pub use missing_reason::MISSING_REASON;
pub use not_allowed::NOT_ALLOWED;
pub use unknown_code::UNKNOWN_CODE;
pub use unused::UNUSED;
