#!/bin/sh
# Builds the libFuzzer targets with clang and runs each for SECONDS seconds.
#   sh scripts/fuzz.sh SECONDS
# FUZZ_SEED fixes libFuzzer's seed (make fuzz-smoke uses the day, YYYYMMDD, so each day's CI
# explores other paths while a failure is repeated by FUZZ_SEED=<printed seed>); unset or 0
# picks one from the clock. The seed is printed first.
# Targets: one per registered format (parsers/registry.c), "auto" (format detection), the JSON
# Lines reader, the text normaliser, and every tests/fuzz/fuzz_*.c (fuzz_out_*: the output
# writers, Markdown, CSV, SVG, HTML, whose oracles parse SVG and HTML with libxml2). Seeds come from fixtures/
# and, when present, from the real outputs in $BENCHLOG_CORPUS (default ../shared/corpus),
# which are only read. A crash leaves its input in build-fuzz/crashes/ and fails the run; make
# it a regression test in fixtures/.
set -eu
SECONDS_EACH=${1:-60}
B=build-fuzz
FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -g -O1"
make -s BUILD=$B CC=clang OPT= CFLAGS="-g -O1" SAN="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all" $B/libbenchlog.a
# The same libraries as the Makefile links: its PKGS line is the one list.
PKGS=$(sed -n 's/^PKGS *:= *//p' Makefile)
INC=$(pkg-config --cflags $PKGS)
LIBS="$(pkg-config --libs $PKGS) -laio -lm -lpthread"
# The output writers' oracles parse with libxml2 (libxml2-dev, scripts/deps.sh's test set).
XML_INC=$(pkg-config --cflags libxml-2.0)
XML_LIBS=$(pkg-config --libs libxml-2.0)
mkdir -p $B/fuzz $B/crashes
formats=$(sed -n 's/^ *X(\([a-z0-9_]*\)).*/\1/p' parsers/registry.c)
targets=""
for f in auto $formats; do
    name=$(echo "$f" | tr _ -)
    clang -std=c11 -D_GNU_SOURCE $FLAGS -fsanitize=fuzzer $INC -I. -DFUZZ_FORMAT="\"$name\"" \
        tests/fuzz/fuzz_parse.c $B/libbenchlog.a $LIBS -o $B/fuzz/parse-$f
    targets="$targets parse-$f"
done
for src in tests/fuzz/fuzz_*.c; do
    t=$(basename "$src" .c)
    [ "$t" = fuzz_parse ] && continue
    clang -std=c11 -D_GNU_SOURCE $FLAGS -fsanitize=fuzzer $INC $XML_INC -I. "$src" \
        $B/libbenchlog.a $LIBS $XML_LIBS -o $B/fuzz/$t
    targets="$targets $t"
done
seeds=$(find fixtures -type d ! -path fixtures | sort)
corpus=${BENCHLOG_CORPUS:-../shared/corpus}
if [ -d "$corpus" ]; then
    seeds="$seeds $(find "$corpus" -mindepth 1 -type d | sort)"
    echo "fuzz: seeds from fixtures/ and $corpus"
else
    echo "fuzz: seeds from fixtures/ ($corpus absent)"
fi
seed=${FUZZ_SEED:-0}
[ "$seed" = 0 ] && seed=$(date +%s)
echo "fuzz: libFuzzer seed $seed (repeat with FUZZ_SEED=$seed)"
# Each target runs for the same time, so FUZZ_JOBS of them (default: the number of CPUs) run
# side by side in batches: the same fuzzing per target in a fraction of the wall time.
run_target() { # run_target NAME: fuzz it; a failure leaves $B/fuzz/NAME.failed
    mkdir -p $B/corpus/$1
    rm -f $B/fuzz/$1.failed
    if ! $B/fuzz/$1 -max_total_time="$SECONDS_EACH" -seed="$seed" -timeout=10 \
        -rss_limit_mb=2048 \
        -max_len=262144 -print_final_stats=0 -artifact_prefix=$B/crashes/$1- \
        $B/corpus/$1 $seeds >$B/fuzz/$1.log 2>&1; then
        : >$B/fuzz/$1.failed
    fi
}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
batch=0
for t in $targets; do
    echo "fuzz: $t for ${SECONDS_EACH}s"
    run_target "$t" &
    batch=$((batch + 1))
    if [ $batch -ge "$jobs" ]; then
        wait
        batch=0
    fi
done
wait
status=0
for t in $targets; do
    [ -e $B/fuzz/$t.failed ] || continue
    echo "fuzz: $t FAILED; see $B/fuzz/$t.log and $B/crashes/"
    tail -n 30 $B/fuzz/$t.log
    status=1
done
exit $status
