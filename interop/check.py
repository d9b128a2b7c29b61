"""Opens OUT/parquet/events with each engine's default call and checks it against the warehouse.

Usage: python interop/check.py OUT CLI...   (CLI: the command that runs clinetrail, e.g. node dist/src/cli/main.js)

For each reader: the row count equals the warehouse's raw_events count, `host` is a text column holding
exactly the warehouse's host names (0042 stays "0042"), and the timestamps of a sample of rows are the
warehouse's instants (UTC, microseconds). Then the Parquet footers of every part: timestamp_utc is INT64
microseconds adjusted to UTC (no INT96), and no part dictionary-encodes `host`.
Prints one PASS/FAIL line per check and exits 1 when any fails.
"""

import csv
import glob
import io
import json
import os
import subprocess
import sys
import traceback
import warnings

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

warnings.filterwarnings("ignore")
KEY = ["host", "store", "source_file", "file_row"]


def warehouse(out, cli, sql, allow_read=None):
    """The rows of a query on the warehouse (clinetrail query, CSV), the header left out; allow_read: a folder it may read."""
    extra = ["--allow-read", allow_read] if allow_read else []
    text = subprocess.run(
        [*cli, "query", "--out", out, "--format", "csv", *extra, sql], check=True, capture_output=True, text=True
    ).stdout
    return list(csv.reader(io.StringIO(text)))[1:]


def arrow_of(frame):
    """The key and time columns of a reader's result as an Arrow table (the checks are shared)."""
    if isinstance(frame, pa.Table):
        return frame.select([*KEY, "timestamp_utc"])
    if isinstance(frame, pl.DataFrame):
        return frame.select([*KEY, "timestamp_utc"]).to_arrow()
    if isinstance(frame, pd.DataFrame):
        return pa.Table.from_pandas(frame[[*KEY, "timestamp_utc"]], preserve_index=False)
    raise TypeError(type(frame))


def as_table(result):
    """DuckDB's .arrow() gives a Table in some versions and a RecordBatchReader in others."""
    return result if isinstance(result, pa.Table) else result.read_all()


def host_type(frame):
    """The host column's type as the engine names it, and whether it is plain text."""
    if isinstance(frame, pa.Table):
        t = frame.schema.field("host").type
        return str(t), pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)
    if isinstance(frame, pl.DataFrame):
        t = frame.schema["host"]
        return str(t), t == pl.String
    t = frame["host"].dtype
    return str(t), pd.api.types.is_string_dtype(t) and not isinstance(t, pd.CategoricalDtype)


def check(name, read, expected_rows, expected_hosts, sample):
    try:
        frame = read()
        typ, is_text = host_type(frame)
        table = arrow_of(frame)
        hosts = set(table.column("host").to_pylist())
        ts = pa.compute.cast(pa.compute.cast(table.column("timestamp_utc"), pa.timestamp("us", tz="UTC")), pa.int64())
        keys = zip(*(table.column(k).to_pylist() for k in KEY), ts.to_pylist())
        got = {(h, s, f, int(r)): t for h, s, f, r, t in keys if (h, s, f, int(r)) in sample}
        same_ts = sum(1 for k, t in sample.items() if got.get(k) == t)
        ok = table.num_rows == expected_rows and is_text and hosts == expected_hosts and same_ts == len(sample)
        print(
            f"{'PASS' if ok else 'FAIL'} {name}: rows {table.num_rows}/{expected_rows}, host {typ}"
            f" {sorted(hosts) if hosts != expected_hosts else f'= {len(hosts)} warehouse hosts'},"
            f" timestamps {same_ts}/{len(sample)} sampled equal"
        )
        return ok
    except Exception as err:  # a reader that fails is a FAIL line, and the others still run
        last = traceback.format_exception_only(err)[-1].strip()
        print(f"FAIL {name}: {last[:300]}")
        return False


def footers(events):
    parts = sorted(glob.glob(os.path.join(events, "**", "*"), recursive=True))
    files = [p for p in parts if os.path.isfile(p)]
    others = [p for p in files if not p.endswith(".parquet")]
    bad_ts, dict_host, groups, sizes = [], [], 0, []
    for f in files:
        if f in others:
            continue
        meta = pq.read_metadata(f)
        col = meta.schema.column(meta.schema.names.index("timestamp_utc"))
        lt = col.logical_type
        lj = json.loads(lt.to_json())
        if col.physical_type != "INT64" or lj.get("Type") != "Timestamp" or lj.get("isAdjustedToUTC") is not True or lj.get("timeUnit") != "microseconds":
            bad_ts.append(f"{f}: {col.physical_type} {lt.to_json()}")
        hi = meta.schema.names.index("host")
        for g in range(meta.num_row_groups):
            if any("DICTIONARY" in e for e in meta.row_group(g).column(hi).encodings):
                dict_host.append(f)
        groups += meta.num_row_groups
        sizes.append(os.path.getsize(f))
    n = len(sizes)
    print(
        f"{'PASS' if not others else 'FAIL'} dataset folder: {n} Parquet parts, {len(others)} other files"
        + (f" ({others[:3]})" if others else "")
        + f"; {groups} row groups, largest part {max(sizes) / 1e6:.1f} MB, mean {sum(sizes) / max(n, 1) / 1e6:.2f} MB"
    )
    print(
        f"{'PASS' if not bad_ts else 'FAIL'} footers timestamp_utc: INT64 Timestamp(isAdjustedToUTC=true, microseconds)"
        f" in {n - len(bad_ts)}/{n} parts" + (f"; first other: {bad_ts[0]}" if bad_ts else "")
    )
    print(f"{'PASS' if not dict_host else 'FAIL'} footers host: plain (no dictionary) in {n - len(set(dict_host))}/{n} parts")
    return not others and not bad_ts and not dict_host


def main():
    out, cli = os.path.abspath(sys.argv[1]), sys.argv[2:]
    events = os.path.join(out, "parquet", "events")
    rows = int(warehouse(out, cli, "select count(*) from raw_events")[0][0])
    hosts = {r[0] for r in warehouse(out, cli, "select distinct host from raw_events")}
    sample = {
        (h, s, f, int(r)): int(t)
        for h, s, f, r, t in warehouse(
            out,
            cli,
            "select host, store, source_file, file_row, epoch_us(timestamp_utc) from raw_events"
            " where timestamp_utc is not null order by row_id limit 200",
        )
    }
    print(f"warehouse: {rows} raw_events rows, hosts {sorted(hosts)}, {len(sample)} rows sampled; {events}")
    print(f"versions: pyarrow {pa.__version__}, pandas {pd.__version__}, polars {pl.__version__}, duckdb {duckdb.__version__}")
    readers = [
        ("pandas pd.read_parquet(dir)", lambda: pd.read_parquet(events)),
        ("pyarrow pq.read_table(dir)", lambda: pq.read_table(events)),
        ("pyarrow pq.ParquetDataset(dir).read()", lambda: pq.ParquetDataset(events).read()),
        ("pyarrow ds.dataset(dir)", lambda: ds.dataset(events).to_table()),
        ("pyarrow ds.dataset(dir, partitioning='hive')", lambda: ds.dataset(events, partitioning="hive").to_table()),
        ("polars pl.read_parquet(dir)", lambda: pl.read_parquet(events)),
        ("polars pl.scan_parquet(dir)", lambda: pl.scan_parquet(events).collect()),
        ("polars pl.scan_parquet('dir/**/*.parquet')", lambda: pl.scan_parquet(f"{events}/**/*.parquet").collect()),
        (
            "duckdb read_parquet('dir/**/*.parquet')",
            lambda: as_table(duckdb.sql(f"select * from read_parquet('{events}/**/*.parquet')").arrow()),
        ),
    ]
    results = [check(name, read, rows, hosts, sample) for name, read in readers]
    results.append(footers(events))
    failed = results.count(False)
    print(f"interop: {len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
