//! The 512 values of a 9-bit set as an enum (written by `scripts/gen-nine-bits`; do not
//! edit by hand).
//!
//! A `Bitboard` holds a [`Nine`], not a `u16`, so that the compiler knows every set it
//! loads is below 512: an index into a 512-entry table then needs no `& 0x1ff` and no
//! bounds check. [`Nine::new`] is the crate's one scalar `unsafe`: a `transmute` of the low
//! nine bits, each of which is a variant. A 512-arm `match` compiles to the same code, but
//! puts 512 arms into every function that builds a set, for the compiler to fold each time.

/// A 9-bit value, `0..512`: variant `Snnn` is `nnn`.
#[rustfmt::skip]
#[allow(dead_code)] // The variants are built by `Nine::new`, never by name.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
#[repr(u16)]
pub(crate) enum Nine {
    #[default]
    S000, S001, S002, S003, S004, S005, S006, S007,
    S008, S009, S010, S011, S012, S013, S014, S015,
    S016, S017, S018, S019, S020, S021, S022, S023,
    S024, S025, S026, S027, S028, S029, S030, S031,
    S032, S033, S034, S035, S036, S037, S038, S039,
    S040, S041, S042, S043, S044, S045, S046, S047,
    S048, S049, S050, S051, S052, S053, S054, S055,
    S056, S057, S058, S059, S060, S061, S062, S063,
    S064, S065, S066, S067, S068, S069, S070, S071,
    S072, S073, S074, S075, S076, S077, S078, S079,
    S080, S081, S082, S083, S084, S085, S086, S087,
    S088, S089, S090, S091, S092, S093, S094, S095,
    S096, S097, S098, S099, S100, S101, S102, S103,
    S104, S105, S106, S107, S108, S109, S110, S111,
    S112, S113, S114, S115, S116, S117, S118, S119,
    S120, S121, S122, S123, S124, S125, S126, S127,
    S128, S129, S130, S131, S132, S133, S134, S135,
    S136, S137, S138, S139, S140, S141, S142, S143,
    S144, S145, S146, S147, S148, S149, S150, S151,
    S152, S153, S154, S155, S156, S157, S158, S159,
    S160, S161, S162, S163, S164, S165, S166, S167,
    S168, S169, S170, S171, S172, S173, S174, S175,
    S176, S177, S178, S179, S180, S181, S182, S183,
    S184, S185, S186, S187, S188, S189, S190, S191,
    S192, S193, S194, S195, S196, S197, S198, S199,
    S200, S201, S202, S203, S204, S205, S206, S207,
    S208, S209, S210, S211, S212, S213, S214, S215,
    S216, S217, S218, S219, S220, S221, S222, S223,
    S224, S225, S226, S227, S228, S229, S230, S231,
    S232, S233, S234, S235, S236, S237, S238, S239,
    S240, S241, S242, S243, S244, S245, S246, S247,
    S248, S249, S250, S251, S252, S253, S254, S255,
    S256, S257, S258, S259, S260, S261, S262, S263,
    S264, S265, S266, S267, S268, S269, S270, S271,
    S272, S273, S274, S275, S276, S277, S278, S279,
    S280, S281, S282, S283, S284, S285, S286, S287,
    S288, S289, S290, S291, S292, S293, S294, S295,
    S296, S297, S298, S299, S300, S301, S302, S303,
    S304, S305, S306, S307, S308, S309, S310, S311,
    S312, S313, S314, S315, S316, S317, S318, S319,
    S320, S321, S322, S323, S324, S325, S326, S327,
    S328, S329, S330, S331, S332, S333, S334, S335,
    S336, S337, S338, S339, S340, S341, S342, S343,
    S344, S345, S346, S347, S348, S349, S350, S351,
    S352, S353, S354, S355, S356, S357, S358, S359,
    S360, S361, S362, S363, S364, S365, S366, S367,
    S368, S369, S370, S371, S372, S373, S374, S375,
    S376, S377, S378, S379, S380, S381, S382, S383,
    S384, S385, S386, S387, S388, S389, S390, S391,
    S392, S393, S394, S395, S396, S397, S398, S399,
    S400, S401, S402, S403, S404, S405, S406, S407,
    S408, S409, S410, S411, S412, S413, S414, S415,
    S416, S417, S418, S419, S420, S421, S422, S423,
    S424, S425, S426, S427, S428, S429, S430, S431,
    S432, S433, S434, S435, S436, S437, S438, S439,
    S440, S441, S442, S443, S444, S445, S446, S447,
    S448, S449, S450, S451, S452, S453, S454, S455,
    S456, S457, S458, S459, S460, S461, S462, S463,
    S464, S465, S466, S467, S468, S469, S470, S471,
    S472, S473, S474, S475, S476, S477, S478, S479,
    S480, S481, S482, S483, S484, S485, S486, S487,
    S488, S489, S490, S491, S492, S493, S494, S495,
    S496, S497, S498, S499, S500, S501, S502, S503,
    S504, S505, S506, S507, S508, S509, S510, S511,
}

impl Nine {
    /// The low nine bits of `bits`.
    #[inline(always)]
    pub(crate) const fn new(bits: u16) -> Nine {
        // SAFETY: `Nine` is `repr(u16)` and its 512 fieldless variants take the values
        // 0..512 in order (the assertions below and the test check it), so every value of
        // the low nine bits is one of them.
        #[allow(unsafe_code)]
        unsafe {
            core::mem::transmute::<u16, Nine>(bits & 0x1ff)
        }
    }

    /// The value, `0..512`.
    #[inline(always)]
    pub(crate) const fn get(self) -> u16 {
        self as u16
    }
}

const _: () = assert!(Nine::S000 as u16 == 0 && Nine::S511 as u16 == 511);
const _: () = assert!(core::mem::size_of::<Nine>() == 2);

#[cfg(test)]
mod tests {
    use super::Nine;

    #[test]
    fn every_value_is_its_low_nine_bits() {
        for bits in 0..=u16::MAX {
            assert_eq!(Nine::new(bits).get(), bits & 0x1ff, "{bits}");
        }
        assert_eq!(Nine::default().get(), 0);
        assert!(Nine::new(3) < Nine::new(4) && Nine::new(511) > Nine::new(256));
    }
}
