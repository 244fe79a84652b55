//! The query string of an API request, read by hand so that every fault has its own message:
//! `key=value` pairs separated by `&`, `%XX` escapes and `+` for a space (as browsers write
//! forms), UTF-8 after decoding, only the keys the endpoint knows, each at most once, and a
//! bounded length. std only: the fuzz target `serve_query` compiles this file as it is.

use std::fmt;

/// The longest query string read, in bytes (a 19 × 19 game of 361 moves written as cells
/// with commas is under 1,500 bytes).
pub const MAX_QUERY: usize = 4096;

/// The most pairs a query may have.
pub const MAX_PAIRS: usize = 16;

/// Why a query string is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryError {
    /// Longer than [`MAX_QUERY`] bytes.
    TooLong { bytes: usize },
    /// More than [`MAX_PAIRS`] pairs.
    TooManyPairs { pairs: usize },
    /// A `%` not followed by two hexadecimal digits, at this byte of the query.
    BadEscape { index: usize },
    /// A key or value that is not UTF-8 once decoded.
    NotUtf8 { key: String },
    /// A key the endpoint does not take.
    UnknownKey {
        key: String,
        known: &'static [&'static str],
    },
    /// A key given twice.
    Repeated { key: String },
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::TooLong { bytes } => write!(
                f,
                "the query string has {bytes} bytes: the most read is {MAX_QUERY}"
            ),
            QueryError::TooManyPairs { pairs } => write!(
                f,
                "the query string has {pairs} parameters: the most read is {MAX_PAIRS}"
            ),
            QueryError::BadEscape { index } => write!(
                f,
                "bad escape at byte {index} of the query string: % must be followed by two \
hexadecimal digits"
            ),
            QueryError::NotUtf8 { key } => {
                write!(f, "parameter {key:?} is not UTF-8 once %-decoded")
            }
            QueryError::UnknownKey { key, known } => {
                write!(f, "unknown parameter {key:?}: this endpoint takes ")?;
                if known.is_empty() {
                    write!(f, "none")
                } else {
                    write!(f, "{}", known.join(", "))
                }
            }
            QueryError::Repeated { key } => write!(f, "parameter {key:?} is given twice"),
        }
    }
}

/// The decoded parameters of one query, each a known key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    pairs: Vec<(&'static str, String)>,
}

impl Params {
    /// The value of `key`, if given.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads `query` (the part of the URL after `?`, still escaped; `None` or empty for none),
/// taking only the keys in `known`.
///
/// # Errors
/// The first fault, in the order of [`QueryError`]'s variants.
pub fn parse(query: Option<&str>, known: &'static [&'static str]) -> Result<Params, QueryError> {
    let query = query.unwrap_or("");
    if query.len() > MAX_QUERY {
        return Err(QueryError::TooLong { bytes: query.len() });
    }
    let mut params = Params::default();
    if query.is_empty() {
        return Ok(params);
    }
    let pairs = query.split('&').filter(|p| !p.is_empty()).count();
    if pairs > MAX_PAIRS {
        return Err(QueryError::TooManyPairs { pairs });
    }
    let mut offset = 0;
    for pair in query.split('&') {
        let start = offset;
        offset += pair.len() + 1;
        if pair.is_empty() {
            continue;
        }
        let (raw_key, raw_value, value_start) = match pair.find('=') {
            Some(eq) => (&pair[..eq], &pair[eq + 1..], start + eq + 1),
            None => (pair, "", start + pair.len()),
        };
        let key_bytes = decode(raw_key, start)?;
        let value_bytes = decode(raw_value, value_start)?;
        let Ok(key) = String::from_utf8(key_bytes) else {
            return Err(QueryError::NotUtf8 {
                key: String::from_utf8_lossy(raw_key.as_bytes()).into_owned(),
            });
        };
        let Some(&known_key) = known.iter().find(|k| **k == key) else {
            return Err(QueryError::UnknownKey { key, known });
        };
        let Ok(value) = String::from_utf8(value_bytes) else {
            return Err(QueryError::NotUtf8 { key });
        };
        if params.get(known_key).is_some() {
            return Err(QueryError::Repeated { key });
        }
        params.pairs.push((known_key, value));
    }
    Ok(params)
}

/// `%XX` escapes and `+` decoded; `start` is the byte of `text` in the query, for errors.
fn decode(text: &str, start: usize) -> Result<Vec<u8>, QueryError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = |b: Option<&u8>| b.and_then(|b| char::from(*b).to_digit(16));
                match (hex(bytes.get(i + 1)), hex(bytes.get(i + 2))) {
                    (Some(high), Some(low)) => out.push((high * 16 + low) as u8),
                    _ => return Err(QueryError::BadEscape { index: start + i }),
                }
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            byte => {
                out.push(byte);
                i += 1;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[&str] = &["game", "moves"];

    #[test]
    fn pairs_are_decoded() {
        let params = parse(Some("game=6%2C7%2C4&moves=4+4&"), KNOWN).unwrap();
        assert_eq!(params.get("game"), Some("6,7,4"));
        assert_eq!(params.get("moves"), Some("4 4"));
        assert_eq!(parse(None, KNOWN), Ok(Params::default()));
        assert_eq!(parse(Some("moves"), KNOWN).unwrap().get("moves"), Some(""));
    }

    #[test]
    fn every_fault_is_named() {
        let error = |q: &str| parse(Some(q), KNOWN).unwrap_err().to_string();
        assert_eq!(
            error("game=%4"),
            "bad escape at byte 5 of the query string: % must be followed by two hexadecimal \
digits"
        );
        assert_eq!(
            error("moves=%ff"),
            "parameter \"moves\" is not UTF-8 once %-decoded"
        );
        assert_eq!(
            error("colour=x"),
            "unknown parameter \"colour\": this endpoint takes game, moves"
        );
        assert_eq!(error("game=a&game=b"), "parameter \"game\" is given twice");
        assert_eq!(
            error(&"a&".repeat(17)),
            "the query string has 17 parameters: the most read is 16"
        );
        assert!(error(&"g".repeat(MAX_QUERY + 1)).starts_with("the query string has 4097 bytes"));
    }

    /// The fuzz target's first checks on pseudo-random queries from a few meaningful bytes,
    /// with the stable toolchain.
    #[test]
    fn random_queries_never_panic_and_errors_hold() {
        let alphabet = b"gamemoves=&%+2C4fFzZ\xff\xc3\xa9";
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 40) as usize;
            let text: String = (0..len)
                .map(|i| {
                    char::from(alphabet[((state >> (i % 50)) as usize + i * 7) % alphabet.len()])
                })
                .collect();
            match parse(Some(&text), KNOWN) {
                Ok(params) => {
                    for key in KNOWN {
                        let _ = params.get(key);
                    }
                }
                Err(QueryError::BadEscape { index }) => assert_eq!(text.as_bytes()[index], b'%'),
                Err(QueryError::UnknownKey { key, .. }) => assert!(!KNOWN.contains(&key.as_str())),
                Err(error) => assert!(!error.to_string().is_empty()),
            }
        }
    }
}
