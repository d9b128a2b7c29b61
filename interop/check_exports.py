"""Reads clinetrail's exports back with each engine's default call and checks them against the warehouse.

Usage: python interop/check_exports.py OUT DEST CLI...   (DEST: a folder for the exports, outside OUT)

1. row_id round trips (issue 28): clinetrail exports the events view as parquet, jsonl, csv and timesketch
   into DEST; pandas, pyarrow, polars and DuckDB read each file with their default call, and each must give
   a row_id column of text (DuckDB: text or UUID) holding the warehouse's row_id of every row, in order;
   then DuckDB joins the file to the warehouse's events on row_id as it is (clinetrail query --allow-read).
   Two readers need an option for the files' other columns, named on their lines: pyarrow's CSV reader for
   texts of several lines, polars' JSON reader for a column empty in the first 100 lines.
2. The Parquet dataset for engines: `export --format parquet-dataset --part-size 1MB` writes several parts,
   each but the last at least 1 MiB, timestamp_utc INT64 microseconds adjusted to UTC; each reader opens
   the folder and gets the events' rows in their order, and DuckDB finds the content equal to events.
3. Findings: clinetrail hunt stores them; exported as csv and parquet, each reader gives every finding's
   row_id as text equal to the findings table's, and DuckDB joins each to its events row.
Prints one PASS/FAIL line per check and exits 1 when any fails.
"""

import glob
import json
import os
import subprocess
import sys
import traceback
import uuid
import warnings

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.dataset as ds
import pyarrow.json as pa_json
import pyarrow.parquet as pq

from check import warehouse

warnings.filterwarnings("ignore")
PART_BYTES = 1024 * 1024
NEWLINES = pa_csv.ParseOptions(newlines_in_values=True)


def row_ids(frame):
    """The row_id column of a reader's result: its type as the engine names it, whether that is text, its values."""
    if isinstance(frame, pa.Table):
        t = frame.schema.field("row_id").type
        return str(t), pa.types.is_string(t) or pa.types.is_large_string(t), frame.column("row_id").to_pylist()
    if isinstance(frame, pl.DataFrame):
        t = frame.schema["row_id"]
        return str(t), t == pl.String, frame["row_id"].to_list()
    if isinstance(frame, duckdb.DuckDBPyRelation):
        t = str(frame.select("row_id").types[0])
        return t, t in ("VARCHAR", "UUID"), [r[0] for r in frame.select("row_id").fetchall()]
    t = frame["row_id"].dtype
    return str(t), pd.api.types.is_string_dtype(t), frame["row_id"].tolist()


def check(name, read, expected):
    """One reader on one export: row_id is text and holds the expected ids, in order."""
    try:
        typ, is_text, values = row_ids(read())
        got = [str(v) if isinstance(v, uuid.UUID) else v for v in values]
        same = sum(1 for a, b in zip(got, expected) if a == b)
        ok = is_text and len(got) == len(expected) and same == len(expected)
        print(f"{'PASS' if ok else 'FAIL'} {name}: rows {len(got)}/{len(expected)}, row_id {typ}, {same}/{len(expected)} equal to the warehouse's in order")
        return ok
    except Exception as err:  # a reader that fails is a FAIL line, and the others still run
        print(f"FAIL {name}: {traceback.format_exception_only(err)[-1].strip()[:300]}")
        return False


def export(cli, out, fmt, to, *extra):
    subprocess.run([*cli, "export", "--out", out, "--format", fmt, "--to", to, "--force", *extra], check=True, capture_output=True)


def joined(out, dest, cli, reader, expected):
    """DuckDB joins the export to the warehouse's events on row_id as written (the UUID and its text)."""
    n = int(warehouse(out, cli, f"select count(*) from events e join {reader} x on e.row_id = x.row_id", dest)[0][0])
    ok = n == expected
    print(f"{'PASS' if ok else 'FAIL'} duckdb join events to {reader.split('(')[0]}: {n}/{expected} rows matched on row_id")
    return ok


def file_exports(out, dest, cli, all_ids):
    results = []
    for fmt in ("parquet", "jsonl", "csv", "timesketch"):
        f = os.path.join(dest, f"events.{fmt}")
        export(cli, out, fmt, f)
        # every format holds every event in the selection's order: a Timesketch export dates an undated row at
        # its file's mtime and says so in timestamp_desc (docs/CLI.md "Exporting")
        ids = all_ids
        if fmt == "parquet":
            readers = [
                ("pandas pd.read_parquet", lambda: pd.read_parquet(f)),
                ("pyarrow pq.read_table", lambda: pq.read_table(f)),
                ("polars pl.read_parquet", lambda: pl.read_parquet(f)),
                ("duckdb read_parquet", lambda: duckdb.read_parquet(f)),
            ]
            reader = f"read_parquet('{f}')"
        elif fmt == "csv":
            readers = [
                ("pandas pd.read_csv", lambda: pd.read_csv(f)),
                # pyarrow's default takes no line break inside a quoted field, which a text of several lines has
                ("pyarrow pyarrow.csv.read_csv(newlines_in_values=True)", lambda: pa_csv.read_csv(f, parse_options=NEWLINES)),
                ("polars pl.read_csv", lambda: pl.read_csv(f)),
                ("duckdb read_csv", lambda: duckdb.read_csv(f)),
            ]
            reader = f"read_csv('{f}')"
        else:
            readers = [
                ("pandas pd.read_json(lines=True)", lambda: pd.read_json(f, lines=True)),
                ("pyarrow pyarrow.json.read_json", lambda: pa_json.read_json(f)),
                # polars' default types each column by the first 100 lines: one empty in all of them (git_branch) fails
                ("polars pl.read_ndjson(infer_schema_length=None)", lambda: pl.read_ndjson(f, infer_schema_length=None)),
                ("duckdb read_json", lambda: duckdb.read_json(f)),
            ]
            reader = f"read_json('{f}')"
        results += [check(f"{fmt}: {name}", read, ids) for name, read in readers]
        results.append(joined(out, dest, cli, reader, len(ids)))
    return results


def dataset_export(out, dest, cli, all_ids):
    d = os.path.join(dest, "events-dataset")
    export(cli, out, "parquet-dataset", d, "--part-size", str(PART_BYTES))
    parts = sorted(glob.glob(os.path.join(d, "*")))
    sizes = [os.path.getsize(p) for p in parts]
    named = all(os.path.basename(p).startswith("part-") and p.endswith(".parquet") for p in parts)
    sized = len(parts) > 1 and all(s >= PART_BYTES for s in sizes[:-1])
    bad_ts = []
    for p in parts:
        meta = pq.read_metadata(p)
        col = meta.schema.column(meta.schema.names.index("timestamp_utc"))
        lj = json.loads(col.logical_type.to_json())
        if col.physical_type != "INT64" or lj.get("isAdjustedToUTC") is not True or lj.get("timeUnit") != "microseconds":
            bad_ts.append(os.path.basename(p))
    ok = named and sized and not bad_ts
    print(
        f"{'PASS' if ok else 'FAIL'} parquet-dataset: {len(parts)} parts (only part-NNNNN.parquet: {named}), sizes "
        f"{min(sizes) / 1e6:.2f}-{max(sizes) / 1e6:.2f} MB, each but the last >= {PART_BYTES / 1e6:.2f} MB: {sized}; "
        f"timestamp_utc INT64 UTC microseconds in {len(parts) - len(bad_ts)}/{len(parts)}"
    )
    results = [ok]
    readers = [
        ("pandas pd.read_parquet(dir)", lambda: pd.read_parquet(d)),
        ("pyarrow pq.read_table(dir)", lambda: pq.read_table(d)),
        ("pyarrow ds.dataset(dir)", lambda: ds.dataset(d).to_table()),
        ("polars pl.read_parquet(dir)", lambda: pl.read_parquet(d)),
        ("polars pl.scan_parquet(dir)", lambda: pl.scan_parquet(d).collect()),
        ("duckdb read_parquet('dir/*.parquet')", lambda: duckdb.read_parquet(f"{d}/*.parquet")),
    ]
    results += [check(f"parquet-dataset: {name}", read, all_ids) for name, read in readers]
    missing, extra = warehouse(
        out,
        cli,
        f"select (select count(*) from (select * from events except all select * replace (row_id::uuid as row_id) from read_parquet('{d}/*.parquet'))),"
        f" (select count(*) from (select * replace (row_id::uuid as row_id) from read_parquet('{d}/*.parquet') except all select * from events))",
        dest,
    )[0]
    ok = missing == "0" and extra == "0"
    print(f"{'PASS' if ok else 'FAIL'} parquet-dataset content: {missing} events rows missing, {extra} rows not in events (every column)")
    return results + [ok]


def findings_exports(out, dest, cli):
    subprocess.run([*cli, "hunt", "--out", out], check=True, capture_output=True)
    ids = [r[0] for r in warehouse(out, cli, "select row_id::varchar from findings where row_id is not null order by all")]
    print(f"findings: {len(ids)} with an evidence row")
    results = []
    for fmt, readers in (
        ("csv", [("pandas pd.read_csv", pd.read_csv), ("polars pl.read_csv", pl.read_csv), ("duckdb read_csv", duckdb.read_csv)]),
        ("parquet", [("pandas pd.read_parquet", pd.read_parquet), ("pyarrow pq.read_table", pq.read_table), ("polars pl.read_parquet", pl.read_parquet)]),
    ):
        f = os.path.join(dest, f"findings.{fmt}")
        export(cli, out, fmt, f, "--sql", "select * from findings where row_id is not null order by row_id")
        results += [check(f"findings {fmt}: {name}", lambda read=read: read(f), ids) for name, read in readers]
        reader = f"read_{fmt}('{f}')"
        n = int(warehouse(out, cli, f"select count(*) from events e join {reader} x on e.row_id = x.row_id", dest)[0][0])
        ok = len(ids) > 0 and n == len(ids)
        print(f"{'PASS' if ok else 'FAIL'} findings {fmt}: duckdb joins {n}/{len(ids)} to their events row on row_id")
        results.append(ok)
    return results


def main():
    out, dest, cli = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3:]
    os.makedirs(dest, exist_ok=True)
    all_ids = [r[0] for r in warehouse(out, cli, "select row_id::varchar from events")]
    print(f"exports: {len(all_ids)} events into {dest}")
    results = file_exports(out, dest, cli, all_ids) + dataset_export(out, dest, cli, all_ids)
    results += findings_exports(out, dest, cli)
    failed = results.count(False)
    print(f"interop exports: {len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
