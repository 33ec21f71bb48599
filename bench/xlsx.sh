#!/bin/sh
# `benchlog xlsx` of an existing store, old and new binaries in alternating rounds: wall
# seconds, CPU (user+system) and peak RSS of each, the ratios of their sums over the rounds,
# then whether the last workbooks of both hold the same content (bench/xlsx-same.sh). A store of schema 4 is migrated by the first run:
# give a migrated copy, or count the first round out.
#
#   sh bench/xlsx.sh STORE.db NEW_BINARY [OLD_BINARY]
# Knobs: ROUNDS (2), BENCH_DIR (/tmp/benchlog-xlsx), OLD_DB (the store OLD reads, a copy of
# STORE.db for an OLD whose schema is another: an OLD of a newer schema upgrades STORE.db for
# good, which NEW then refuses), ZLEVEL=1 also times NEW with zlib level 1
# through an LD_PRELOAD shim of minizip's zipOpenNewFileInZip4_64 (what libxlsxwriter 1.1 has
# no option for; a measurement, not a setting of benchlog).
# Needs /usr/bin/time and unzip.
set -eu
DB=$1
NEW=$2
OLD=${3:-}
ROUNDS=${ROUNDS:-2}
DIR=${BENCH_DIR:-/tmp/benchlog-xlsx}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$DIR"

one() { # LABEL BINARY STORE OUT [ENV...]
    label=$1 bin=$2 db=$3 out=$4
    shift 4
    env "$@" /usr/bin/time -f "%e %U %S %M" -o "$DIR/time" "$bin" xlsx --db "$db" -o "$out" \
        >/dev/null 2>"$DIR/err" || { cat "$DIR/err"; exit 1; }
    read -r wall usr sys kib <"$DIR/time"
    echo "$label $wall $(echo "$usr + $sys" | bc)" >>"$DIR/rounds"
    printf '%-10s %7.2f s wall %7.2f s CPU %8d KiB peak RSS %6.1f MB file\n' "$label" "$wall" \
        "$(echo "$usr + $sys" | bc)" "$kib" "$(echo "$(stat -c %s "$out") / 1000000" | bc -l)"
}

if [ "${ZLEVEL:-}" ]; then
    cat >"$DIR/shim.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
typedef int (*fn)(void *, const char *, const void *, const void *, unsigned, const void *,
                  unsigned, const char *, int, int, int, int, int, int, const char *,
                  unsigned long, unsigned long, unsigned long, int);
int zipOpenNewFileInZip4_64(void *f, const char *name, const void *zi, const void *el,
                            unsigned sel, const void *eg, unsigned seg, const char *comment,
                            int method, int level, int raw, int bits, int mem, int strategy,
                            const char *pw, unsigned long crc, unsigned long vmb,
                            unsigned long flags, int zip64)
{
    fn real = (fn)dlsym(RTLD_NEXT, "zipOpenNewFileInZip4_64");
    (void)level;
    return real(f, name, zi, el, sel, eg, seg, comment, method, atoi(getenv("ZLEVEL")), raw, bits,
                mem, strategy, pw, crc, vmb, flags, zip64);
}
C
    cc -O2 -shared -fPIC -o "$DIR/shim.so" "$DIR/shim.c"
fi

: >"$DIR/rounds"
for r in $(seq "$ROUNDS"); do
    [ -z "$OLD" ] || one "old #$r" "$OLD" "${OLD_DB:-$DB}" "$DIR/old.xlsx"
    one "new #$r" "$NEW" "$DB" "$DIR/new.xlsx"
    [ -z "${ZLEVEL:-}" ] ||
        one "new z$ZLEVEL #$r" "$NEW" "$DB" "$DIR/z.xlsx" LD_PRELOAD="$DIR/shim.so" ZLEVEL="$ZLEVEL"
done
# the sums over the rounds: old's over new's, wall and CPU (above 1: new is faster)
[ -z "$OLD" ] || awk '$1 == "old" { ow += $3; oc += $4; n++ } $1 == "new" && $2 ~ /^#/ { nw += $3; nc += $4 }
    END { printf "old / new over %d rounds: wall %.2fx, CPU %.2fx\n", n, ow / nw, oc / nc }' \
    "$DIR/rounds"
[ -z "$OLD" ] || sh "$HERE/xlsx-same.sh" "$DIR/old.xlsx" "$DIR/new.xlsx"
[ -z "${ZLEVEL:-}" ] || sh "$HERE/xlsx-same.sh" "$DIR/new.xlsx" "$DIR/z.xlsx"
