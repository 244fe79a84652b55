"""``python -m tictactoe_rs.data``: the tables as Parquet, .ttt <-> Parquet, self-play to Parquet.

    python -m tictactoe_rs.data tables OUTDIR
    python -m tictactoe_rs.data selfplay OUTDIR --games N [--seed S] [--layout states|games] [--games-per-file K]
    python -m tictactoe_rs.data ttt2parquet FILE.ttt FILE.parquet [--code rank] [--salvage]
    python -m tictactoe_rs.data parquet2ttt FILE.parquet FILE.ttt [--encoding ENC] [--column C] [--code ENC]
"""

from __future__ import annotations

import argparse
import sys

import tictactoe_rs.data as td


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tictactoe_rs.data", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("tables", help="write positions, grids and games as Parquet into OUTDIR")
    p.add_argument("outdir")
    p.add_argument("--compression", default="zstd")
    p = sub.add_parser("selfplay", help="random self-play as partitioned Parquet files")
    p.add_argument("outdir")
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--layout", choices=["states", "games"], default="states")
    p.add_argument("--games-per-file", type=int, default=1 << 20)
    p.add_argument("--compression", default="zstd")
    p = sub.add_parser("ttt2parquet", help="a .ttt file as a Parquet file")
    p.add_argument("src")
    p.add_argument("dst")
    p.add_argument("--code", default=None, help="the column's encoding (default: the file's)")
    p.add_argument("--compression", default="zstd")
    p.add_argument("--salvage", action="store_true", help="skip damaged blocks")
    p = sub.add_parser("parquet2ttt", help="a Parquet code column as a .ttt file")
    p.add_argument("src")
    p.add_argument("dst")
    p.add_argument("--encoding", default=None,
                   help="the .ttt encoding (default: the source .ttt file's, recorded by ttt2parquet, else rank)")
    p.add_argument("--column", default=None)
    p.add_argument("--code", default=None, help="the column's encoding if its metadata lacks it")
    args = parser.parse_args(argv)
    try:
        if args.command == "tables":
            for path in td.write_tables(args.outdir, args.compression):
                print(path)
        elif args.command == "selfplay":
            paths = td.selfplay_to_parquet(
                args.outdir, args.games, args.seed, args.layout, args.games_per_file, args.compression
            )
            print(f"{len(paths)} files in {args.outdir}")
        elif args.command == "ttt2parquet":
            n = td.ttt_to_parquet(args.src, args.dst, args.code, args.compression, args.salvage)
            print(f"{n} records to {args.dst}")
        else:
            n = td.parquet_to_ttt(args.src, args.dst, args.encoding, args.column, args.code)
            print(f"{n} records to {args.dst}")
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
