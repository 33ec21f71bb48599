#!/bin/sh
# Store-wide commands on big stores. For each size in SIZES (default 100,000 and 1,000,000
# records, in RUNS runs of 20 hosts: fio jobs with latency percentiles, bonnie++ tests) it
# times `sqlite3 .dump` of the store against `benchlog export` (JSON Lines and CSV) and
# `benchlog list`, the workbook, the bar and iops-lat charts, the tables and the HTML page,
# which stream, with wall time and peak memory (RSS) of each, `compare host=nas00 host=nas01`
# and the percentile, timeline and histogram charts, which walk the store without holding it.
# With an OLD binary, compare, xlsx, the charts and the HTML page run old and new in
# alternating rounds (ROUNDS, default 2), and the outputs of compare and the pages (but their
# date) must be the same.
#
#   sh bench/report.sh [BENCHLOG_BINARY [OLD]] (default build/benchlog; its folder holds
#                                              libbenchlog.a, used to fill the store)
# Needs sqlite3 and /usr/bin/time (Debian: sqlite3, time).
# Knobs: SIZES ("100000 1000000"), RUNS (500), ROUNDS (2),
#        BENCH_DIR (/tmp/benchlog-report), KEEP=1 keeps files.
set -eu
BIN=${1:-build/benchlog}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
LIB=$(dirname "$BIN")/libbenchlog.a
SRC=$(cd "$(dirname "$0")/.." && pwd)
SIZES=${SIZES:-100000 1000000}
RUNS=${RUNS:-500}
OLD=${2:-}
[ -z "$OLD" ] || OLD=$(cd "$(dirname "$OLD")" && pwd)/$(basename "$OLD")
ROUNDS=${ROUNDS:-2}
DIR=${BENCH_DIR:-/tmp/benchlog-report}
rm -rf "$DIR"
mkdir -p "$DIR"
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$DIR"' EXIT

cc -O2 -std=c11 -D_GNU_SOURCE -I"$SRC" -o "$DIR/gen_store" "$SRC/bench/gen_store.c" "$LIB" \
    $(pkg-config --libs sqlite3 libpq jansson libpcre2-8 nettle) -lm

# timed LABEL CMD...: wall seconds and peak RSS of CMD, output to $DIR/out; sets $secs.
timed() {
    label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$DIR/time" "$@" >"$DIR/out" 2>"$DIR/err" ||
        [ "${MAY_FAIL:-}" = 1 ] || { echo "$label: failed"; cat "$DIR/err"; exit 1; }
    sed -i '/exited with non-zero status/d' "$DIR/time"
    read -r secs kib <"$DIR/time"
    printf '%-32s %7.2f s  %7d KiB peak RSS' "$label" "$secs" "$kib"
}

# run LABEL ARGS...: benchlog ARGS against the store.
run() {
    label=$1
    shift
    timed "$label" "$BIN" "$@" --db "$DIR/store.db"
    echo
}

# pair LABEL ARGS...: with OLD, old and new in alternating rounds, else as run; the last
# round's outputs of both are left in $DIR/out.old and $DIR/out.new.
pair() {
    what=$1
    shift
    if [ -z "$OLD" ]; then
        run "$what" "$@"
        return
    fi
    r=0
    while [ "$r" -lt "$ROUNDS" ]; do
        r=$((r + 1))
        timed "old $what" "$OLD" "$@" --db "$DIR/store.db"
        old=$secs
        mv "$DIR/out" "$DIR/out.old"
        echo
        timed "new $what" "$BIN" "$@" --db "$DIR/store.db"
        awk -v a="$old" -v b="$secs" 'BEGIN { printf "  %.2fx faster\n", a / b }'
        mv "$DIR/out" "$DIR/out.new"
    done
}

# With OLD: the last pair's pages are the same but for their date.
same_page() {
    [ -n "$OLD" ] || return 0
    sed 's/<p class="meta">[0-9-]*/D/' "$DIR/out.old" >"$DIR/page.old"
    sed 's/<p class="meta">[0-9-]*/D/' "$DIR/out.new" >"$DIR/page.new"
    cmp -s "$DIR/page.old" "$DIR/page.new" || { echo "report --html: pages differ"; exit 1; }
}

for n in $SIZES; do
    rm -f "$DIR/store.db"
    echo
    "$DIR/gen_store" "$DIR/store.db" "$n" "$RUNS"
    echo "store: $(du -k "$DIR/store.db" | cut -f1) KiB"
    timed "sqlite3 .dump" sqlite3 "$DIR/store.db" .dump
    dump=$secs
    echo
    timed "export --jsonl" "$BIN" export --jsonl --db "$DIR/store.db"
    awk -v a="$secs" -v b="$dump" 'BEGIN { printf "  %.1fx the dump\n", a / b }'
    echo "   lines: $(wc -l <"$DIR/out")"
    timed "export --csv" "$BIN" export --csv --db "$DIR/store.db"
    awk -v a="$secs" -v b="$dump" 'BEGIN { printf "  %.1fx the dump\n", a / b }'
    run "export host=nas03 (SQL)" export host=nas03
    run "export host~NAS03 (SQL)" export host~NAS03
    run "export bs~409 (C)" export bs~409
    run "list" list
    run "list --json host=nas03" list --json host=nas03
    pair "xlsx (workbook)" xlsx -o "$DIR/report.xlsx"
    echo "   workbook: $(du -k "$DIR/report.xlsx" | cut -f1) KiB"
    pair "chart bar" chart --kind bar -o "$DIR/bar.png"
    pair "chart iops-lat" chart --kind iops-lat -o "$DIR/il.svg"
    run "report --text" report --text
    run "report --csv --by host" report --csv --by host
    pair "report --html --lat" report --html --lat
    same_page
    pair "report --html --no-chart" report --html --no-chart
    same_page
    pair "compare host=nas00 nas01" compare host=nas00 host=nas01
    [ -z "$OLD" ] || cmp -s "$DIR/out.old" "$DIR/out.new" || { echo "compare: outputs differ"; exit 1; }
    pair "chart percentiles" chart --kind percentiles -o "$DIR/pct.png"
    # no record of this store has a series or bins: a whole walk, refused at its end
    MAY_FAIL=1
    pair "chart timeline (none)" chart --kind timeline -o "$DIR/t.png"
    pair "chart histogram (none)" chart --kind histogram -o "$DIR/h.png"
    MAY_FAIL=
done
