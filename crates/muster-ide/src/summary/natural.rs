//! Natural order for the names a summary lists.

/// Natural order: runs of digits compare by their value (`3 Army` before `10 Army`),
/// the rest as text; names equal that way (`03`, `3`) fall back to their bytes.
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    fn runs(s: &str) -> impl Iterator<Item = &str> {
        let mut rest = s;
        std::iter::from_fn(move || {
            let first = rest.chars().next()?;
            let digits = first.is_ascii_digit();
            let end = rest
                .find(|c: char| c.is_ascii_digit() != digits)
                .unwrap_or(rest.len());
            let (run, tail) = rest.split_at(end);
            rest = tail;
            Some(run)
        })
    }
    let (mut x, mut y) = (runs(a), runs(b));
    loop {
        match (x.next(), y.next()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) => {
                let numbers = p.starts_with(|c: char| c.is_ascii_digit())
                    && q.starts_with(|c: char| c.is_ascii_digit());
                let order = if numbers {
                    let (p, q) = (p.trim_start_matches('0'), q.trim_start_matches('0'));
                    p.len().cmp(&q.len()).then_with(|| p.cmp(q))
                } else {
                    p.cmp(q)
                };
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::natural_cmp;

    #[test]
    fn numbers_in_names_sort_by_value() {
        let mut names = vec![
            "10 Army",
            "3 Army",
            "5 Army",
            "Army",
            "2nd Foot",
            "10th Foot",
            "Cavalry 12",
            "Cavalry 2",
            "Cavalry",
            "003 Army",
        ];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            names,
            [
                "2nd Foot",
                "003 Army",
                "3 Army",
                "5 Army",
                "10 Army",
                "10th Foot",
                "Army",
                "Cavalry",
                "Cavalry 2",
                "Cavalry 12",
            ]
        );
        // Longer than any integer type: still by value, never a panic.
        assert!(natural_cmp("x99999999999999999999999", "x100000000000000000000000").is_lt());
        assert!(
            natural_cmp("3", "03").is_gt(),
            "equal values fall back to the bytes"
        );
        assert!(natural_cmp("", "a").is_lt());
    }
}
