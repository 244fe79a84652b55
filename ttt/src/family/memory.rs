//! `--max-memory` of `perft --game` and `enumerate --game --max-plies`: the limit, its
//! default (half the memory the machine has available), and the estimate made before a count
//! starts from the library's growth model ([`count::max_positions`], [`count::peak_bytes`]).

use tictactoe::mnk::Rules;
use tictactoe::mnk::count;

use crate::exit;
use crate::output::grouped;

/// The limit when `/proc/meminfo` cannot be read (not Linux): 4 GiB.
const FALLBACK: u64 = 4 << 30;

/// The default of `--max-memory`: half the memory available now (`MemAvailable` of
/// `/proc/meminfo`), or 4 GiB where that cannot be read.
#[must_use]
pub fn default_limit() -> u64 {
    available().map_or(FALLBACK, |bytes| bytes / 2)
}

/// `MemAvailable` in bytes.
fn available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// A size in bytes: a number with an optional unit `K`, `M`, `G` or `T` (powers of 1024; `KB`,
/// `KiB` and lowercase alike), fractions allowed (`1.5G`).
///
/// # Errors
/// What is wrong with the text.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => {
            return Err(format!(
                "{text:?} is not a size: expected a number with an optional unit K, M, G or T \
(e.g. 8G, 512M)"
            ));
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size: expected a number first (e.g. 8G, 512M)"))?;
    let bytes = value * scale as f64;
    if !(1.0..=u64::MAX as f64).contains(&bytes) {
        return Err(format!("{text:?} is not a size from 1 byte to 16 EiB"));
    }
    Ok(bytes as u64)
}

/// Bytes for people: `512.0 MiB`, `5.3 GiB`.
#[must_use]
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The memory limit of one run and where it came from, for messages.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub bytes: u64,
    /// Given with `--max-memory` (else the default).
    pub given: bool,
}

impl Limit {
    /// `--max-memory`, or the default.
    #[must_use]
    pub fn of(given: Option<u64>) -> Limit {
        match given {
            Some(bytes) => Limit { bytes, given: true },
            None => Limit {
                bytes: default_limit(),
                given: false,
            },
        }
    }

    /// `the memory limit of 9.5 GiB (--max-memory ...)`.
    #[must_use]
    pub fn describe(self) -> String {
        let source = if self.given {
            "--max-memory"
        } else {
            "the default: half the available memory; raise it with --max-memory"
        };
        format!("the memory limit of {} ({source})", human(self.bytes))
    }
}

/// Refuses up front a count of `rules` to `plies` plies whose tables the growth model says
/// would pass `limit`: the first such ply, its positions at most, the bytes, and the plies
/// that fit.
///
/// # Errors
/// A usage error with the estimate.
pub fn check(rules: Rules, plies: u32, limit: Limit) -> anyhow::Result<()> {
    let mut previous = 1;
    for ply in 1..=plies.min(rules.cells()) {
        let positions = count::max_positions(rules, ply);
        let bytes = count::peak_bytes(rules, previous, positions);
        if bytes > limit.bytes {
            let fit = if ply == 1 {
                "not even ply 1 fits".to_owned()
            } else {
                format!("plies 0 to {} fit", ply - 1)
            };
            return exit::usage(format!(
                "{rules}: ply {ply} would hold up to {} positions, about {} by the growth \
model (positions times the bytes a count keeps for each), past {}; {fit}",
                grouped(positions),
                human(bytes),
                limit.describe()
            ));
        }
        previous = positions;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_powers_of_1024() {
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("100000"), Ok(100_000));
        assert_eq!(parse_size("2 KB"), Ok(2048));
        for bad in ["", "G", "8X", "-1G", "0", "1e30T"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(human(5 << 29), "2.5 GiB");
        assert_eq!(human(100), "100 bytes");
    }

    #[test]
    fn the_default_is_a_share_of_the_machine() {
        let limit = default_limit();
        assert!(limit >= 1 << 20, "{limit}");
        if let Some(available) = available() {
            assert_eq!(limit, available / 2);
        }
    }
}
