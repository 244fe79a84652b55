//! Arbitrary bytes as the query string of a `ttt serve` request (the parser in
//! `ttt/src/serve/query.rs`, compiled here as it is): never a panic; a query longer than the
//! limit is refused for its length; a bad escape names a `%` really at that byte; what parses
//! holds only known keys, and written back with every byte escaped parses to the same values.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../ttt/src/serve/query.rs"]
mod query;

use query::{MAX_QUERY, QueryError, parse};

const KNOWN: &[&str] = &["game", "moves", "level", "seed"];

fuzz_target!(|data: &[u8]| {
    // A URI's query is ASCII-visible; the fuzzer's bytes are read as Latin-1 to keep every
    // byte reachable.
    let text: String = data.iter().map(|&b| char::from(b)).collect();
    match parse(Some(&text), KNOWN) {
        Ok(params) => {
            assert!(text.len() <= MAX_QUERY);
            let mut again = String::new();
            for key in KNOWN {
                if let Some(value) = params.get(key) {
                    again.push_str(key);
                    again.push('=');
                    for byte in value.bytes() {
                        again.push_str(&format!("%{byte:02X}"));
                    }
                    again.push('&');
                }
            }
            let reparsed = parse(Some(&again), KNOWN);
            match reparsed {
                Ok(reparsed) => {
                    for key in KNOWN {
                        assert_eq!(params.get(key), reparsed.get(key), "{key}");
                    }
                }
                // Escaping triples a value's length: only the length limit may refuse it.
                Err(error) => assert!(matches!(error, QueryError::TooLong { .. }), "{error}"),
            }
        }
        Err(error) => {
            assert!(!error.to_string().is_empty());
            match error {
                QueryError::TooLong { bytes } => assert!(bytes > MAX_QUERY),
                QueryError::BadEscape { index } => assert_eq!(text.as_bytes()[index], b'%'),
                QueryError::UnknownKey { key, .. } => assert!(!KNOWN.contains(&key.as_str())),
                _ => {}
            }
        }
    }
});
