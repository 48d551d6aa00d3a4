//! "Did you mean" suggestions.

/// The closest candidate to `found`, phrased as help, if one is close enough.
pub fn did_you_mean<'a>(
    found: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    closest(found, candidates).map(|c| format!("did you mean `{c}`?"))
}

/// The candidate with the highest Jaro-Winkler similarity above 0.7.
pub fn closest<'a>(found: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let found_lower = found.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&found_lower, &c.to_lowercase()), c))
        .filter(|(score, _)| *score > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_nearest_name() {
        assert_eq!(
            closest("Nustrie", ["neustrie", "bavière"]),
            Some("neustrie")
        );
        assert_eq!(closest("zzz", ["neustrie"]), None);
    }
}
