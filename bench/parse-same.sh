#!/bin/sh
# Whether two binaries turn the same files into the same bytes: `parse FILE` (stdout, stderr,
# exit code) and `import FILE` into an empty store (the same three) then `export --jsonl`,
# for every file under each DIR_OR_FILE. For a speed-up that must not change a byte.
#
#   sh bench/parse-same.sh NEW_BINARY OLD_BINARY DIR_OR_FILE...
#
# Prints each difference and a count; exit 0 when there was none. IMPORT=0 skips import.
set -eu
NEW=${1:?new binary}
OLD=${2:?old binary}
shift 2
IMPORT=${IMPORT:-1}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
files=0
diffs=0
run() { # run TAG BINARY ARGS...: stdout, stderr and exit code of one run in $T/TAG.*
    tag=$1
    shift
    rc=0
    "$@" > "$T/$tag.out" 2> "$T/$tag.err" || rc=$?
    echo "$rc" > "$T/$tag.rc"
}
same() { # same WHAT FILE: the new and the old run's three outputs compared
    for k in out err rc; do
        if ! cmp -s "$T/new.$k" "$T/old.$k"; then
            echo "DIFFERENT $1 $k: $2"
            diff "$T/new.$k" "$T/old.$k" | head -5
            diffs=$((diffs + 1))
        fi
    done
}
for f in $(find "$@" -type f | sort); do
    files=$((files + 1))
    run new "$NEW" parse "$f"
    run old "$OLD" parse "$f"
    same parse "$f"
    [ "$IMPORT" = 1 ] || continue
    rm -f "$T/new.db" "$T/old.db"
    run new "$NEW" import --db "$T/new.db" "$f"
    run old "$OLD" import --db "$T/old.db" "$f"
    same import "$f"
    run new "$NEW" export --jsonl --db "$T/new.db"
    run old "$OLD" export --jsonl --db "$T/old.db"
    same export "$f"
done
echo "$files files, $diffs differences"
[ "$diffs" = 0 ]
