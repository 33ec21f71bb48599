#!/bin/sh
# benchlog's fio log reader against fio's own log tools, on logs in fio's exact format.
#
#   sh bench/fio-log.sh [BENCHLOG_BINARY]      (default build/benchlog)
#
# 1. A real fio run (psync randread on a page-cached file, per-I/O clat log, and a clat
#    histogram log with log_hist_msec) gives seed logs. The big latency log repeats the
#    seed's lines with the time shifted on, so it stays one monotonic log of fio's shape,
#    written with the 4 columns "time, value, ddir, bs" that fiologparser.py can read (it
#    splits on ", " into exactly four fields and fails on fio 3.x's 5-column logs).
# 2. benchlog parse --as fio-log on the whole log (>= 1 GB): time, MB/s, peak RSS.
# 3. fiologparser.py keeps every sample as a Python object and rescans them all for each
#    interval, so it cannot take 1 GB here (tens of GB of RAM); it runs on prefixes of the
#    same log, as does benchlog, and the ratio is given per prefix.
# 4. fiologparser_hist.py (numpy/pandas: apt-get install python3-numpy python3-pandas) and
#    fio2gnuplot run on a histogram log and on the whole latency log.
# Knobs: BENCH_DIR (/tmp/benchlog-fio-log), SIZE_MB (1100), HIST_MB (256),
#        PY_PREFIX_MB ("16 64"), KEEP=1 keeps the files, REF=0 skips fio's tools.
set -eu
BIN=${1:-build/benchlog}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
DIR=${BENCH_DIR:-/tmp/benchlog-fio-log}
SIZE_MB=${SIZE_MB:-1100}
HIST_MB=${HIST_MB:-256}
PY_PREFIX_MB=${PY_PREFIX_MB:-"16 64"}
DOC=/usr/share/doc/fio
# Debian's python3 has python3-numpy/pandas; a pyenv python on PATH may not.
PY=${PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)}
mkdir -p "$DIR"
cd "$DIR"
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$DIR"' EXIT

# --- tools ------------------------------------------------------------------------------
tool() { # unpacks fio's gzipped python tools
    [ -f "$1" ] || { zcat "$DOC/$1.gz" >"$1" 2>/dev/null || return 1; }
}
tool fiologparser.py || echo "fiologparser.py not found under $DOC"
tool fiologparser_hist.py || echo "fiologparser_hist.py not found under $DOC"

# run LABEL CMD...: wall seconds, peak RSS (KiB) and CPU seconds (user+sys) of CMD, output
# to /dev/null. On a shared machine the CPU time is the steadier measure of one core's speed.
run() {
    label=$1
    shift
    /usr/bin/time -f "%e %M %U %S" -o "$DIR/time.out" "$@" >/dev/null 2>"$DIR/err.out" || {
        echo "$label: failed: $(tail -n 2 "$DIR/err.out" | tr '\n' ' ')"
        return 1
    }
    read -r secs rss usr sys <"$DIR/time.out"
    echo "$secs $rss $(awk -v u="$usr" -v s="$sys" 'BEGIN { print u + s }')"
}

mbps() { awk -v b="$1" -v s="$2" 'BEGIN { r = s > 0 ? b / 1e6 / s : 0; printf (r < 10 ? "%.2f" : "%.0f"), r }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }
fsize() { stat -c %s "$1"; }

# --- seed logs from a real fio run --------------------------------------------------------
echo "fio: $(fio --version); making seed logs in $DIR"
fio --name=seed --directory="$DIR" --size=64m --rw=randread --bs=4k --ioengine=psync \
    --time_based --runtime=2 --write_lat_log=seed --log_avg_msec=0 \
    --output=/dev/null >/dev/null
fio --name=hseed --directory="$DIR" --size=64m --rw=randrw --bs=4k --ioengine=psync \
    --time_based --runtime=2 --write_hist_log=hseed --log_hist_msec=10 \
    --output=/dev/null >/dev/null
rm -f seed.*.0 hseed.*.0 seed_slat.* seed_lat.* hseed_*lat.*.log 2>/dev/null || true

# --- big logs ----------------------------------------------------------------------------
# repeat LOG TARGET_BYTES OUT: copies LOG's lines, shifting time by LOG's span each round,
# keeping columns 2-4 (value, ddir, bs) or, for histograms, all columns.
repeat() {
    awk -F', ' -v target="$2" -v hist="$4" '
        { t[NR] = $1; if (hist) { sub(/^[0-9]+, /, ""); r[NR] = $0 }
          else r[NR] = $2 ", " $3 ", " $4; len += length($0) + 1 }
        END {
            span = t[NR] + 1; reps = int(target / len) + 1
            for (k = 0; k < reps; k++)
                for (i = 1; i <= NR; i++)
                    printf "%d, %s\n", t[i] + k * span, r[i]
        }' "$1" >"$3"
}
big=big_clat.1.log
hist=big_clat_hist.1.log
repeat seed_clat.1.log $((SIZE_MB * 1000000)) $big 0
repeat hseed_clat_hist.1.log $((HIST_MB * 1000000)) $hist 1
echo "latency log: $big, $(fsize $big) bytes, $(wc -l <$big) lines"
echo "histogram log: $hist, $(fsize $hist) bytes, $(wc -l <$hist) lines"
echo

# --- benchlog on the whole logs ----------------------------------------------------------
set -- $(run benchlog "$BIN" parse --as fio-log $big)
b_s=$1
echo "benchlog  latency log $(fsize $big) B: ${b_s} s wall ($(mbps $(fsize $big) $b_s) MB/s), $3 s CPU ($(mbps $(fsize $big) $3) MB/s), peak RSS $2 KiB"
set -- $(run benchlog "$BIN" parse --as fio-log $hist)
h_s=$1
echo "benchlog  histogram log $(fsize $hist) B: ${h_s} s wall ($(mbps $(fsize $hist) $h_s) MB/s), $3 s CPU ($(mbps $(fsize $hist) $3) MB/s), peak RSS $2 KiB"

[ "${REF:-1}" = 0 ] && exit 0

# --- fiologparser.py on prefixes of the same latency log ----------------------------------
if [ -f fiologparser.py ]; then
    for mb in $PY_PREFIX_MB; do
        p=prefix${mb}_clat.1.log
        head -c $((mb * 1000000)) $big | sed '$d' >$p
        sz=$(fsize $p)
        set -- $(run benchlog "$BIN" parse --as fio-log $p)
        bs=$1
        if set -- $(run fiologparser.py $PY fiologparser.py $p); then
            echo "prefix ${mb} MB: benchlog ${bs} s ($(mbps $sz $bs) MB/s), fiologparser.py $1 s ($(mbps $sz $1) MB/s, RSS $2 KiB), ratio $(ratio $1 $bs)x"
        fi
        rm -f $p
    done
fi

# --- fiologparser_hist.py and fio2gnuplot -------------------------------------------------
if [ -f fiologparser_hist.py ] && $PY -c 'import numpy, pandas' 2>/dev/null; then
    if set -- $(run fiologparser_hist.py $PY fiologparser_hist.py $hist); then
        echo "fiologparser_hist.py histogram log: $1 s ($(mbps $(fsize $hist) $1) MB/s, RSS $2 KiB), ratio $(ratio $1 $h_s)x"
    fi
else
    echo "fiologparser_hist.py skipped: needs python3-numpy and python3-pandas"
fi
if command -v fio2gnuplot >/dev/null; then
    mkdir -p gp
    if set -- $(run fio2gnuplot fio2gnuplot -p "$big" -d "$DIR/gp/"); then
        echo "fio2gnuplot latency log: $1 s ($(mbps $(fsize $big) $1) MB/s, RSS $2 KiB), ratio $(ratio $1 $b_s)x"
    fi
fi
