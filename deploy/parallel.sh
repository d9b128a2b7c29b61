#!/bin/sh
# Load a fleet in N shards at once on one machine with GNU parallel, then build the warehouse once.
#
#   deploy/parallel.sh FLEET OUT [N]        (N defaults to the number of cores, `nproc`)
#
# Each shard is one `clinetrail load --shard K/N` process with its own lock on OUT (docs/SHARDS.md);
# `clinetrail models` runs only when every shard exited 0. A shard that exits 4 (an empty image
# whose earlier data was kept) stops it too: read its warning, then run `clinetrail models --out OUT`.
# CLINETRAIL is the command that runs clinetrail (default `clinetrail`; e.g. "node /opt/clinetrail/dist/src/cli/main.js").
set -eu
FLEET=$1
OUT=$2
N=${3:-$(nproc)}
CLINETRAIL=${CLINETRAIL:-clinetrail}

# --concurrency 1: N processes share the machine's cores; --halt soon,fail=1: a failed shard lets the
# running ones finish and starts no other.
parallel --jobs "$N" --halt soon,fail=1 --line-buffer \
  $CLINETRAIL load --fleet "$FLEET" --out "$OUT" --concurrency 1 --quiet --shard {}/"$N" ::: $(seq 1 "$N")
$CLINETRAIL models --out "$OUT"
