#!/bin/sh
# A 12-point sweep run by benchlog (one `benchlog run --sweep` a round) and the same points run
# by fio (one fio a point, as fio-plot's bench-fio does), in alternating rounds on one file.
#
#   sh bench/sweep-vs-fio.sh [BENCHLOG] [DIR]
#
# BENCHLOG defaults to build/benchlog, DIR (where the test file goes) to /tmp. RUNTIME (s a
# point, default 2), ROUNDS (default 2), SIZE (default 1g), ENGINE (libaio or io_uring, default
# libaio), RW (default randread) and BS (default 4k) set the workload; DEPTHS (default
# "1 2 4 8 16 32") and JOBS (default "1 2") the matrix. For every point it prints the IOPS of
# both, averaged over the rounds, the ratio benchlog/fio and for both IOPS x mean latency (lat
# = slat + clat), which by Little's law must come out at iodepth x numjobs.
# Needs: fio, jq.
set -eu
BL=${1:-build/benchlog}
DIR=${2:-/tmp}
RUNTIME=${RUNTIME:-2}
ROUNDS=${ROUNDS:-2}
SIZE=${SIZE:-1g}
ENGINE=${ENGINE:-libaio}
RW=${RW:-randread}
BS=${BS:-4k}
DEPTHS=${DEPTHS:-"1 2 4 8 16 32"}
JOBS=${JOBS:-"1 2"}
WORK=$(mktemp -d "$DIR/benchlog-sweep.XXXXXX")
FILE="$WORK/testfile"
trap 'rm -rf "$WORK"' EXIT INT TERM

# The shared test file, written once by fio (not timed).
fio --name=layout --filename="$FILE" --size="$SIZE" --rw=write --bs=1m --direct=1 \
    --ioengine=libaio --iodepth=8 --output=/dev/null

csv() { echo "$1" | tr ' ' ','; }

# One benchlog round: the whole matrix in one command; lines "depth jobs iops inflight".
bl_round() {
    cat >"$WORK/job.fio" <<JOB
[sweep]
filename=$FILE
size=$SIZE
rw=$RW
bs=$BS
ioengine=$ENGINE
direct=1
runtime=$RUNTIME
time_based
JOB
    rm -f "$WORK/bl.db"
    "$BL" run --db "$WORK/bl.db" --allow-overwrite \
        --sweep "iodepth=$(csv "$DEPTHS") numjobs=$(csv "$JOBS")" "$WORK/job.fio" \
        >/dev/null 2>"$WORK/bl.err" || { cat "$WORK/bl.err" >&2; exit 1; }
    "$BL" export --db "$WORK/bl.db" --jsonl |
        jq -r '"\(.iodepth) \(.numjobs) \(.iops) \(.iops * .lat_ns.mean / 1e9)"'
}

# One fio round: a fio a point; terse v3 field 8 = read IOPS, 40 = read lat mean (us),
# 49 = write IOPS, 81 = write lat mean.
fio_round() {
    for d in $DEPTHS; do
        for j in $JOBS; do
            fio --name=sweep --filename="$FILE" --size="$SIZE" --rw="$RW" --bs="$BS" \
                --ioengine="$ENGINE" --direct=1 --iodepth="$d" --numjobs="$j" --group_reporting \
                --runtime="$RUNTIME" --time_based --output-format=terse --terse-version=3 |
                awk -F';' -v d="$d" -v j="$j" '{
                    iops = $8 + $49; lat = ($8 * $40 + $49 * $81) / (iops ? iops : 1)
                    printf "%s %s %s %.4f\n", d, j, iops, iops * lat / 1e6 }'
        done
    done
}

: >"$WORK/all"
r=1
while [ "$r" -le "$ROUNDS" ]; do
    fio_round | sed 's/^/fio /' >>"$WORK/all"
    bl_round | sed 's/^/bl /' >>"$WORK/all"
    r=$((r + 1))
done

echo "# $RW $BS $ENGINE direct, $SIZE file in $DIR, ${RUNTIME}s a point, $ROUNDS rounds; $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| point | fio IOPS | benchlog IOPS | ratio | fio IOxL | benchlog IOxL | want |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
awk '
    { k = $2 " " $3; n[$1, k]++; iops[$1, k] += $4; inf[$1, k] += $5; if (!(k in seen)) { seen[k] = 1; order[++m] = k } }
    END {
        for (i = 1; i <= m; i++) {
            k = order[i]; split(k, p, " ")
            fi = iops["fio", k] / n["fio", k]; bi = iops["bl", k] / n["bl", k]
            printf "| QD%s x%s | %.0f | %.0f | %.2f | %.2f | %.2f | %d |\n", p[1], p[2], fi, bi,
                fi ? bi / fi : 0, inf["fio", k] / n["fio", k], inf["bl", k] / n["bl", k], p[1] * p[2]
        }
    }' "$WORK/all"
