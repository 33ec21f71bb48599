#!/bin/sh
# Runs each cmocka test program, then prints one closing line: "N passed, N failed, N skipped"
# and, when some skipped, the reasons they printed ("[  SKIP    ] why", tests/support/support.h),
# and the slowest programs with their seconds (CI must stay under an hour).
#
# Programs run BENCHLOG_TEST_JOBS at a time (default: the number of CPUs), each log printed whole
# when its program ends. The runner's programs (and fio_hosts, which runs fio, and history,
# which times real dd runs paced by a pause) measure time and rates, so they run afterwards one
# at a time, alone on the machine: a neighbour taking the CPU would make their figures wrong,
# not the code.
#
# With BENCHLOG_VALGRIND=1 each program runs under valgrind and a leak fails it. --fair-sched:
# valgrind runs one thread at a time, and without it a spinning worker (the null engine) can
# keep the sampler thread from ever running, so a time-based job got no bandwidth samples.
set -u

if [ "${1:-}" = --one ]; then # --one PROGRAM RESULTS-DIR: run one program, keep its log and rc
    t=$2
    res=$3/$(basename "$t")
    start=$(date +%s)
    if [ "${BENCHLOG_VALGRIND:-}" = 1 ]; then
        valgrind -q --fair-sched=yes --suppressions=tests/valgrind.supp --leak-check=full \
            --errors-for-leak-kinds=definite,indirect --error-exitcode=99 "$t" >"$res.log" 2>&1
    else
        "$t" >"$res.log" 2>&1
    fi
    echo $? >"$res.rc"
    echo $(($(date +%s) - start)) >"$res.time"
    flock "$3/.print" cat "$res.log"
    exit 0
fi

jobs=${BENCHLOG_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
: >"$results/.print"

# The slowest programs (under valgrind: 100-300 s each) start first, so that the pool does not
# end with one long program on one CPU while the others idle.
slow=""
shared=""
alone=""
for t in "$@"; do
    case $(basename "$t") in
    test_runner_* | test_fio_hosts | test_history) alone="$alone $t" ;;
    test_hostile | test_runs | test_store | test_report_pdf | test_xlsx | test_team_store | \
        test_cli | test_page_browser | test_store_stream | test_pg_fold | test_fold_outputs) slow="$slow $t" ;;
    *) shared="$shared $t" ;;
    esac
done
shared="$slow$shared"
# shellcheck disable=SC2086 # the lists are words by design (paths have no spaces)
[ -n "$shared" ] && printf '%s\n' $shared | xargs -P "$jobs" -I{} sh "$0" --one {} "$results"
for t in $alone; do
    sh "$0" --one "$t" "$results"
done

passed=0
failed=0
skipped=0
failed_names=""
for t in "$@"; do
    res=$results/$(basename "$t")
    log=$res.log
    rc=$(cat "$res.rc" 2>/dev/null || echo 127)
    # cmocka prints "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s)..."
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    k=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    skipped=$((skipped + ${k:-0}))
    sed -n "s|^\[  SKIP    \] |  $(basename "$t"): |p" "$log" >>"$results/.reasons"
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    echo "$(cat "$res.time" 2>/dev/null || echo 0) $(basename "$t")" >>"$results/.times"
    if [ "$rc" -ne 0 ]; then
        failed_names="$failed_names $(basename "$t")"
        [ -z "$f" ] && failed=$((failed + 1))
    fi
done
echo "slowest programs (s):$(sort -rn "$results/.times" | head -n 8 | awk '{printf " %s %s", $2, $1}')"
[ -n "$failed_names" ] && echo "failing programs:$failed_names"
if [ "$skipped" -gt 0 ]; then
    echo "skipped, and why:"
    sort -u "$results/.reasons"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ -z "$failed_names" ]
