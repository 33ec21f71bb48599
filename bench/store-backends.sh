#!/bin/sh
# The same store on SQLite and on PostgreSQL: for each size in SIZES (default 100,000 records
# in RUNS runs, as bench/gen_store.c makes them) the time to fill it (one import a run, so
# import records/s), then `report`, `list` and `export --jsonl` of the whole store, each
# with its wall time, the CPU time of the process (on a shared machine the wall time grows
# with the others' load; the server's own CPU is not in it) and its peak memory (RSS).
#
#   sh bench/store-backends.sh [-n SIZES] POSTGRES_URL [BENCHLOG_BINARY [BEFORE_BINARY]]
# -n: the sizes, comma- or space-separated ("100000,1000000"), as SIZES.
# With BEFORE_BINARY (an older build), each reading command is timed with it too, on the
# same store: before and after a change, side by side.
# POSTGRES_URL names a database benchlog may fill (each size gets a fresh schema: the
# tables are dropped first). Knobs: SIZES ("100000"), RUNS (the size / 200: runs of 200
# records, as at 100k in 500 runs), BENCH_DIR, PG_ONLY=1 (PostgreSQL only: to time an older
# BENCHLOG_BINARY on a store of its own schema, which a newer one would migrate), GROUPED=1
# (on PostgreSQL, after the commands, bench/pg-grouped.sql through psql: the server's time
# for the walk `report` reads, for parsing every record's JSON, and for a grouped query of
# exact sums of one figure per run and test over the JSON; the measure, before schema 3, of
# README "A team store on PostgreSQL").
set -eu
SIZES=${SIZES:-100000}
if [ "${1:-}" = -n ]; then
    SIZES=$(echo "$2" | tr , ' ')
    shift 2
fi
URL=$1
BIN=${2:-build/benchlog}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
BEFORE=${3:-}
SRC=$(cd "$(dirname "$0")/.." && pwd)
LIB=$(dirname "$BIN")/libbenchlog.a
[ -f "$LIB" ] || LIB=$SRC/build/libbenchlog.a # a binary copied out of its build
DIR=${BENCH_DIR:-/tmp/benchlog-backends}
rm -rf "$DIR"
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT
cc -O2 -std=c11 -D_GNU_SOURCE -I"$SRC" -o "$DIR/gen_store" "$SRC/bench/gen_store.c" "$LIB" \
    $(pkg-config --libs sqlite3 libpq jansson libpcre2-8 nettle) -lm

timed() { # timed LABEL CMD...: prints wall seconds, CPU seconds and peak RSS; sets $secs
    label=$1
    shift
    /usr/bin/time -f "%e %U %S %M" -o "$DIR/time" "$@" >"$DIR/out" 2>"$DIR/err" ||
        { echo "$label: failed"; cat "$DIR/err"; exit 1; }
    secs=$(cut -d' ' -f1 "$DIR/time")
    awk -v l="$label" '{ printf "  %-22s %7.2f s (%6.2f s CPU) %5.0f MB", l, $1, $2 + $3, $4 / 1024 }' \
        "$DIR/time"
}

for n in $SIZES; do
    runs=${RUNS:-$((n / 200 > 0 ? n / 200 : 1))}
    stores="$DIR/store.db $URL"
    [ "${PG_ONLY:-}" = 1 ] && stores=$URL
    for store in $stores; do
        case $store in
        postgres*)
            name=postgresql
            psql -q "$store" -c 'DROP TABLE IF EXISTS records, runs, imports, meta, shapes' 2>/dev/null
            ;;
        *) name=sqlite; rm -f "$store" ;;
        esac
        echo "$name, $n records in $runs runs:"
        timed "import" "$DIR/gen_store" "$store" "$n" "$runs"
        awk -v n="$n" -v s="$secs" 'BEGIN { printf "  %9.0f records/s\n", n / s }'
        for cmd in report list "export --jsonl"; do
            timed "$cmd" "$BIN" $cmd --db "$store"
            if [ -n "$BEFORE" ]; then
                cp "$DIR/out" "$DIR/out.after"
                after=$secs
                /usr/bin/time -f "%e %U %S %M" -o "$DIR/time" "$BEFORE" $cmd --db "$store" \
                    >"$DIR/out" 2>"$DIR/err" || { echo " before: failed"; cat "$DIR/err"; exit 1; }
                printf '  (before: %s, output %s)' \
                    "$(awk '{ printf "%.2f s (%.2f s CPU) %.0f MB", $1, $2 + $3, $4 / 1024 }' "$DIR/time")" \
                    "$(cmp -s "$DIR/out" "$DIR/out.after" && echo same || echo DIFFERS)"
            fi
            echo
        done
        if [ "${GROUPED:-}" = 1 ] && [ "$name" = postgresql ]; then
            psql -q "$store" -f "$SRC/bench/pg-grouped.sql" | sed -n 's/^/  server: /p'
        fi
    done
done
