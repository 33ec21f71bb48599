#!/bin/sh
# The size cliff of issue 26: a fio log read by auto-detection against the same log read with
# --as fio-log (the anchor), in alternating rounds; wall time and peak RSS of each, and the
# ratio. OLD_BINARY (another build) runs in the same rounds, for a before/after.
#
#   sh bench/fio-log-auto.sh [BENCHLOG_BINARY] [OLD_BINARY]
#
# The log is in fio 3's exact latency-log form, "time, value, ddir, bs, prio", both
# directions. Knobs: MB (10: under the old 16 MiB streaming bound), ROUNDS (3),
# BENCH_DIR (/tmp/benchlog-fio-log-auto).
set -eu
BIN=${1:-build/benchlog}
OLD=${2:-}
MB=${MB:-10}
ROUNDS=${ROUNDS:-3}
DIR=${BENCH_DIR:-/tmp/benchlog-fio-log-auto}
mkdir -p "$DIR"
log=$DIR/job_lat.1.log
awk -v n=$((MB * 1000000 / 25)) 'BEGIN { for (i = 1; i <= n; i++)
    printf "%d, %d, %d, 4096, 0\n", i, 1000 + i % 977, i % 2 }' > "$log"
echo "fio log: $(wc -c < "$log") bytes, $(wc -l < "$log") lines"
t() { # t LABEL CMD...: wall seconds and peak RSS (KiB) of one run
    label=$1; shift
    /usr/bin/time -f "%e %M" -o "$DIR/time" "$@" > /dev/null 2>&1 || true
    read -r s kib < "$DIR/time"
    echo "$label $s $kib" >> "$DIR/rounds"
    printf '  %-22s %6.2f s %8d KiB\n' "$label" "$s" "$kib"
}
: > "$DIR/rounds"
for r in $(seq "$ROUNDS"); do
    echo "round $r"
    t as "$BIN" parse --as fio-log "$log"
    t auto "$BIN" parse "$log"
    [ -n "$OLD" ] && t old-auto "$OLD" parse "$log"
done
awk '{ s[$1] += $2; if ($3 > m[$1]) m[$1] = $3; n[$1]++ }
     END { for (k in s) printf "%-9s mean %.2f s, peak %d KiB, %.2fx the time of --as\n",
           k, s[k] / n[k], m[k], (s[k] / n[k]) / (s["as"] / n["as"]) }' "$DIR/rounds" | sort
rm -f "$log"
