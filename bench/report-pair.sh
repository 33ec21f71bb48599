#!/bin/sh
# `benchlog report` of an existing store (a SQLite file or a PostgreSQL URL), old and new
# binaries in alternating rounds: wall seconds, CPU of the process (on PostgreSQL the server's
# own time is in the wall time only) and peak RSS of each, the old / new ratios of their sums,
# and whether both wrote the same report (every round's, byte for byte).
#
#   sh bench/report-pair.sh STORE NEW_BINARY OLD_BINARY [REPORT ARGS...]
# Knobs: ROUNDS (3), BENCH_DIR (/tmp/benchlog-report-pair). Needs /usr/bin/time.
set -eu
DB=$1 NEW=$2 OLD=$3
shift 3
ROUNDS=${ROUNDS:-3}
DIR=${BENCH_DIR:-/tmp/benchlog-report-pair}
mkdir -p "$DIR"
: >"$DIR/rounds"
one() { # LABEL BINARY REPORT ARGS...
    label=$1 bin=$2
    shift 2
    /usr/bin/time -f "%e %U %S %M" -o "$DIR/time" "$bin" report --db "$DB" "$@" \
        >"$DIR/$label.out" 2>"$DIR/err" || { cat "$DIR/err"; exit 1; }
    read -r wall usr sys kib <"$DIR/time"
    echo "$label $wall $(echo "$usr + $sys" | bc)" >>"$DIR/rounds"
    printf '%-4s %7.2f s wall %6.2f s CPU %8d KiB peak RSS\n' "$label" "$wall" \
        "$(echo "$usr + $sys" | bc)" "$kib"
}
for r in $(seq "$ROUNDS"); do
    one old "$OLD" "$@"
    one new "$NEW" "$@"
    cmp -s "$DIR/old.out" "$DIR/new.out" || { echo "round $r: the reports differ"; exit 1; }
done
awk '$1 == "old" { ow += $2; oc += $3; n++ } $1 == "new" { nw += $2; nc += $3 }
    END { printf "old / new over %d rounds: wall %.2fx, CPU %.2fx; the same report\n", n,
          ow / nw, oc / nc }' "$DIR/rounds"
