"""``python -m tictactoe_rs.data``: the tables as Parquet, .ttt <-> Parquet, self-play to Parquet.

    python -m tictactoe_rs.data tables OUTDIR
    python -m tictactoe_rs.data selfplay OUTDIR --games N [--seed S] [--games-per-file K]
                                         [--layout states|compact|games|codes]
    python -m tictactoe_rs.data ttt2parquet FILE.ttt FILE.parquet [--code rank] [--salvage] [--lossy NAME]
    python -m tictactoe_rs.data parquet2ttt FILE.parquet FILE.ttt [--encoding ENC] [--column C] [--code ENC]
                                            [--lossy NAME]
    python -m tictactoe_rs.data verify FILE.parquet ...
    python -m tictactoe_rs.data duckdb-db FILE.duckdb
    python -m tictactoe_rs.data family GAME OUTDIR [--plies N] [--spark MASTER] [--solve]

Every writer puts a dataset card beside its output (``_dataset_card.md`` in a directory,
``_NAME.card.md`` beside a file).

Exit status: 0 success, 1 an error (one line, naming the file), 3 damaged data partly
recovered (``ttt2parquet --salvage`` lost records; each loss is reported as by
``ttt unpack --salvage``).
"""

from __future__ import annotations

import argparse
import sys

import tictactoe_rs.data as td
from tictactoe_rs.data import _card

#: Exit status for damaged data partly recovered (as the `ttt` CLI's).
DAMAGED = 3


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
    p.add_argument("--layout", choices=list(td.LAYOUTS), default="states",
                   help="states (game, ply, rank); compact (the same, delta + dictionary); "
                   "games (game, code); codes (game codes only)")
    p.add_argument("--games-per-file", type=int, default=1 << 20)
    p.add_argument("--compression", default="zstd")
    p = sub.add_parser("ttt2parquet", help="a .ttt file as a Parquet file")
    p.add_argument("src")
    p.add_argument("dst")
    p.add_argument("--code", default=None, help="the column's encoding (default: the file's)")
    p.add_argument("--compression", default="zstd")
    p.add_argument("--salvage", action="store_true",
                   help="skip damaged blocks, report what was lost (exit 3), add a record column")
    p.add_argument("--lossy", choices=sorted(td.LOSSY), default=None,
                   help="allow this lossy conversion (canonical: the orientation is lost)")
    p = sub.add_parser("parquet2ttt", help="a Parquet code column as a .ttt file")
    p.add_argument("src")
    p.add_argument("dst")
    p.add_argument("--encoding", default=None,
                   help="the .ttt encoding (default: the source .ttt file's, recorded by ttt2parquet, else rank)")
    p.add_argument("--column", default=None)
    p.add_argument("--code", default=None, help="the column's encoding if its metadata lacks it")
    p.add_argument("--lossy", choices=sorted(td.LOSSY), default=None,
                   help="allow this lossy conversion (canonical codes; a salvaged file)")
    p = sub.add_parser("duckdb-db", help="a DuckDB database file of the dimension tables")
    p.add_argument("path")
    p = sub.add_parser("family", help="every reachable position of a game of the family, by ply, as Parquet")
    p.add_argument("game", help="a game spec: 4x4, connect-four, 3,4,3, ...")
    p.add_argument("outdir")
    p.add_argument("--plies", type=int, default=None, help="stop after this many plies (default: all)")
    p.add_argument("--spark", default=None, metavar="MASTER",
                   help="run on Spark with this master URL (local[2], spark://host:7077, yarn, ...)")
    p.add_argument("--solve", action="store_true",
                   help="add each position's perfect-play value and distance (every ply, locally)")
    p = sub.add_parser("verify", help="read every page of Parquet files, checksums verified")
    p.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    _card.COMMAND[:] = ["python -m tictactoe_rs.data", *(sys.argv[1:] if argv is None else argv)]
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
            done = td.ttt_to_parquet(
                args.src, args.dst, args.code, args.compression, args.salvage, args.lossy
            )
            print(f"{done.records} records to {args.dst}")
            if done.damaged:
                # The lines of `ttt unpack --salvage`: each loss, then the total.
                for lost in done.lost:
                    print(f"{args.src}: {lost}", file=sys.stderr)
                print(f"{args.src}: {done.summary()}", file=sys.stderr)
                return DAMAGED
        elif args.command == "duckdb-db":
            print(td.duckdb_database(args.path))
        elif args.command == "family":
            from tictactoe_rs.data import family

            if args.solve and (args.spark or args.plies is not None):
                parser.error("family --solve needs every ply, locally: no --plies, no --spark")
            if args.spark:
                if args.plies is None:
                    parser.error("family --spark needs --plies")
                from pyspark.sql import SparkSession

                spark = SparkSession.builder.master(args.spark).appName("tictactoe-family").getOrCreate()
                layers = family.spark_write_positions(spark, args.game, args.outdir, args.plies)
            else:
                layers = family.write_positions(args.game, args.outdir, args.plies, solve=args.solve)
            print("| ply | positions | X won | O won | draws | ongoing | seconds (cumulative) |")
            print("|---|---|---|---|---|---|---|")
            for layer in layers:
                print("| " + " | ".join(f"{v:,}" for v in layer.counts()) + f" | {layer.seconds:.2f} |")
            print(f"total: {sum(layer.positions for layer in layers):,} positions in {args.outdir}")
        elif args.command == "verify":
            for path in args.files:
                print(f"{path}: {td.verify_parquet(path)} rows, every page checksum verified")
        else:
            n = td.parquet_to_ttt(args.src, args.dst, args.encoding, args.column, args.code, args.lossy)
            print(f"{n} records to {args.dst}")
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        _card.COMMAND[:] = [None]
    return 0


if __name__ == "__main__":
    sys.exit(main())
