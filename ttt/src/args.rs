//! Command-line values derived from the library's enums, so that no subcommand keeps its own
//! list of names: an encoding ([`Encoding`], from [`Kind`]) and a status method
//! ([`StatusMethod`], from [`Method`]). Each is a clap [`ValueEnum`] whose names are the
//! library's own and whose help lines describe each value; and the `--game` option the
//! commands that run every game share ([`Game`]).

use clap::ValueEnum;
use clap::builder::PossibleValue;
use tictactoe::encoding::Kind;
use tictactoe::status::Method;

/// One of the seven board encodings ([`Kind::ALL`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoding(pub Kind);

const ENCODINGS: [Encoding; Kind::ALL.len()] = {
    let mut all = [Encoding(Kind::Base4); Kind::ALL.len()];
    let mut i = 0;
    while i < Kind::ALL.len() {
        all[i] = Encoding(Kind::ALL[i]);
        i += 1;
    }
    all
};

impl ValueEnum for Encoding {
    fn value_variants<'a>() -> &'a [Self] {
        &ENCODINGS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let help = match self.0 {
            Kind::Base4 => "2 bits per cell, any grid",
            Kind::Base3 => "one base-3 digit per cell, any grid",
            Kind::BitboardPair => "X's 9 bits, then O's 9 bits, any grid",
            Kind::CountRank => "the 6,046 boards with possible piece counts",
            Kind::Rank => "exactly the 5,478 reachable positions",
            Kind::Canonical => "the 765 symmetry classes (decodes to the class representative)",
            Kind::Oriented => "a position as class * 8 + symmetry",
        };
        let value = PossibleValue::new(self.0.name()).help(help);
        // The spelling of earlier versions stays accepted.
        Some(match self.0 {
            Kind::CountRank => value.alias("count_rank"),
            _ => value,
        })
    }
}

/// One of the library's status methods ([`Method::ALL`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatusMethod(pub Method);

const METHODS: [StatusMethod; Method::ALL.len()] = {
    let mut all = [StatusMethod(Method::Traditional); Method::ALL.len()];
    let mut i = 0;
    while i < Method::ALL.len() {
        all[i] = StatusMethod(Method::ALL[i]);
        i += 1;
    }
    all
};

impl ValueEnum for StatusMethod {
    fn value_variants<'a>() -> &'a [Self] {
        &METHODS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let help = match self.0 {
            Method::Traditional => "sums of a 3x3 array (the paper's baseline)",
            Method::Paper => "the paper's Boolean method as printed, defect included",
            Method::Masks => "AND with the 8 line masks",
            Method::Table => "one byte of a 512-entry table per player",
            Method::TableBits => "one bit of a 512-bit table per player",
            Method::Shift => "shift-AND of both players in one word",
            Method::Base3 => "the status of every base-3 code, 2 bits each",
            Method::Batch => "slices on the widest vector kernel the CPU has",
            Method::BatchPortable => "slices on the portable kernel",
            Method::BatchPacked => "slices of one u32 per board",
        };
        Some(PossibleValue::new(self.0.name()).help(help))
    }
}

/// `--game SPEC` of the commands that run every game the same way (`perft`, `selfplay`,
/// `match`), flattened into each.
#[derive(clap::Args, Clone, Copy)]
pub struct Game {
    /// A game of the k-in-a-row family instead of the 3x3 core: tic-tac-toe, 4x4,
    /// connect-four, gomoku, or ROWS,COLS,K with an optional ,gravity (e.g. 6,7,4,gravity);
    /// or ultimate (ultimate tic-tac-toe).
    #[arg(id = "game", long = "game", value_name = "SPEC", value_parser = crate::ultimate::parse_spec)]
    pub spec: Option<crate::ultimate::Spec>,
}

/// A `.ttt` packing by name, in the spellings `--encoding` takes everywhere: the library's
/// names, and `count_rank` beside `count-rank` as `decode` accepts it.
///
/// # Errors
/// The library's message for an unknown name.
pub fn packing(text: &str) -> Result<tictactoe::packed::Packing, String> {
    let name = if text == "count_rank" {
        "count-rank"
    } else {
        text
    };
    name.parse()
        .map_err(|error: <tictactoe::packed::Packing as std::str::FromStr>::Err| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packings_take_the_spellings_of_encodings() {
        assert_eq!(packing("count_rank"), packing("count-rank"));
        assert!(packing("count_rank").is_ok());
        assert!(packing("bogus").is_err());
    }

    #[test]
    fn the_names_are_the_librarys() {
        for value in Encoding::value_variants() {
            let name = value.to_possible_value().unwrap().get_name().to_owned();
            assert_eq!(name.parse::<Kind>(), Ok(value.0));
        }
        for value in StatusMethod::value_variants() {
            let name = value.to_possible_value().unwrap().get_name().to_owned();
            assert_eq!(name.parse::<Method>(), Ok(value.0));
        }
        assert_eq!(Encoding::value_variants().len(), Kind::ALL.len());
        assert_eq!(StatusMethod::value_variants().len(), Method::ALL.len());
    }
}
