#!/bin/sh
# The fleet of `make interop`, in DIR/fleet: the demo fleet (hosts 0042, WIN-ALICE01, lnx-u01, mac-bob), a
# copy of host 0042 as 0107 (two numeric host names), and the bench generator's hosts with a big transcript,
# so that parts of several row groups are read too. Usage: interop/make-fleet.sh DIR
set -eu
dir=$1
rm -rf "$dir"
mkdir -p "$dir/fleet"
node dist/bench/generate.js --dir "$dir/bench" --seed 13 --hosts 3 --mb 12 --big-mb 90 >/dev/null
for host in "$dir"/bench/fleet/*; do ln -s "$(cd "$host" && pwd)" "$dir/fleet/$(basename "$host")"; done
for host in fixtures/fleet/*/; do ln -s "$(cd "$host" && pwd)" "$dir/fleet/$(basename "$host")"; done
cp -r fixtures/fleet/0042 "$dir/fleet/0107"
