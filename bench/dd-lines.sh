#!/bin/sh
# parse and import of a text of N dd summary lines (issue 26: 1,000,000 lines, 48 MB), wall
# and CPU time and peak RSS of each, with OLD_BINARY (another build) in the same rounds for a
# before/after; `wc -l` on the same file is printed as the floor.
#
#   sh bench/dd-lines.sh [BENCHLOG_BINARY] [OLD_BINARY]
#
# Knobs: LINES (1000000), ROUNDS (1), IMPORT (1; 0 skips import), BENCH_DIR
# (/tmp/benchlog-dd-lines), PG_URL (a postgresql:// database benchlog may fill: import is
# timed there too; its tables are dropped before each import).
set -eu
BIN=${1:-build/benchlog}
OLD=${2:-}
LINES=${LINES:-1000000}
ROUNDS=${ROUNDS:-1}
IMPORT=${IMPORT:-1}
DIR=${BENCH_DIR:-/tmp/benchlog-dd-lines}
PG_URL=${PG_URL:-}
mkdir -p "$DIR"
txt=$DIR/dd.txt
awk -v n="$LINES" 'BEGIN { for (i = 1; i <= n; i++) { b = i * 1048576; s = 1.5 + i % 7
    printf "%.0f bytes copied, %.1f s, %.0f kB/s\n", b, s, b / s / 1e3 } }' > "$txt"
echo "dd text: $(wc -c < "$txt") bytes, $LINES lines"
t() { # t LABEL CMD...: wall and CPU (user+sys) seconds and peak RSS (KiB) of one run; the
      # machine is shared: CPU is the figure to compare
    label=$1; shift
    /usr/bin/time -f "%e %M %U %S" -o "$DIR/time" "$@" > /dev/null 2>&1 || true
    read -r s kib usr sys <<EOT
$(tail -n 1 "$DIR/time")
EOT
    printf '  %-14s %7.2f s   cpu %7.2f s %9d KiB\n' "$label" "$s" \
        "$(echo "$usr $sys" | awk '{ print $1 + $2 }')" "$kib"
}
pg_empty() { # the PostgreSQL store emptied: benchlog makes its tables again
    psql -q "$PG_URL" -c 'SET client_min_messages = warning' -c 'DROP TABLE IF EXISTS records, runs, imports, meta, shapes CASCADE' >/dev/null
}
for r in $(seq "$ROUNDS"); do
    echo "round $r"
    t "wc -l" wc -l "$txt"
    t parse "$BIN" parse "$txt"
    [ -n "$OLD" ] && t "old parse" "$OLD" parse "$txt"
    if [ "$IMPORT" = 1 ]; then
        rm -f "$DIR/new.db" "$DIR/old.db"
        t import "$BIN" import -q --db "$DIR/new.db" "$txt"
        [ -n "$OLD" ] && t "old import" "$OLD" import -q --db "$DIR/old.db" "$txt"
        if [ -n "$PG_URL" ]; then
            pg_empty
            t "import pg" "$BIN" import -q --db "$PG_URL" "$txt"
            pg_empty
            [ -n "$OLD" ] && t "old import pg" "$OLD" import -q --db "$PG_URL" "$txt"
        fi
    fi
done
rm -f "$txt" "$DIR/new.db" "$DIR/old.db"
