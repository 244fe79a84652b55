//! The vectorised kernels of the 3×3 game, free of Python and of any array library: the
//! lookup tables over the 19,683 grids, built once from the library ([`tables`]), and the
//! per-item loops that turn codes of any integer type into grid indices and answers
//! ([`kernels`]).
//!
//! Three front ends run them on their own arrays: the Python module (`python/`, numpy), the
//! DuckDB extension (`extensions/duckdb/`, DuckDB vectors) and the Polars plugin
//! (`extensions/polars/`, Arrow arrays); so the three give the library's answers, the same ones.

pub mod kernels;
pub mod tables;

use tables::Kind;

/// The encoding named `name`, given as argument `argument`; or the message every front end
/// gives for another name: "argument `ARGUMENT` must be one of 'base4', 'base3', ..., got
/// 'NAME'", the names in [`Kind::ALL`]'s order.
///
/// # Errors
/// The message, when no encoding has the name.
pub fn kind_named(argument: &str, name: &str) -> Result<Kind, String> {
    Kind::ALL
        .into_iter()
        .find(|k| k.name() == name)
        .ok_or_else(|| {
            let names: Vec<_> = Kind::ALL
                .iter()
                .map(|k| format!("'{}'", k.name()))
                .collect();
            format!(
                "argument `{argument}` must be one of {}, got '{name}'",
                names.join(", ")
            )
        })
}

/// `n` with a comma every three digits (`19,682`), as every front end's messages write a code
/// range (the Python package's by Python's `{:,}`, the extensions' by this).
#[must_use]
pub fn thousands(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Kind, kind_named, thousands};

    #[test]
    fn kind_named_finds_each_encoding_and_lists_them_for_another_name() {
        for kind in Kind::ALL {
            assert_eq!(kind_named("encoding", kind.name()), Ok(kind));
        }
        let message = kind_named("to", "base5").unwrap_err();
        let listed = Kind::ALL.map(|k| format!("'{}'", k.name())).join(", ");
        let expected = format!("argument `to` must be one of {listed}, got 'base5'");
        assert_eq!(message, expected);
    }

    #[test]
    fn thousands_groups_digits_by_three() {
        let cases = [(0, "0"), (999, "999"), (1000, "1,000"), (19_682, "19,682")];
        for (n, text) in cases {
            assert_eq!(thousands(n), text);
        }
        assert_eq!(thousands(u32::MAX), "4,294,967,295");
    }
}
