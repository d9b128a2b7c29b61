#!/bin/sh
# The nightly job (docs/NIGHTLY.md), run by deploy/clinetrail-nightly.service (with its .timer) and by
# the line of deploy/clinetrail-nightly.cron:
#
#   nightly.sh FLEET OUT DEST [LOAD OPTION...]        e.g. --zip-password-file FILE, --prune
#
# 1. load the fleet folder FLEET into OUT (a host that did not change is not read again)
# 2. run the hunt pack on OUT (its findings go to OUT's table findings)
# 3. write DEST/report.html, the fleet report
# 4. export every event (an undated one at its file's time) to DEST/timesketch.jsonl (a Timesketch import) and every event to DEST/events/,
#    Parquet parts of 128 MB sorted by host and time (Trino, Spark, Athena)
# Each output replaces last night's whole; DEST must exist, outside OUT and the evidence. A load that fails
# (1, 2 or 3) stops the job: the warehouse and DEST stay as they were. Later steps run whatever the one
# before them gave.
#
# Every line on stderr is one JSON object: clinetrail's own (--log-format json: its progress, summaries,
# errors), one {"event":"step",...} per step with its exit code and one {"event":"job",...} with the job's.
# stdout is not used. Exit code (docs/NIGHTLY.md has the table): the most urgent of the steps',
# 2 > 1 > 3 > 5 > 4 > 0: 2 a step refused its arguments (a path); 1 a step failed; 3 another load or hunt
# held OUT; 5 done, but a host image could not be read (its earlier data kept); 4 done, but a host image
# gave no Cline store (its earlier data kept); 0 done. A step killed by a signal counts as 1.
# clinetrail is the command of that name on PATH, or $CLINETRAIL (e.g. "node /opt/clinetrail/dist/src/cli/main.js").
set -eu
ct=${CLINETRAIL:-clinetrail}

# log EVENT FIELDS: one JSON line of the job's own; FIELDS is the rest of the object (no paths: nothing to escape)
log() {
  printf '{"ts":"%s","command":"nightly","event":"%s",%s}\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" "$2" >&2
}

if [ $# -lt 3 ]; then
  log error '"level":"error","message":"usage: nightly.sh FLEET OUT DEST [LOAD OPTION...]"'
  exit 2
fi
fleet=$1
out=$2
dest=$3
shift 3

job=0
# keep the more urgent of the job's code and $1 (the order of the header)
worse() {
  for c in 2 1 3 5 4; do
    [ "$job" = "$c" ] && return 0
    if [ "$1" = "$c" ]; then
      job=$1
      return 0
    fi
  done
}

# step NAME COMMAND...: runs one step, logs its exit code and keeps it in $code
step() {
  name=$1
  shift
  set +e
  "$@"
  code=$?
  set -e
  case $code in
  0) level=info ;;
  4 | 5) level=warning ;;
  *) level=error ;;
  esac
  log step "\"step\":\"$name\",\"exit\":$code,\"level\":\"$level\""
  case $code in
  0 | 1 | 2 | 3 | 4 | 5) worse "$code" ;;
  *) worse 1 ;;
  esac
}

finish() {
  case $job in
  0) level=info ;;
  4 | 5) level=warning ;;
  *) level=error ;;
  esac
  log job "\"exit\":$job,\"level\":\"$level\""
  exit "$job"
}

# the load's summary line and the hunt's table (stdout) are in their JSON events too
step load $ct load --fleet "$fleet" --out "$out" --log-format json "$@" >/dev/null
case $code in
0 | 4 | 5) ;;
*) finish ;;
esac
step hunt $ct hunt --out "$out" --format json --log-format json >/dev/null
step report $ct report --out "$out" --to "$dest/report.html" --force --log-format json
step export-timesketch $ct export --out "$out" --format timesketch --to "$dest/timesketch.jsonl" --force --log-format json
step export-parquet $ct export --out "$out" --format parquet-dataset --to "$dest/events" --force --log-format json
finish
