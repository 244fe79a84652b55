//! [`choice_enum!`]: the one definition of a run-time choice (an encoding, a packing, a status
//! method, a kernel, a symmetry, a game code), as cozy-chess's `simple_enum!`.

/// Defines a fieldless enum of run-time choices, each variant with its name, and for it:
/// `ALL` (every value, in the order declared), `const fn name` (the name on the command line,
/// in files and in messages), `Display` (the name) and `FromStr` (the name back, exactly; any
/// other text is the error built by the closure-like `parse_error` arm). The command line
/// derives its flags from `ALL` and `name`, so no list of names is kept anywhere else.
macro_rules! choice_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
        parse_error: |$input:ident| -> $err:ty $make:block
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, in the order declared.
            pub const ALL: [$name; [$($text),+].len()] = [$($name::$variant),+];

            /// The name on the command line, in files and in messages (what `FromStr` reads).
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl core::str::FromStr for $name {
            type Err = $err;
            fn from_str($input: &str) -> Result<$name, $err> {
                $name::ALL
                    .into_iter()
                    .find(|value| value.name() == $input)
                    .ok_or_else(|| $make)
            }
        }
    };
}

pub(crate) use choice_enum;

#[cfg(test)]
mod tests {
    use crate::encoding::Kind;
    use crate::game::CodeKind;
    use crate::status::Method;
    use crate::status::batch::Kernel;
    use crate::{Board, Symmetry};

    /// Every choice: each name parses back to its value, `Display` is the name, the names are
    /// distinct, and text that is no name (another case, a neighbour's name) is refused.
    macro_rules! names_round_trip {
        ($($t:ty),+) => {$(
            for value in <$t>::ALL {
                assert_eq!(value.name().parse::<$t>().ok(), Some(value));
                assert_eq!(value.to_string(), value.name());
                assert!(value.name().to_uppercase().parse::<$t>().is_err());
                assert_eq!(<$t>::ALL.iter().filter(|v| v.name() == value.name()).count(), 1);
            }
            assert!("".parse::<$t>().is_err());
            assert!("x".parse::<$t>().is_err());
        )+};
    }

    #[test]
    fn every_choice_parses_its_names_and_nothing_else() {
        names_round_trip!(Kind, CodeKind, Method, Kernel, Symmetry);
        #[cfg(feature = "alloc")]
        names_round_trip!(crate::packed::Packing);
        assert_eq!(Kind::ALL.len(), 7);
        assert_eq!(Method::ALL.len(), 10);
        assert_eq!(Symmetry::ALL[0].apply(Board::EMPTY), Board::EMPTY);
    }

    /// A packing is named after the encoding it stores (mixed radix stores ranks, five to a
    /// word, under its own name).
    #[cfg(feature = "alloc")]
    #[test]
    fn packings_are_named_after_their_encodings() {
        use crate::packed::{MixedRadix, Packing};
        for packing in Packing::ALL {
            let expected = match packing {
                Packing::MixedRadix => MixedRadix::NAME,
                _ => packing.kind().name(),
            };
            assert_eq!(packing.name(), expected);
        }
    }
}
