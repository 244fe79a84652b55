//! Inputs given as arguments, or one per line on standard input, streamed.

use std::io::{self, BufRead};

/// One input item and where it came from, for error messages.
#[allow(dead_code)] // read by the board subcommands
pub struct Item {
    /// The text, trimmed of surrounding whitespace (and a `\r`).
    pub text: String,
    /// `argument 2` or `line 17` (1-based).
    pub origin: String,
}

/// The arguments if any, else the lines of standard input (read lazily, bounded memory).
/// Blank lines on standard input are skipped.
#[allow(dead_code)] // used by the board subcommands
pub fn items(args: Vec<String>) -> Box<dyn Iterator<Item = io::Result<Item>>> {
    if !args.is_empty() {
        return Box::new(args.into_iter().enumerate().map(|(i, text)| {
            Ok(Item {
                text: text.trim().to_owned(),
                origin: format!("argument {}", i + 1),
            })
        }));
    }
    let lines = io::stdin().lock().lines();
    Box::new(lines.enumerate().filter_map(|(i, line)| match line {
        Ok(line) if line.trim().is_empty() => None,
        Ok(line) => Some(Ok(Item {
            text: line.trim().to_owned(),
            origin: format!("line {}", i + 1),
        })),
        Err(error) => Some(Err(error)),
    }))
}
