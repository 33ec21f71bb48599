#!/bin/sh
# import of N small files in one call (issue 26: 10,000 files), files/s, with OLD_BINARY
# (another build) in alternating rounds and the ratio new/old. The files are dd outputs as
# GNU dd prints them (records in/out and the summary line), each transfer different, so no
# file is a duplicate of another.
#
#   sh bench/small-files.sh [BENCHLOG_BINARY] [OLD_BINARY]
#
# Knobs: FILES (10000), ROUNDS (2), BENCH_DIR (/tmp/benchlog-small-files), PG_URL (a
# postgresql:// database benchlog may fill: timed there too; its tables are dropped before
# each import).
set -eu
BIN=${1:-build/benchlog}
OLD=${2:-}
FILES=${FILES:-10000}
ROUNDS=${ROUNDS:-2}
DIR=${BENCH_DIR:-/tmp/benchlog-small-files}
PG_URL=${PG_URL:-}
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
BIN=$(abs "$BIN")
[ -n "$OLD" ] && OLD=$(abs "$OLD")
rm -rf "$DIR/files"
mkdir -p "$DIR/files"
awk -v n="$FILES" -v d="$DIR/files" 'BEGIN { for (i = 1; i <= n; i++) {
    f = sprintf("%s/dd%06d.txt", d, i); c = 64 + i % 997; b = c * 1048576; s = 0.05 + (i % 89) / 100
    printf "%d+0 records in\n%d+0 records out\n%.0f bytes (%.0f MB, %d MiB) copied, %.6f s, %.0f MB/s\n",
        c, c, b, b / 1e6, c, s + i / 1e6, b / (s + i / 1e6) / 1e6 > f; close(f) } }'
echo "$FILES dd files, $(du -sk "$DIR/files" | cut -f1) KiB"
pg_empty() { # the PostgreSQL store emptied: benchlog makes its tables again
    psql -q "$PG_URL" -c 'SET client_min_messages = warning' -c 'DROP TABLE IF EXISTS records, runs, imports, meta, shapes CASCADE' >/dev/null
}
# rate LABEL BINARY DB: one import of every file into an empty store; prints files/s, and
# leaves it in $DIR/rate
rate() {
    label=$1 bin=$2 db=$3
    case $db in postgres*) pg_empty ;; *) rm -f "$db" "$db-wal" "$db-shm" "$db-journal" ;; esac
    # the store made first, so the time is the files' alone
    "$bin" import -q --db "$db" /dev/null >/dev/null 2>&1 || true
    start=$(date +%s.%N)
    (cd "$DIR/files" && "$bin" import -q --db "$db" ./*.txt) >/dev/null 2>"$DIR/err" || {
        echo "$label: import failed:" >&2; head -5 "$DIR/err" >&2; exit 1; }
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" -v n="$FILES" -v l="$label" \
        'BEGIN { r = n / (b - a); printf "  %-16s %7.2f s %9.0f files/s\n", l, b - a, r; print r > "/dev/stderr" }' 2>"$DIR/rate"
}
count() { # records stored, so a fast import that stores nothing is seen
    "$1" list --db "$2" 2>/dev/null | wc -l
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
for r in $(seq "$ROUNDS"); do
    echo "round $r"
    for store in sqlite pg; do
        [ "$store" = pg ] && [ -z "$PG_URL" ] && continue
        if [ "$store" = pg ]; then db=$PG_URL; else db=$DIR/s.db; fi
        rate "new $store" "$BIN" "$db"; new=$(cat "$DIR/rate")
        runs=$(count "$BIN" "$db")
        [ "$runs" -eq "$FILES" ] || { echo "new $store: $runs runs stored of $FILES" >&2; exit 1; }
        if [ -n "$OLD" ]; then
            rate "old $store" "$OLD" "$db"; old=$(cat "$DIR/rate")
            echo "  $store new/old: $(ratio "$new" "$old")x"
        fi
    done
done
rm -rf "$DIR/files" "$DIR/s.db" "$DIR/s.db-wal" "$DIR/s.db-shm"
