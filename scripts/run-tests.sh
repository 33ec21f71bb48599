#!/bin/sh
# Runs each cmocka test program, then prints one closing line: "N passed, N failed, N skipped"
# and, when some skipped, the reasons they printed ("[  SKIP    ] why", tests/support/support.h).
# With BENCHLOG_VALGRIND=1 each program runs under valgrind and a leak fails it. --fair-sched:
# valgrind runs one thread at a time, and without it a spinning worker (the null engine) can
# keep the sampler thread from ever running, so a time-based job got no bandwidth samples.
set -u
passed=0
failed=0
skipped=0
reasons=$(mktemp)
failed_names=""
for t in "$@"; do
    log=$(mktemp)
    if [ "${BENCHLOG_VALGRIND:-}" = 1 ]; then
        valgrind -q --fair-sched=yes --suppressions=tests/valgrind.supp --leak-check=full --errors-for-leak-kinds=definite,indirect \
            --error-exitcode=99 "$t" >"$log" 2>&1
    else
        "$t" >"$log" 2>&1
    fi
    rc=$?
    cat "$log"
    # cmocka prints "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s)..."
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    k=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    skipped=$((skipped + ${k:-0}))
    sed -n "s|^\[  SKIP    \] |  $(basename "$t"): |p" "$log" >>"$reasons"
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    if [ $rc -ne 0 ]; then
        failed_names="$failed_names $(basename "$t")"
        [ -z "$f" ] && failed=$((failed + 1))
    fi
    rm -f "$log"
done
[ -n "$failed_names" ] && echo "failing programs:$failed_names"
if [ "$skipped" -gt 0 ]; then
    echo "skipped, and why:"
    sort -u "$reasons"
fi
rm -f "$reasons"
echo "$passed passed, $failed failed, $skipped skipped"
[ -z "$failed_names" ]
