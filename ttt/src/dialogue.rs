//! A game's conversation with a person at the terminal, shared by `ttt play` on tic-tac-toe
//! (`cmd/play.rs`) and on the family (`family/play.rs`): colours, one line of input, "Play
//! again?".

use std::io::{self, IsTerminal, Write};

use tictactoe::Player;

use crate::input::Lines;

/// ANSI colours, on only for a terminal without `NO_COLOR`.
pub struct Style {
    /// Whether marks and cell numbers are coloured.
    pub colour: bool,
}

impl Style {
    pub fn detect() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            colour: io::stdout().is_terminal() && !no_color,
        }
    }

    pub fn paint(&self, text: &str, code: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    pub fn mark(&self, player: Player) -> String {
        match player {
            Player::X => self.paint("X", "1;36"),
            Player::O => self.paint("O", "1;33"),
        }
    }
}

/// Asks "Play again?" until the answer is yes or no (or the input ends: no).
pub fn again(out: &mut impl Write, input: &mut Lines, echo: bool) -> io::Result<bool> {
    loop {
        write!(out, "\nPlay again? (y/n): ")?;
        out.flush()?;
        let Some(answer) = read_line(input, out, echo)? else {
            return Ok(false);
        };
        match answer.to_ascii_lowercase().as_str() {
            "y" | "yes" => return Ok(true),
            "n" | "no" | "q" | "quit" => return Ok(false),
            _ => {
                let shown: String = answer.chars().take(20).collect();
                writeln!(out, "not an answer: {shown:?}; type y or n")?;
            }
        }
    }
}

/// One line of input, at most [`crate::input::MAX_LINE`] bytes kept, read as text even when
/// it is not UTF-8; `None` at the end of the input. Echoed when the input is not a terminal.
pub fn read_line(
    input: &mut Lines,
    out: &mut impl Write,
    echo: bool,
) -> io::Result<Option<String>> {
    if !input.next_raw(&mut || Ok(()))? {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(input.raw()).trim().to_owned();
    if echo {
        let shown: String = text.chars().take(40).collect();
        writeln!(out, "{shown}")?;
    }
    Ok(Some(text))
}
