#!/bin/sh
# The same store on SQLite and on PostgreSQL: for each size in SIZES (default 100,000 records
# in RUNS runs, as bench/gen_store.c makes them) the time to fill it (one import a run, so
# import records/s), then `report`, `list` and `export --jsonl` of the whole store.
#
#   sh bench/store-backends.sh POSTGRES_URL [BENCHLOG_BINARY [BEFORE_BINARY]]
# With BEFORE_BINARY (an older build), each reading command is timed with it too, on the
# same store: before and after a change, side by side.
# POSTGRES_URL names a database benchlog may fill (each size gets a fresh schema: the
# tables are dropped first). Knobs: SIZES ("100000"), RUNS (500), BENCH_DIR.
set -eu
URL=$1
BIN=${2:-build/benchlog}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
BEFORE=${3:-}
LIB=$(dirname "$BIN")/libbenchlog.a
SRC=$(cd "$(dirname "$0")/.." && pwd)
SIZES=${SIZES:-100000}
RUNS=${RUNS:-500}
DIR=${BENCH_DIR:-/tmp/benchlog-backends}
rm -rf "$DIR"
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT
cc -O2 -std=c11 -D_GNU_SOURCE -I"$SRC" -o "$DIR/gen_store" "$SRC/bench/gen_store.c" "$LIB" \
    $(pkg-config --libs sqlite3 libpq jansson libpcre2-8 nettle) -lm

timed() { # timed LABEL CMD...: prints wall seconds; sets $secs
    label=$1
    shift
    /usr/bin/time -f "%e" -o "$DIR/time" "$@" >"$DIR/out" 2>"$DIR/err" ||
        { echo "$label: failed"; cat "$DIR/err"; exit 1; }
    secs=$(cat "$DIR/time")
    printf '  %-22s %7.2f s' "$label" "$secs"
}

for n in $SIZES; do
    for store in "$DIR/store.db" "$URL"; do
        case $store in
        postgres*)
            name=postgresql
            psql -q "$store" -c 'DROP TABLE IF EXISTS records, runs, imports, meta' 2>/dev/null
            ;;
        *) name=sqlite; rm -f "$store" ;;
        esac
        echo "$name, $n records in $RUNS runs:"
        timed "import" "$DIR/gen_store" "$store" "$n" "$RUNS"
        awk -v n="$n" -v s="$secs" 'BEGIN { printf "  %9.0f records/s\n", n / s }'
        for cmd in report list "export --jsonl"; do
            timed "$cmd" "$BIN" $cmd --db "$store"
            if [ -n "$BEFORE" ]; then
                cp "$DIR/out" "$DIR/out.after"
                after=$secs
                /usr/bin/time -f "%e" -o "$DIR/time" "$BEFORE" $cmd --db "$store" \
                    >"$DIR/out" 2>"$DIR/err" || { echo " before: failed"; cat "$DIR/err"; exit 1; }
                printf '  (before: %.2f s, output %s)' "$(cat "$DIR/time")" \
                    "$(cmp -s "$DIR/out" "$DIR/out.after" && echo same || echo DIFFERS)"
            fi
            echo
        done
    done
done
