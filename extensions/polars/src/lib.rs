//! The tic-tac-toe functions as a Polars expression plugin (`pyo3-polars`): Polars loads this
//! library by path and runs each function on its Arrow chunks inside the query engine, with no
//! Python per batch (`tictactoe_rs.data.register_polars(plugin=...)` makes the `ttt`
//! namespace call it).
//!
//! Every function takes a column of integer codes (any width) and the keyword `encoding`
//! (`convert` also `to`), and answers what the Python module's function of the same name
//! answers: the same kernels on the same tables (the `tictactoe-kernels` crate, kernels/, that
//! the Python module uses too). A null gives a null; a column that does not hold integers is an
//! error naming its type (when the query is planned); a code outside its encoding's range is an
//! error naming the function, the item and the code, as in the `map_batches` namespace
//! (`is_valid` alone answers `false` instead).

use std::fmt::Display;
use std::sync::OnceLock;

use polars::prelude::*;
use pyo3_polars::PolarsAllocator;
use pyo3_polars::derive::polars_expr;
use pyo3_polars::export::polars_arrow as arrow;
use serde::Deserialize;

use arrow::array::{BooleanArray, FixedSizeListArray, MutableBinaryViewArray, PrimitiveArray};
use arrow::bitmap::Bitmap;
use arrow::datatypes::ArrowDataType;
use arrow::types::NativeType;
use tictactoe_kernels::kernels::{Code, answer_by_sets, boards_of_grids, map_grids};
use tictactoe_kernels::tables::{ENTRIES, FACT_PAIRS, INVALID, Kind, fact_tables, tables};
use tictactoe_kernels::{kind_named, thousands};

// Memory the plugin hands to Polars is freed by Polars: both use Polars' allocator.
#[global_allocator]
static ALLOC: PolarsAllocator = PolarsAllocator::new();

/// The keyword arguments of every function (pickled by `register_plugin_function`).
#[derive(Deserialize)]
struct Args {
    /// The codes' encoding.
    encoding: String,
    /// `convert`'s target encoding.
    #[serde(default)]
    to: Option<String>,
}

/// One function of the plugin: its name (the Python method's, and the symbol's after
/// `_polars_plugin_`) and the type of its answers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Function {
    IsValid,
    IsPosition,
    Violations,
    Status,
    Winner,
    ToMove,
    LegalMoves,
    Value,
    Distance,
    BestMoves,
    Canonical,
    Symmetry,
    Decode,
    Board,
    Convert,
}

impl Function {
    const fn name(self) -> &'static str {
        match self {
            Function::IsValid => "is_valid",
            Function::IsPosition => "is_position",
            Function::Violations => "violations",
            Function::Status => "status",
            Function::Winner => "winner",
            Function::ToMove => "to_move",
            Function::LegalMoves => "legal_moves",
            Function::Value => "value",
            Function::Distance => "distance",
            Function::BestMoves => "best_moves",
            Function::Canonical => "canonical",
            Function::Symmetry => "symmetry",
            Function::Decode => "decode",
            Function::Board => "board",
            Function::Convert => "convert",
        }
    }

    fn dtype(self) -> DataType {
        match self {
            Function::IsValid | Function::IsPosition => DataType::Boolean,
            Function::Violations => DataType::Int16,
            Function::Status
            | Function::Winner
            | Function::ToMove
            | Function::Value
            | Function::Distance
            | Function::Symmetry => DataType::Int8,
            Function::LegalMoves
            | Function::BestMoves
            | Function::Canonical
            | Function::Convert => DataType::Int32,
            Function::Decode => DataType::Array(Box::new(DataType::Int8), 9),
            Function::Board => DataType::String,
        }
    }
}

/// A call: the function and its encodings.
struct Call {
    function: Function,
    from: Kind,
    to: Kind,
}

impl Call {
    fn new(function: Function, args: &Args) -> PolarsResult<Call> {
        let from = kind("encoding", &args.encoding)?;
        let to = match (function, &args.to) {
            (Function::Convert, Some(to)) => kind("to", to)?,
            (Function::Convert, None) => {
                polars_bail!(InvalidOperation: "ttt.convert: argument `to` is missing")
            }
            _ => from,
        };
        Ok(Call { function, from, to })
    }

    /// The call as the messages name it: `ttt.status('base3')`, `ttt.convert('base3', 'rank')`.
    fn at(&self) -> String {
        let name = self.function.name();
        match self.function {
            Function::Convert => {
                format!("ttt.{name}('{}', '{}')", self.from.name(), self.to.name())
            }
            _ => format!("ttt.{name}('{}')", self.from.name()),
        }
    }

    /// An error for a column of type `dtype`.
    fn not_integers(&self, dtype: &DataType) -> PolarsError {
        polars_err!(
            InvalidOperation: "{}: the codes must be integers, got {dtype:?} (never truncated to codes)",
            self.at()
        )
    }

    /// An error for the first code of `codes` (nulls aside) outside `0 .. limit - 1`, if any.
    fn check_range<C: Code + Display>(
        &self,
        codes: &[C],
        validity: Option<&Bitmap>,
    ) -> PolarsResult<()> {
        let limit = self.from.limit();
        // One branch-free pass over the bits (a negative code's have bit 63 set), which the
        // compiler vectorises, for the usual answer: none is.
        let limit_bits = u64::from(limit);
        if !codes
            .iter()
            .fold(false, |out, c| out | (c.to_bits() >= limit_bits))
        {
            return Ok(());
        }
        let outside =
            |&(i, c): &(usize, &C)| c.to_code() >= limit && validity.is_none_or(|v| v.get_bit(i));
        match codes.iter().enumerate().find(outside) {
            None => Ok(()),
            Some((i, code)) => Err(polars_err!(
                ComputeError: "{}: item {i} of the batch: {code} is not a {} code (0 to {})",
                self.at(),
                self.from.name(),
                thousands(limit - 1)
            )),
        }
    }
}

/// The encoding named `name` (argument `argument`), or an error listing the names.
fn kind(argument: &str, name: &str) -> PolarsResult<Kind> {
    kind_named(argument, name).map_err(|message| polars_err!(InvalidOperation: "{message}"))
}

/// The answers of `codes` from a table with one entry per grid index (`by_facts`: the same
/// indexed by the facts of a `bitboards` code's two sets, its direct path), each through
/// `widen`. A code outside the range gets the table's sentinel, so only when a sentinel is
/// among the answers are the codes checked (unless the function is `is_valid`).
fn by_table<C: Code + Display, T: Copy, O: Copy + Default + PartialEq>(
    call: &Call,
    codes: &[C],
    validity: Option<&Bitmap>,
    table: &[T; ENTRIES],
    by_facts: Option<&[T; FACT_PAIRS]>,
    widen: impl Fn(T) -> O + Copy,
) -> PolarsResult<Vec<O>> {
    let mut out = vec![O::default(); codes.len()];
    let sentinel = widen(table[INVALID as usize]);
    match (call.from, by_facts) {
        (Kind::BitboardPair, Some(by_facts)) => {
            let facts = &fact_tables().facts;
            let answer = |pair: u32| widen(by_facts[pair as usize]);
            answer_by_sets(codes, facts, &mut out, answer, sentinel);
        }
        (kind, _) => map_grids(tables(), kind, codes, &mut out, |g| {
            widen(table[g as usize])
        }),
    }
    if call.function != Function::IsValid && out.contains(&sentinel) {
        call.check_range(codes, validity)?;
    }
    Ok(out)
}

/// The codes in `call.to` (-1 where it cannot hold the board), as the Python `convert`.
fn convert<C: Code + Display>(
    call: &Call,
    codes: &[C],
    validity: Option<&Bitmap>,
) -> PolarsResult<Vec<i32>> {
    let t = tables();
    let mut out = vec![0i32; codes.len()];
    if let (Kind::BitboardPair, Some(sets)) = (call.from, &t.code_by_sets[call.to as usize]) {
        answer_by_sets(codes, sets, &mut out, |code| code as i32, -1);
    } else if call.to == Kind::Base3 {
        // The grid index is the base-3 code.
        map_grids(t, call.from, codes, &mut out, |g| {
            if g < INVALID { g as i32 } else { -1 }
        });
    } else {
        let table = &*t.code[call.to as usize];
        map_grids(t, call.from, codes, &mut out, |g| table[g as usize]);
    }
    if out.contains(&-1) {
        call.check_range(codes, validity)?;
    }
    Ok(out)
}

/// The grid indices of `codes`, every one checked first.
fn grids<C: Code + Display>(
    call: &Call,
    codes: &[C],
    validity: Option<&Bitmap>,
) -> PolarsResult<Vec<u32>> {
    call.check_range(codes, validity)?;
    let mut out = vec![0u32; codes.len()];
    map_grids(tables(), call.from, codes, &mut out, |g| g);
    Ok(out)
}

/// Each grid's nine characters (`.`, `X`, `O`; `?` for the cells of a code with no board),
/// built once.
fn board_texts() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let t = tables();
        let mut cells = vec![0i8; ENTRIES * 9];
        let grids: Vec<u32> = (0..ENTRIES as u32).collect();
        boards_of_grids(t, &grids, &mut cells);
        let char_of = |&c: &i8| match c {
            0 => '.',
            1 => 'X',
            2 => 'O',
            _ => '?',
        };
        cells
            .chunks_exact(9)
            .map(|row| row.iter().map(char_of).collect())
            .collect()
    })
}

fn primitive<O: NativeType>(out: Vec<O>, validity: Option<&Bitmap>) -> ArrayRef {
    PrimitiveArray::from_vec(out)
        .with_validity(validity.cloned())
        .boxed()
}

fn booleans(out: &[bool], validity: Option<&Bitmap>) -> ArrayRef {
    BooleanArray::from_slice(out)
        .with_validity(validity.cloned())
        .boxed()
}

fn same<T>(x: T) -> T {
    x
}

/// The answers of one chunk: its values (the slots of nulls hold some value, whose answer the
/// validity hides) and its validity.
fn answer<C: Code + Display>(
    call: &Call,
    codes: &[C],
    validity: Option<&Bitmap>,
) -> PolarsResult<ArrayRef> {
    let (t, f) = (tables(), fact_tables());
    Ok(match call.function {
        Function::IsValid => booleans(
            &by_table(call, codes, validity, &t.is_grid, Some(&*f.is_grid), same)?,
            validity,
        ),
        Function::IsPosition => {
            let out = by_table(
                call,
                codes,
                validity,
                &t.is_position,
                Some(&*f.is_position),
                same,
            )?;
            booleans(&out, validity)
        }
        Function::Violations => {
            let out = by_table(
                call,
                codes,
                validity,
                &t.violations,
                Some(&*f.violations),
                i16::from,
            )?;
            primitive(out, validity)
        }
        Function::Status => primitive(
            by_table(call, codes, validity, &t.status, Some(&*f.status), same)?,
            validity,
        ),
        Function::Winner => primitive(
            by_table(call, codes, validity, &t.winner, Some(&*f.winner), same)?,
            validity,
        ),
        Function::ToMove => primitive(
            by_table(call, codes, validity, &t.to_move, Some(&*f.to_move), same)?,
            validity,
        ),
        Function::LegalMoves => primitive(
            by_table(call, codes, validity, &t.legal, None, i32::from)?,
            validity,
        ),
        Function::Value => primitive(
            by_table(call, codes, validity, &t.value, None, same)?,
            validity,
        ),
        Function::Distance => primitive(
            by_table(call, codes, validity, &t.distance, None, same)?,
            validity,
        ),
        Function::BestMoves => primitive(
            by_table(call, codes, validity, &t.best, None, i32::from)?,
            validity,
        ),
        Function::Canonical => {
            let table = &*t.code[Kind::Canonical as usize];
            primitive(
                by_table(call, codes, validity, table, None, same)?,
                validity,
            )
        }
        Function::Symmetry => primitive(
            by_table(call, codes, validity, &t.symmetry, None, same)?,
            validity,
        ),
        Function::Convert => primitive(convert(call, codes, validity)?, validity),
        Function::Decode => {
            let grids = grids(call, codes, validity)?;
            let mut cells = vec![0i8; grids.len() * 9];
            boards_of_grids(t, &grids, &mut cells);
            let dtype = FixedSizeListArray::default_datatype(ArrowDataType::Int8, 9);
            let values = PrimitiveArray::from_vec(cells).boxed();
            FixedSizeListArray::try_new(dtype, grids.len(), values, validity.cloned())?.boxed()
        }
        Function::Board => {
            let texts = board_texts();
            let grids = grids(call, codes, validity)?;
            let mut out = MutableBinaryViewArray::<str>::with_capacity(grids.len());
            for &g in &grids {
                out.push_value_ignore_validity(&texts[g as usize]);
            }
            out.freeze().with_validity(validity.cloned()).boxed()
        }
    })
}

/// Runs `$body` with `$codes` and `$validity` bound to each chunk of series `$s` in turn, as
/// the slice of its integer type; an error naming the type for any other column.
macro_rules! per_chunk {
    ($s:expr, $call:expr, |$codes:ident, $validity:ident| $body:expr) => {{
        macro_rules! chunks {
            ($ca:expr) => {
                $ca.downcast_iter()
                    .map(|a| {
                        let ($codes, $validity) = (a.values().as_slice(), a.validity());
                        $body
                    })
                    .collect::<PolarsResult<Vec<ArrayRef>>>()
            };
        }
        match $s.dtype() {
            DataType::Int8 => chunks!($s.i8()?),
            DataType::Int16 => chunks!($s.i16()?),
            DataType::Int32 => chunks!($s.i32()?),
            DataType::Int64 => chunks!($s.i64()?),
            DataType::UInt8 => chunks!($s.u8()?),
            DataType::UInt16 => chunks!($s.u16()?),
            DataType::UInt32 => chunks!($s.u32()?),
            DataType::UInt64 => chunks!($s.u64()?),
            other => Err($call.not_integers(other)),
        }
    }};
}

/// The column of answers of `function` for the first input.
fn run(function: Function, inputs: &[Series], args: &Args) -> PolarsResult<Series> {
    let call = Call::new(function, args)?;
    let Some(s) = inputs.first() else {
        polars_bail!(InvalidOperation: "{}: no column of codes", call.at());
    };
    let chunks = per_chunk!(s, call, |codes, validity| answer(&call, codes, validity))?;
    if chunks.is_empty() {
        return Ok(Series::new_empty(s.name().clone(), &function.dtype()));
    }
    Series::try_from((s.name().clone(), chunks))
}

/// The answers' field, named as the input; an error naming the type of a column that does
/// not hold integers, when the query is planned.
fn field(function: Function, inputs: &[Field], args: &Args) -> PolarsResult<Field> {
    let call = Call::new(function, args)?;
    let Some(input) = inputs.first() else {
        polars_bail!(InvalidOperation: "{}: no column of codes", call.at());
    };
    if !input.dtype().is_integer() {
        return Err(call.not_integers(input.dtype()));
    }
    Ok(Field::new(input.name().clone(), function.dtype()))
}

/// One exported function per [`Function`]: `_polars_plugin_NAME` and its field function.
macro_rules! functions {
    ($($name:ident $field:ident: $function:ident;)*) => {$(
        fn $field(inputs: &[Field], kwargs: Args) -> PolarsResult<Field> {
            field(Function::$function, inputs, &kwargs)
        }

        #[polars_expr(output_type_func_with_kwargs = $field)]
        fn $name(inputs: &[Series], kwargs: Args) -> PolarsResult<Series> {
            run(Function::$function, inputs, &kwargs)
        }
    )*};
}

functions! {
    is_valid is_valid_field: IsValid;
    is_position is_position_field: IsPosition;
    violations violations_field: Violations;
    status status_field: Status;
    winner winner_field: Winner;
    to_move to_move_field: ToMove;
    legal_moves legal_moves_field: LegalMoves;
    value value_field: Value;
    distance distance_field: Distance;
    best_moves best_moves_field: BestMoves;
    canonical canonical_field: Canonical;
    symmetry symmetry_field: Symmetry;
    decode decode_field: Decode;
    board board_field: Board;
    convert convert_field: Convert;
}
