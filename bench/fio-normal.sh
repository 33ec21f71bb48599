#!/bin/sh
# parse and import of about MB megabytes of fio normal text (issue 26: 100 MB), made by
# repeating real fio outputs (the corpus' fio-normal files and the fixtures' normal
# outputs, JSON and terse lines left out) with the job names varied (`name-K`), so every
# copy holds other jobs. Each round times, in turn: the anchor (`wc -l`, `grep -c groupid=`),
# benchlog and OLD_BINARY (another build, e.g. /work/main/build/benchlog), and prints MB/s,
# peak RSS and the ratio new/old.
#
#   sh bench/fio-normal.sh [BENCHLOG_BINARY] [OLD_BINARY]
#
# Knobs: MB (100), ROUNDS (3), IMPORT (1; 0 skips import), CORPUS (/work/shared/corpus or
# $BENCHLOG_CORPUS), BENCH_DIR (/tmp/benchlog-fio-normal).
set -eu
BIN=${1:-build/benchlog}
OLD=${2:-}
MB=${MB:-100}
ROUNDS=${ROUNDS:-3}
IMPORT=${IMPORT:-1}
CORPUS=${CORPUS:-${BENCHLOG_CORPUS:-/work/shared/corpus}}
DIR=${BENCH_DIR:-/tmp/benchlog-fio-normal}
mkdir -p "$DIR"
txt=$DIR/fio.txt
src=
for f in "$CORPUS"/fio-normal/*.txt; do
    case $f in *email_wrapped*) continue ;; esac # re-wrapped mail: read whole, as it must be
    [ -f "$f" ] && src="$src $f"
done
for f in two-numjobs-jobs clones clones-grouped kb1000 sync unified; do
    src="$src fixtures/fio/$f-3.33.out"
done
# shellcheck disable=SC2086
awk -v mb="$MB" '
FNR == 1 { nf++ }
/^\{/ { json = 1 }
json { if (/^\}/) json = 0; next }
/;/ { next }
{ line[nf, ++n[nf]] = $0 }
END {
    size = 0
    for (k = 1; size < mb * 1e6; k++)
        for (f = 1; f <= nf; f++)
            for (i = 1; i <= n[f]; i++) {
                l = line[f, i]
                if (match(l, /^[^ :<]+: (\((g|groupid)=|Laying out)/)) {
                    c = index(l, ":"); l = substr(l, 1, c - 1) "-" k substr(l, c)
                }
                print l; size += length(l) + 1
            }
}' $src > "$txt"
bytes=$(wc -c < "$txt")
echo "fio normal text: $bytes bytes, $(grep -c 'groupid=' "$txt") job blocks"
t() { # t LABEL CMD...: wall and CPU (user+sys) seconds, MB/s of each and peak RSS (KiB) of
      # one run; sets $secs (wall) and $cpu. The machine is shared: CPU is the figure to compare.
    label=$1; shift
    /usr/bin/time -f "%e %M %U %S" -o "$DIR/time" "$@" > /dev/null 2>&1 || true
    read -r secs kib usr sys <<EOT
$(tail -n 1 "$DIR/time")
EOT
    cpu=$(echo "$usr $sys" | awk '{ print $1 + $2 }')
    printf '  %-12s %7.2f s %8.1f MB/s   cpu %7.2f s %8.1f MB/s %9d KiB\n' "$label" "$secs" \
        "$(echo "$bytes $secs" | awk '{ print ($2 > 0 ? $1 / 1e6 / $2 : 0) }')" "$cpu" \
        "$(echo "$bytes $cpu" | awk '{ print ($2 > 0 ? $1 / 1e6 / $2 : 0) }')" "$kib"
}
ratio() { # ratio NEW OLD NEWCPU OLDCPU: how many times faster NEW is, wall and CPU
    awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'BEGIN {
        if (a > 0 && c > 0) printf "  ratio old/new: %.2fx wall, %.2fx cpu\n", b / a, d / c }'
}
for r in $(seq "$ROUNDS"); do
    echo "round $r"
    t "wc -l" wc -l "$txt"
    t "grep -c" grep -c groupid= "$txt"
    t parse "$BIN" parse "$txt"; new=$secs; newcpu=$cpu
    if [ -n "$OLD" ]; then t "old parse" "$OLD" parse "$txt"; ratio "$new" "$secs" "$newcpu" "$cpu"; fi
    if [ "$IMPORT" = 1 ]; then
        rm -f "$DIR/new.db" "$DIR/old.db"
        t import "$BIN" import -q --db "$DIR/new.db" "$txt"; new=$secs; newcpu=$cpu
        if [ -n "$OLD" ]; then
            t "old import" "$OLD" import -q --db "$DIR/old.db" "$txt"
            ratio "$new" "$secs" "$newcpu" "$cpu"
        fi
    fi
done
rm -f "$txt" "$DIR/new.db" "$DIR/old.db" "$DIR/time"
