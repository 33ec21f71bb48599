#!/bin/sh
# `report FILTER` with terms on what a record's shape keeps (labels, source, bs...): NEW (the
# grouped query, C deciding those terms on each shape) against OLD (on PostgreSQL a walk of
# every record for them, on SQLite json_extract on each), in alternating rounds on one store
# of N records made by bench/gen_store.c, on PostgreSQL then on SQLite; the outputs must be
# the same. Each: wall time, benchlog's CPU (user+sys) and on PostgreSQL, with PGDATA, the
# server's CPU (its backends', reaped by the postmaster), means over ROUNDS, and OLD/NEW.
#
#   sh bench/pg-filter.sh POSTGRES_URL NEW_BINARY OLD_BINARY
# POSTGRES_URL names a database benchlog may fill (its tables are dropped first). Knobs:
# N (100000), RUNS (N / 200), ROUNDS (3), MANY=1 (a source file per run: thousands of
# shapes, as a store of many dd files), PGDATA (the server's data folder, for its CPU),
# BENCH_DIR (/tmp/benchlog-pgfilter). Needs psql and /usr/bin/time.
set -eu
URL=$1
NEW=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
OLD=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
SRC=$(cd "$(dirname "$0")/.." && pwd)
LIB=$(dirname "$NEW")/libbenchlog.a
N=${N:-100000}
RUNS=${RUNS:-$((N / 200 > 0 ? N / 200 : 1))}
ROUNDS=${ROUNDS:-3}
DIR=${BENCH_DIR:-/tmp/benchlog-pgfilter}
rm -rf "$DIR"
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT
cc -O2 -std=c11 -D_GNU_SOURCE -I"$SRC" -o "$DIR/gen_store" "$SRC/bench/gen_store.c" "$LIB" \
    $(pkg-config --libs sqlite3 libpq jansson libpcre2-8 nettle) -lm

psql -q "$URL" -c 'DROP TABLE IF EXISTS records, runs, imports, meta, shapes' 2>/dev/null
"$DIR/gen_store" "$URL" "$N" "$RUNS" ${MANY:+many} >/dev/null
psql -q "$URL" -c 'VACUUM ANALYZE' # as autovacuum leaves a store at rest
"$DIR/gen_store" "$DIR/store.db" "$N" "$RUNS" ${MANY:+many} >/dev/null
echo "$N records in $RUNS runs, $(psql -tA "$URL" -c 'SELECT count(*) FROM shapes') shapes"

server_ticks() { # the server's reaped backends' CPU so far, in clock ticks (0 without PGDATA)
    if [ -n "${PGDATA:-}" ] && [ "$DB" = "$URL" ]; then
        awk '{ print $16 + $17 }' "/proc/$(head -1 "$PGDATA/postmaster.pid")/stat"
    else
        echo 0
    fi
}
HZ=$(getconf CLK_TCK)

# one TAG FILTER: benchlog TAG's report FILTER; a line "wall cpu server" added to $DIR/TAG.
one() {
    bin=$NEW
    [ "$1" = old ] && bin=$OLD
    t0=$(server_ticks)
    # shellcheck disable=SC2086 # FILTER: several terms
    /usr/bin/time -f "%e %U %S" -o "$DIR/time" "$bin" report $2 --db "$DB" >"$DIR/out.$1" \
        2>"$DIR/err" || { echo "$1 report $2: failed"; cat "$DIR/err"; exit 1; }
    [ -z "${PGDATA:-}" ] || [ "$DB" != "$URL" ] || sleep 0.5 # the postmaster reaps the backend
    t1=$(server_ticks)
    awk -v s=$((t1 - t0)) -v hz="$HZ" '{ print $1, $2 + $3, s / hz }' "$DIR/time" >>"$DIR/$1"
}

mean() { awk '{ w += $1; c += $2; s += $3 } END { printf "%.2f %.2f %.2f", w / NR, c / NR, s / NR }' "$1"; }

for DB in "$URL" "$DIR/store.db"; do
    case $DB in postgres*) echo "postgresql:" ;; *) echo "sqlite:" ;; esac
    RUN=$("$NEW" list --db "$DB" host=nas03 | head -1 | cut -c1-8)
    for filter in "host=nas03" "host~NAS0 section!=weekly" "source~nas1 bs=4096" \
        "$RUN label.host=nas03" "tool=fio"; do
        rm -f "$DIR/old" "$DIR/new"
        r=0
        while [ $r -lt "$ROUNDS" ]; do
            one old "$filter"
            one new "$filter"
            cmp -s "$DIR/out.old" "$DIR/out.new" || { echo "report $filter: outputs DIFFER"; exit 1; }
            r=$((r + 1))
        done
        mean "$DIR/old" >"$DIR/m.old"
        mean "$DIR/new" >"$DIR/m.new"
        paste -d' ' "$DIR/m.old" "$DIR/m.new" | awk -v f="$filter" '{
            printf "  report %-28s old %5.2f s wall %5.2f s CPU %5.2f s server | new %5.2f s " \
                "wall %5.2f s CPU %5.2f s server | old/new wall %4.1fx, CPU+server %4.1fx " \
                "(same output)\n", f, $1, $2, $3, $4, $5, $6, $1 / $4, ($2 + $3) / ($5 + $6) }'
    done
done
