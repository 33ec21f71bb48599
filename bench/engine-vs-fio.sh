#!/bin/sh
# benchlog's engine against Debian's fio, same jobs, taking turns, on this machine.
#
#   sh bench/engine-vs-fio.sh [BENCHLOG] [DIR]
#
# BENCHLOG defaults to build/benchlog, DIR (where the 1 GiB test file goes) to /tmp.
# RUNTIME (s, default 5) and ROUNDS (default 4) set how long each run is and how many
# fio/benchlog turns each case gets. For every case it prints IOPS of both, the ratio
# benchlog/fio (>= 1.0 means we are not slower) and the ratio of CPU time per I/O
# (user+sys of the whole process / I/Os done; <= 1.0 means we spend less per I/O), and for
# both tools IOPS x mean latency (lat = slat + clat): by Little's law the number of I/Os in
# flight, which must come out at iodepth x numjobs for a queue kept full and latency stamped
# right (issue 18: ours was 4-15 at QD32). The figure is the mean over the rounds.
# Each engine is compared with fio's same engine, with fio's defaults (for io_uring that is
# fixedbufs=0 and registerfiles=0; the -fixed case gives fio both, as ours always has them).
# CASES="name|fio options" (one a line) replaces the list below.
# Needs: fio, jq, GNU time (/usr/bin/time).
set -eu
BL=${1:-build/benchlog}
DIR=${2:-/tmp}
RUNTIME=${RUNTIME:-5}
ROUNDS=${ROUNDS:-4}
WORK=$(mktemp -d "$DIR/benchlog-bench.XXXXXX")
FILE="$WORK/testfile"
trap 'rm -rf "$WORK"' EXIT INT TERM

# The shared test file, written once by fio (not timed).
fio --name=layout --filename="$FILE" --size=1g --rw=write --bs=1m --direct=1 \
    --ioengine=libaio --iodepth=8 --output=/dev/null

# case name | options shared by both tools (fio command line syntax)
CASES=${CASES:-"randread-4k-qd32-libaio|--rw=randread --bs=4k --iodepth=32 --ioengine=libaio --direct=1
randread-4k-qd1-libaio|--rw=randread --bs=4k --iodepth=1 --ioengine=libaio --direct=1
seqread-1m-qd8-libaio|--rw=read --bs=1m --iodepth=8 --ioengine=libaio --direct=1
randread-4k-qd32x4-libaio|--rw=randread --bs=4k --iodepth=32 --numjobs=4 --group_reporting --ioengine=libaio --direct=1
randread-4k-qd8-libaio|--rw=randread --bs=4k --iodepth=8 --ioengine=libaio --direct=1
randread-4k-qd64-libaio|--rw=randread --bs=4k --iodepth=64 --ioengine=libaio --direct=1
randread-4k-qd32-io_uring|--rw=randread --bs=4k --iodepth=32 --ioengine=io_uring --direct=1
randread-4k-qd1-io_uring|--rw=randread --bs=4k --iodepth=1 --ioengine=io_uring --direct=1
seqread-1m-qd8-io_uring|--rw=read --bs=1m --iodepth=8 --ioengine=io_uring --direct=1
randread-4k-qd32x4-io_uring|--rw=randread --bs=4k --iodepth=32 --numjobs=4 --group_reporting --ioengine=io_uring --direct=1
randread-4k-qd32-io_uring-fixed|--rw=randread --bs=4k --iodepth=32 --ioengine=io_uring --fixedbufs=1 --registerfiles=1 --direct=1
randread-4k-qd1-sync|--rw=randread --bs=4k --iodepth=1 --ioengine=psync --direct=1
null-4k-qd1|--rw=randread --bs=4k --iodepth=1 --ioengine=null"}

# Runs fio once; prints "IOS CPU_SECONDS IOPS INFLIGHT" (INFLIGHT = IOPS x mean lat).
run_fio() {
    /usr/bin/time -f "%U %S" -o "$WORK/time" fio --name=bench --filename="$FILE" --size=1g \
        --runtime="$RUNTIME" --time_based $1 --output-format=terse --terse-version=3 \
        >"$WORK/fio.out"
    # terse v3: field 6 = read KiB, 8 = read IOPS, 40 = read lat mean (us); bs from the options
    bs=$(echo "$1" | sed -n 's/.*--bs=\([0-9]*\)\([km]\).*/\1 \2/p' |
        awk '{print $1 * ($2 == "k" ? 1024 : 1048576)}')
    awk -F';' -v bs="$bs" '{printf "%.0f %s %.4f\n", $6 * 1024 / bs, $8, $8 * $40 / 1e6}' \
        "$WORK/fio.out" >"$WORK/fio.res"
    read ios iops inflight <"$WORK/fio.res"
    read u s <"$WORK/time"
    echo "$ios $(echo "$u $s" | awk '{print $1 + $2}') $iops $inflight"
}

# Runs benchlog once on the same file with the same options as a job file.
run_bl() {
    {
        echo "[bench]"
        echo "filename=$FILE"
        echo "size=1g"
        echo "runtime=$RUNTIME"
        echo "time_based"
        echo "$1" | tr ' ' '\n' | sed 's/^--//'
    } >"$WORK/job.fio"
    rm -f "$WORK/bl.db"
    /usr/bin/time -f "%U %S" -o "$WORK/time" "$BL" run --db "$WORK/bl.db" --allow-overwrite \
        "$WORK/job.fio" >/dev/null 2>"$WORK/bl.err" || { cat "$WORK/bl.err" >&2; exit 1; }
    "$BL" export --db "$WORK/bl.db" --jsonl |
        jq -r '"\(.io_bytes / .bs | floor) \(.iops) \(.iops * .lat_ns.mean / 1e9)"' >"$WORK/bl.res"
    read ios iops inflight <"$WORK/bl.res"
    read u s <"$WORK/time"
    echo "$ios $(echo "$u $s" | awk '{print $1 + $2}') $iops $inflight"
}

printf "%-31s %12s %12s %8s %14s %14s %8s %9s %9s\n" case "fio IOPS" "bl IOPS" ratio \
    "fio CPU/IO" "bl CPU/IO" ratio "fio IOxL" "bl IOxL"
echo "$CASES" | while IFS='|' read -r name opts; do
    fi_ios=0 fi_cpu=0 fi_iops=0 fi_l=0 bl_ios=0 bl_cpu=0 bl_iops=0 bl_l=0
    r=0
    while [ $r -lt "$ROUNDS" ]; do
        # Each tool goes first in every other round, so that whatever a run leaves behind
        # (device caches, readahead, heat) favours neither.
        for who in $([ $((r % 2)) -eq 0 ] && echo "fio bl" || echo "bl fio"); do
            if [ "$who" = fio ]; then
                set -- $(run_fio "$opts")
                fi_ios=$(echo "$fi_ios $1" | awk '{print $1 + $2}')
                fi_cpu=$(echo "$fi_cpu $2" | awk '{print $1 + $2}')
                fi_iops=$(echo "$fi_iops $3" | awk '{print $1 + $2}')
                fi_l=$(echo "$fi_l $4" | awk '{print $1 + $2}')
            else
                set -- $(run_bl "$opts")
                bl_ios=$(echo "$bl_ios $1" | awk '{print $1 + $2}')
                bl_cpu=$(echo "$bl_cpu $2" | awk '{print $1 + $2}')
                bl_iops=$(echo "$bl_iops $3" | awk '{print $1 + $2}')
                bl_l=$(echo "$bl_l $4" | awk '{print $1 + $2}')
            fi
        done
        r=$((r + 1))
    done
    echo "$name $fi_iops $bl_iops $fi_cpu $fi_ios $bl_cpu $bl_ios $ROUNDS $fi_l $bl_l" | awk '{
        fi = $2 / $8; bl = $3 / $8
        fc = $4 / $5 * 1e9; bc = $6 / $7 * 1e9
        printf "%-31s %12.0f %12.0f %8.2f %11.0f ns %11.0f ns %8.2f %9.2f %9.2f\n", $1, fi, bl, bl / fi, fc, bc, bc / fc, $9 / $8, $10 / $8
    }'
done
