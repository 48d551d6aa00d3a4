//! `structure::duplicate-key`: the same key twice in one struct or map.

use crate::declare_check;

declare_check! {
    /// ## What it does
    /// Reports a field or map key given twice in the same value, at the second one, with the first as a secondary place. In a `{...}` map (an `assumed` map, a special rule's `params`) the rest of the file is still checked.
    ///
    /// ## Why is this bad?
    /// Only one of the two values can count. RON readers keep the last one without a word, so the value an author reads first is not the one an engine uses.
    ///
    /// ## Example
    /// ```ron
    /// params: {"counter": "drakkar", "carries_kind": "infantry", "max_carried": 1, "max_movement": 2.0, "max_carried": 2}
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// params: {"counter": "drakkar", "carries_kind": "infantry", "max_carried": 1, "max_movement": 2.0}
    /// ```
    pub DUPLICATE_KEY = ("structure::duplicate-key", Error, "a key is given twice");
}
