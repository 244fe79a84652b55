//! Numbers as people type them: decimal, or hexadecimal after `0x`, or binary after `0b`, shared
//! by every subcommand that reads codes (`decode`, `game decode`).

/// Text that is not a non-negative integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    #[error("no digits")]
    NoDigits,
    #[error("bad character {ch:?} at index {index} (expected {expected})")]
    BadChar {
        index: usize,
        ch: char,
        expected: &'static str,
    },
    #[error("negative")]
    Negative,
    #[error("too large")]
    TooLarge,
}

/// Reads a decimal number, or hexadecimal after `0x`, or binary after `0b` (prefixes in either
/// case). A minus sign before a number is recognized, to be reported as such.
///
/// # Errors
/// Why the text is no such number.
pub fn parse_number(text: &str) -> Result<u64, NumberError> {
    let Some(magnitude) = text.strip_prefix('-') else {
        return parse_unsigned(text);
    };
    match parse_unsigned(magnitude) {
        Ok(0) => Ok(0),
        Ok(_) | Err(NumberError::TooLarge) => Err(NumberError::Negative),
        Err(NumberError::BadChar {
            index,
            ch,
            expected,
        }) => Err(NumberError::BadChar {
            index: index + 1,
            ch,
            expected,
        }),
        Err(error) => Err(error),
    }
}

fn parse_unsigned(text: &str) -> Result<u64, NumberError> {
    let (radix, skip, expected) = match text.get(..2) {
        Some("0x" | "0X") => (16, 2, "hexadecimal digits after 0x"),
        Some("0b" | "0B") => (2, 2, "binary digits after 0b"),
        _ => (10, 0, "decimal digits, or a 0x or 0b prefix"),
    };
    if text.len() == skip {
        return Err(NumberError::NoDigits);
    }
    let mut value = 0u64;
    for (index, ch) in text.chars().enumerate().skip(skip) {
        let digit = ch.to_digit(radix).ok_or(NumberError::BadChar {
            index,
            ch,
            expected,
        })?;
        value = value
            .checked_mul(u64::from(radix))
            .and_then(|v| v.checked_add(u64::from(digit)))
            .ok_or(NumberError::TooLarge)?;
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_three_bases() {
        assert_eq!(parse_number("0"), Ok(0));
        assert_eq!(parse_number("18465"), Ok(18_465));
        assert_eq!(parse_number("0x4821"), Ok(0x4821));
        assert_eq!(parse_number("0XfF"), Ok(255));
        assert_eq!(parse_number("0b101"), Ok(5));
        assert_eq!(parse_number("-0"), Ok(0));
        assert_eq!(parse_number("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn bad_numbers_say_why() {
        use NumberError::*;
        assert_eq!(parse_number(""), Err(NoDigits));
        assert_eq!(parse_number("0x"), Err(NoDigits));
        assert_eq!(parse_number("-"), Err(NoDigits));
        assert_eq!(parse_number("-5"), Err(Negative));
        assert_eq!(parse_number("-99999999999999999999999"), Err(Negative));
        assert!(matches!(
            parse_number("-5a"),
            Err(BadChar {
                index: 2,
                ch: 'a',
                ..
            })
        ));
        assert!(matches!(
            parse_number("--5"),
            Err(BadChar {
                index: 1,
                ch: '-',
                ..
            })
        ));
        assert_eq!(parse_number("18446744073709551616"), Err(TooLarge));
        assert!(matches!(
            parse_number("12a"),
            Err(BadChar {
                index: 2,
                ch: 'a',
                ..
            })
        ));
        assert!(matches!(
            parse_number("0b102"),
            Err(BadChar {
                index: 4,
                ch: '2',
                ..
            })
        ));
        assert!(matches!(
            parse_number("5-"),
            Err(BadChar {
                index: 1,
                ch: '-',
                ..
            })
        ));
        assert!(matches!(
            parse_number("0x-5"),
            Err(BadChar {
                index: 2,
                ch: '-',
                ..
            })
        ));
    }
}
