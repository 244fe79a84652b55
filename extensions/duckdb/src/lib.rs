//! The tic-tac-toe functions and `read_ttt` as a DuckDB loadable extension, on DuckDB's C
//! extension API (the `duckdb` crate's `loadable-extension`).
//!
//! Every scalar function is a lookup by grid index in the tables the Python module uses (the
//! `tictactoe-kernels` crate, kernels/, built once from the library), so the answers are the
//! core's.
#![allow(unsafe_code)] // the duckdb crate's vector accessors are `unsafe`: see each SAFETY note

use std::error::Error;
use std::fs::File;
use std::io::BufReader;
use std::sync::Mutex;

use duckdb::core::{DataChunkHandle, LogicalTypeHandle, LogicalTypeId};
use duckdb::ffi::duckdb_string_t;
use duckdb::types::DuckString;
use duckdb::vscalar::{ScalarFunctionSignature, VScalar};
use duckdb::vtab::arrow::WritableVector;
use duckdb::vtab::{BindInfo, InitInfo, TableFunctionInfo, VTab};
use duckdb::{Connection, duckdb_entrypoint_c_api};
use tictactoe::Board;
use tictactoe::encoding::Base3;
use tictactoe::file::Reader;
use tictactoe_kernels::tables::{INVALID, Kind, Tables, tables};
use tictactoe_kernels::{kind_named, thousands};

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// The encoding of a name, or an error listing the names.
fn kind_of(name: &str) -> Result<Kind> {
    Ok(kind_named("encoding", name)?)
}

/// The grid index of a code, `INVALID` for a code of the range that is not a grid; an error
/// naming the function for a code out of range.
fn grid(t: &Tables, kind: Kind, code: i64, function: &str) -> Result<u32> {
    let limit = i64::from(kind.limit());
    if !(0..limit).contains(&code) {
        return Err(format!(
            "ttt.{function}('{}'): {code} is not a {} code (0 to {})",
            kind.name(),
            kind.name(),
            thousands(kind.limit() - 1)
        )
        .into());
    }
    Ok(match kind {
        Kind::Base3 => code as u32,
        _ => u32::from(t.grid_of_code[kind as usize][code as usize]),
    })
}

/// The encoding argument of row 0 (a constant: DuckDB passes it flat, repeated), `base3`
/// without one.
fn encoding(input: &DataChunkHandle) -> Result<Kind> {
    if input.num_columns() < 2 || input.is_empty() {
        return Ok(Kind::Base3);
    }
    let v = input.flat_vector(1);
    // SAFETY: column 1 is VARCHAR (the signatures), and the chunk holds `len` rows.
    let strings = unsafe { v.as_slice_with_len::<duckdb_string_t>(input.len()) };
    let mut first = strings[0];
    let name = DuckString::new(&mut first).as_str().to_string();
    for s in &strings[1..] {
        let mut s = *s;
        if DuckString::new(&mut s).as_str() != name {
            return Err(
                "argument `encoding` must be one constant string for the whole column".into(),
            );
        }
    }
    kind_of(&name)
}

/// One function: its name, answer type and the answer of a grid index.
trait Answer {
    const NAME: &'static str;
    const CHECKED: bool = true;
    type Out: Copy + 'static;
    fn logical_type() -> LogicalTypeId;
    fn of(t: &Tables, grid: u32) -> Self::Out;
}

struct Scalar<A>(std::marker::PhantomData<A>);

impl<A: Answer> VScalar for Scalar<A> {
    type State = ();

    fn invoke(_: &(), input: &mut DataChunkHandle, output: &mut dyn WritableVector) -> Result<()> {
        let t = tables();
        let len = input.len();
        let kind = encoding(input)?;
        let codes = input.flat_vector(0);
        // SAFETY: column 0 is BIGINT (the signatures) with `len` rows.
        let src = unsafe { codes.as_slice_with_len::<i64>(len) };
        let mut out = output.flat_vector();
        // SAFETY: the output vector has the function's return type, `A::Out`, and `len` rows.
        let dst = unsafe { out.as_mut_slice_with_len::<A::Out>(len) };
        let mut nulls = Vec::new();
        for (i, (d, &code)) in dst.iter_mut().zip(src).enumerate() {
            if codes.row_is_null(i as u64) {
                nulls.push(i);
                continue;
            }
            let g = if A::CHECKED {
                grid(t, kind, code, A::NAME)?
            } else {
                grid(t, kind, code, A::NAME).unwrap_or(INVALID)
            };
            *d = A::of(t, g);
        }
        for i in nulls {
            out.set_null(i);
        }
        Ok(())
    }

    fn signatures() -> Vec<ScalarFunctionSignature> {
        let out = || LogicalTypeHandle::from(A::logical_type());
        let code = || LogicalTypeHandle::from(LogicalTypeId::Bigint);
        let varchar = || LogicalTypeHandle::from(LogicalTypeId::Varchar);
        vec![
            ScalarFunctionSignature::exact(vec![code()], out()),
            ScalarFunctionSignature::exact(vec![code(), varchar()], out()),
        ]
    }
}

macro_rules! answers {
    ($($ty:ident $name:literal $(unchecked $unchecked:tt)?: $out:ty, $id:ident, |$t:ident, $g:ident| $body:expr;)*) => {$(
        struct $ty;
        impl Answer for $ty {
            const NAME: &'static str = $name;
            $(const CHECKED: bool = $unchecked;)?
            type Out = $out;
            fn logical_type() -> LogicalTypeId {
                LogicalTypeId::$id
            }
            fn of($t: &Tables, $g: u32) -> $out {
                $body
            }
        }
    )*
    fn register_scalars(con: &Connection) -> Result<()> {
        $(con.register_scalar_function::<Scalar<$ty>>(concat!("ttt_", $name))?;)*
        Ok(())
    }
    };
}

answers! {
    IsValid "is_valid" unchecked false: bool, Boolean, |t, g| t.is_grid[g as usize];
    IsPosition "is_position": bool, Boolean, |t, g| t.is_position[g as usize];
    Violations "violations": i16, Smallint, |t, g| i16::from(t.violations[g as usize]);
    Status "status": i8, Tinyint, |t, g| t.status[g as usize];
    Winner "winner": i8, Tinyint, |t, g| t.winner[g as usize];
    ToMove "to_move": i8, Tinyint, |t, g| t.to_move[g as usize];
    LegalMoves "legal_moves": i32, Integer, |t, g| i32::from(t.legal[g as usize]);
    Value "value": i8, Tinyint, |t, g| t.value[g as usize];
    Distance "distance": i8, Tinyint, |t, g| t.distance[g as usize];
    BestMoves "best_moves": i32, Integer, |t, g| i32::from(t.best[g as usize]);
    Canonical "canonical": i32, Integer, |t, g| t.code[Kind::Canonical as usize][g as usize];
    Symmetry "symmetry": i8, Tinyint, |t, g| t.symmetry[g as usize];
}

/// `read_ttt(path [, salvage := true])`: the records of a `.ttt` file as `(record BIGINT,
/// base3 SMALLINT)`, streamed block by block (memory: one block), every block checked by the
/// library's reader. Damage is an error naming the file and block; with `salvage := true` the
/// reader skips damaged blocks instead and returns every intact record wherever its block sits,
/// `record` being its place in the file (as `ttt unpack --salvage` and Python's
/// `read_ttt(path, salvage=True)` do).
struct ReadTtt;

struct Bind {
    path: String,
    salvage: bool,
}

struct Scan {
    state: Mutex<ScanState>,
}

struct ScanState {
    reader: Reader<BufReader<File>>,
    boards: Vec<Board>,
    /// The next record of `boards` to output, and the record number of `boards[0]`.
    next: usize,
    first: u64,
}

impl VTab for ReadTtt {
    type InitData = Scan;
    type BindData = Bind;

    fn bind(bind: &BindInfo) -> Result<Bind> {
        bind.add_result_column("record", LogicalTypeHandle::from(LogicalTypeId::Bigint));
        bind.add_result_column("base3", LogicalTypeHandle::from(LogicalTypeId::Smallint));
        let salvage = match bind.get_named_parameter("salvage") {
            Some(value) if value.is_null() => {
                return Err("read_ttt: salvage must be true or false, got NULL".into());
            }
            Some(value) => value.to_bool(),
            None => false,
        };
        Ok(Bind {
            path: bind.get_parameter(0).to_string(),
            salvage,
        })
    }

    fn init(init: &InitInfo) -> Result<Scan> {
        // SAFETY: the bind data of this function is a `Bind`, alive while the scan runs.
        let (path, salvage) = unsafe {
            let bind = &*init.get_bind_data::<Bind>();
            (bind.path.clone(), bind.salvage)
        };
        let file = File::open(&path).map_err(|e| format!("{path}: {e}"))?;
        // The size of a regular file lets salvage take blocks found far from their place
        // (as `ttt unpack --salvage` does).
        let len = file
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| m.len());
        let mut reader = Reader::new(BufReader::with_capacity(1 << 17, file))
            .map_err(|e| format!("{path}: {e}"))?;
        if let Some(len) = len {
            reader = reader.input_len(len);
        }
        if salvage {
            reader = reader.salvage();
        }
        Ok(Scan {
            state: Mutex::new(ScanState {
                reader,
                boards: Vec::new(),
                next: 0,
                first: 0,
            }),
        })
    }

    fn func(func: &TableFunctionInfo<Self>, output: &mut DataChunkHandle) -> Result<()> {
        let path = &func.get_bind_data().path;
        let mut s = func
            .get_init_data()
            .state
            .lock()
            .map_err(|_| format!("{path}: a previous read failed"))?;
        if s.next == s.boards.len() {
            s.boards.clear();
            s.next = 0;
            let ScanState { reader, boards, .. } = &mut *s;
            let more = reader
                .read_block(boards)
                .map_err(|e| format!("{path}: {e}"))?;
            if !more {
                output.set_len(0);
                return Ok(());
            }
            // The block's place in the file: a salvaging reader may find blocks out of order.
            s.first = s.reader.block_first_record();
        }
        let n = (s.boards.len() - s.next).min(2048);
        let records = output.flat_vector(0);
        let codes = output.flat_vector(1);
        // SAFETY: the two columns are BIGINT and SMALLINT (bind) and hold 2,048 rows.
        let (rec, b3) = unsafe {
            (
                std::slice::from_raw_parts_mut(records.as_mut_ptr::<i64>(), n),
                std::slice::from_raw_parts_mut(codes.as_mut_ptr::<i16>(), n),
            )
        };
        let start = s.next;
        for i in 0..n {
            rec[i] = (s.first + (start + i) as u64) as i64;
            b3[i] = Base3::from_board(s.boards[start + i]).code() as i16;
        }
        s.next += n;
        output.set_len(n);
        Ok(())
    }

    fn parameters() -> Option<Vec<LogicalTypeHandle>> {
        Some(vec![LogicalTypeHandle::from(LogicalTypeId::Varchar)])
    }

    fn named_parameters() -> Option<Vec<(String, LogicalTypeHandle)>> {
        Some(vec![(
            "salvage".to_owned(),
            LogicalTypeHandle::from(LogicalTypeId::Boolean),
        )])
    }
}

/// The extension's entry point: registers the functions on the connection DuckDB gives.
///
/// # Errors
/// A registration DuckDB refuses.
#[duckdb_entrypoint_c_api(ext_name = "tictactoe", min_duckdb_version = "v1.2.0")]
pub fn extension_entrypoint(con: Connection) -> Result<()> {
    register_scalars(&con)?;
    con.register_table_function::<ReadTtt>("read_ttt")?;
    Ok(())
}
