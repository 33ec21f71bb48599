#!/bin/sh
# benchlog's fio JSON reader on a JSON of many jobs, against python's json.load of the same
# file (the anchor of issue 26), in alternating rounds; prints each time and the ratio.
#
#   sh bench/fio-json-jobs.sh [BENCHLOG_BINARY] [OLD_BINARY]
#
# The document is a real fio 3.33 JSON (fixtures/fio/clones-3.33.out's JSON: four clones of
# one job) whose job objects are repeated with new names until it holds JOBS jobs: every
# name held by 4 jobs, so the clone search of bl_fio_clone_totals works on JOBS/4 sets.
# OLD_BINARY (another build) runs in the same rounds, for a before/after.
# Knobs: JOBS (20000), ROUNDS (3), BENCH_DIR (/tmp/benchlog-fio-json).
set -eu
BIN=${1:-build/benchlog}
OLD=${2:-}
JOBS=${JOBS:-20000}
ROUNDS=${ROUNDS:-3}
DIR=${BENCH_DIR:-/tmp/benchlog-fio-json}
PY=${PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$DIR"
doc=$DIR/jobs-$JOBS.json
"$PY" - "$here/fixtures/fio/clones-3.33.out" "$JOBS" "$doc" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
d, _ = json.JSONDecoder().raw_decode(text[text.index("{"):])
seed = d["jobs"]
n = int(sys.argv[2])
jobs = []
for i in range(n):
    j = dict(seed[i % len(seed)])
    j["jobname"] = "job%d" % (i // len(seed))
    jobs.append(j)
d["jobs"] = jobs
json.dump(d, open(sys.argv[3], "w"), indent=2)
PY
size=$(wc -c < "$doc")
echo "fio JSON: $JOBS jobs, $size bytes"
t() { # t LABEL CMD...: wall and CPU (user+sys) seconds, MB/s of each, peak RSS (KiB) of one run
    label=$1; shift
    /usr/bin/time -f "%e %U %S %M" -o "$DIR/time" "$@" > /dev/null 2>&1 || true
    read -r s u sy kb < "$DIR/time"
    echo "$s $u $sy $kb $size" | awk -v l="$label" '{c = $2 + $3; printf "  %s: %.2f s wall (%.0f MB/s), %.2f s CPU (%.0f MB/s), %d KiB peak\n", l, $1, $5 / 1e6 / ($1 > 0 ? $1 : 0.01), c, $5 / 1e6 / (c > 0 ? c : 0.01), $4}'
    eval "last_$label=$s"
    eval "cpu_$label=$(echo "$u $sy" | awk '{print $1 + $2}')"
}
i=1
while [ $i -le $ROUNDS ]; do
    echo "round $i"
    t benchlog "$BIN" parse --as fio-json "$doc"
    [ -n "$OLD" ] && t old "$OLD" parse --as fio-json "$doc"
    t python "$PY" -c "import json,sys; json.load(open(sys.argv[1]))" "$doc"
    echo "  benchlog / json.load: $(echo "$last_benchlog $last_python" | awk '{printf "%.2f", $1 / $2}')"
    [ -n "$OLD" ] && echo "  old / new: wall $(echo "$last_old $last_benchlog" | awk '{printf "%.2f", $1 / $2}'), CPU $(echo "$cpu_old $cpu_benchlog" | awk '{printf "%.2f", $1 / ($2 > 0 ? $2 : 0.01)}')"
    i=$((i + 1))
done
