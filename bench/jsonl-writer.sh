#!/bin/sh
# The path every parser shares (records built, written as JSON Lines): `parse` of three
# inputs by a new and an old binary in alternating rounds, CPU time (user+sys) of each and
# the ratio old/new, and whether both printed the same bytes (issue 26).
#
#   sh bench/jsonl-writer.sh NEW_BINARY OLD_BINARY
#
# Inputs: fio JSON of JOBS jobs (bench/fio-json-jobs.sh makes it), MB megabytes of fio normal
# text (bench/fio-normal.sh's text) and LINES dd summary lines (bench/dd-lines.sh's).
# Knobs: JOBS (20000), MB (30), LINES (1000000), ROUNDS (3), BENCH_DIR (/tmp/benchlog-jsonl).
set -eu
NEW=${1:?new binary}
OLD=${2:?old binary}
JOBS=${JOBS:-20000}
MB=${MB:-30}
LINES=${LINES:-1000000}
ROUNDS=${ROUNDS:-3}
DIR=${BENCH_DIR:-/tmp/benchlog-jsonl}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$DIR"
JOBS=$JOBS ROUNDS=0 BENCH_DIR="$DIR" sh "$here/bench/fio-json-jobs.sh" "$NEW" > /dev/null
# fio-normal.sh removes its text when done: run its making part alone
sed '/^rm -f "\$txt"/d' "$here/bench/fio-normal.sh" > "$DIR/make-normal.sh"
(cd "$here" && MB=$MB ROUNDS=0 BENCH_DIR="$DIR" sh "$DIR/make-normal.sh" > /dev/null)
awk -v n="$LINES" 'BEGIN { for (i = 1; i <= n; i++) { b = i * 1048576; s = 1.5 + i % 7
    printf "%.0f bytes copied, %.1f s, %.0f kB/s\n", b, s, b / s / 1e3 } }' > "$DIR/dd.txt"
cpu() { # cpu BINARY FILE OUT: user+sys seconds of one parse, its stdout kept in OUT
    /usr/bin/time -f "%U %S" -o "$DIR/time" "$1" parse "$2" > "$3" 2> /dev/null || true
    awk '{ printf "%.2f", $1 + $2 }' "$DIR/time"
}
for input in jobs-$JOBS.json fio.txt dd.txt; do
    echo "$input: $(wc -c < "$DIR/$input") bytes"
    r=1
    while [ "$r" -le "$ROUNDS" ]; do
        if [ $((r % 2)) = 1 ]; then
            n=$(cpu "$NEW" "$DIR/$input" "$DIR/new.out"); o=$(cpu "$OLD" "$DIR/$input" "$DIR/old.out")
        else
            o=$(cpu "$OLD" "$DIR/$input" "$DIR/old.out"); n=$(cpu "$NEW" "$DIR/$input" "$DIR/new.out")
        fi
        same=same; cmp -s "$DIR/new.out" "$DIR/old.out" || same=DIFFERENT
        echo "$r $n $o $same" | awk '{ printf "  round %d: new %.2f s CPU, old %.2f s CPU, old/new %.2fx, output %s\n", $1, $2, $3, ($2 > 0 ? $3 / $2 : 0), $4 }'
        r=$((r + 1))
    done
done
rm -f "$DIR/new.out" "$DIR/old.out" "$DIR/time"
