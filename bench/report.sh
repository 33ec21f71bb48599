#!/bin/sh
# Reports from a big store: a 100,000-record store (500 runs of 20 hosts, fio jobs with
# latency percentiles, bonnie++ tests) gives its workbook, its charts and its tables; each
# step prints wall time and peak memory (RSS).
#
#   sh bench/report.sh [BENCHLOG_BINARY]      (default build/benchlog; its folder holds
#                                              libbenchlog.a, used to fill the store)
# Knobs: RECORDS (100000), RUNS (500), BENCH_DIR (/tmp/benchlog-report), KEEP=1 keeps files.
set -eu
BIN=${1:-build/benchlog}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
LIB=$(dirname "$BIN")/libbenchlog.a
SRC=$(cd "$(dirname "$0")/.." && pwd)
RECORDS=${RECORDS:-100000}
RUNS=${RUNS:-500}
DIR=${BENCH_DIR:-/tmp/benchlog-report}
rm -rf "$DIR"
mkdir -p "$DIR"
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$DIR"' EXIT

cc -O2 -std=c11 -D_GNU_SOURCE -I"$SRC" -o "$DIR/gen_store" "$SRC/bench/gen_store.c" "$LIB" \
    $(pkg-config --libs sqlite3 jansson libpcre2-8) -lm
"$DIR/gen_store" "$DIR/store.db" "$RECORDS" "$RUNS"
echo "store: $(du -k "$DIR/store.db" | cut -f1) KiB"

# run LABEL ARGS...: benchlog ARGS against the store; wall seconds and peak RSS.
run() {
    label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$DIR/time" "$BIN" "$@" --db "$DIR/store.db" >"$DIR/out" 2>"$DIR/err" ||
        { echo "$label: failed"; cat "$DIR/err"; exit 1; }
    read -r secs kib <"$DIR/time"
    printf '%-28s %7.2f s  %7d KiB peak RSS\n' "$label" "$secs" "$kib"
}

echo
run "xlsx (workbook)" xlsx -o "$DIR/report.xlsx"
echo "   workbook: $(du -k "$DIR/report.xlsx" | cut -f1) KiB"
run "chart bar" chart --kind bar -o "$DIR/bar.png"
run "chart percentiles" chart --kind percentiles -o "$DIR/pct.png"
run "report --text" report --text
run "report --html --lat" report --html --lat
run "report --csv --by host" report --csv --by host
