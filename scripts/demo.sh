#!/bin/sh
# `make demo`: the main job on a built-in default. Benchmarks a scratch file in the demo
# folder with the quick suite, imports the bundled fixtures, and writes the report folder.
#   sh scripts/demo.sh BENCHLOG_BINARY [OUTPUT_FOLDER]
set -eu
BIN=$1
OUT=${2:-demo-out}
mkdir -p "$OUT"
DB="$OUT/benchlog.db"
rm -f "$DB"
export BENCHLOG_DB="$DB"

# --- runner: the quick suite on a scratch file in $OUT -----------------------------------
# benchlog's own engine (not fio): a 32 MiB scratch file in $OUT, removed afterwards; three
# CrystalDiskMark-named tests, read then write, half a second each.
echo "== benchlog run --suite quick (scratch file in $OUT)"
"$BIN" run --suite quick --target "$OUT" --label demo=quick
echo

# --- import: every fixture we made ourselves ---------------------------------------------
echo "== importing fixtures/"
# Outputs only: not the READMEs, job files and scripts that made them, nor empty logs
# (fio writes a slat log even when slat is not measured) or the fuzzer's findings.
find fixtures -type f -size +0 ! -name 'README*' ! -name '*.md' ! -name '*.fio' ! -name '*.sh' \
    ! -path '*/fuzz/*' | sort | while read -r f; do
    "$BIN" import "$f" || echo "   ($f: see the messages above)"
done

echo
echo "== runs in $DB: $("$BIN" list | wc -l) (benchlog list)"

# --- report: comparison table and the report folder --------------------------------------
echo
echo "== comparison: benchlog's quick suite beside the CrystalDiskMark and KDiskMark exports"
"$BIN" report --text --by tool 'cdm_test~Q'
echo "(every stored run: $OUT/report/summary.md, report.html, report.pdf, SVG charts)"

# --- report folder: summary.md, report.html (one self-contained page), report.pdf (for
# vendors), charts (PNG and SVG), report.xlsx ---------------------------------------------
R="$OUT/report"
mkdir -p "$R"
echo
echo "== report folder: $R/"
"$BIN" report --md --lat --title "benchlog demo: every stored run" >"$R/summary.md"
"$BIN" report --html --title "benchlog demo: every stored run" -o "$R/report.html"
"$BIN" report --pdf --title "benchlog demo: every stored run" -o "$R/report.pdf"
# Vector charts: the same drawing as the PNGs, text kept as text.
"$BIN" chart --kind bar --metric iops -o "$R/iops.svg" tool=fio
"$BIN" chart --kind percentiles -o "$R/percentiles.svg" tool=fio
"$BIN" chart --kind bar --by tool -o "$R/cdm-tests-by-tool.svg" 'cdm_test~Q'
"$BIN" chart --kind bar --log -o "$R/throughput.png"
"$BIN" chart --kind bar --by tool -o "$R/cdm-tests-by-tool.png" 'cdm_test~Q'
# One bar chart per tool: their tests differ, and one axis for all would hide the small.
# fio's fixtures range from a page-cached trim (50 GB/s) to a QD1 fsync job: a log axis.
for tool in fio bonnie++ dd CrystalDiskMark benchlog; do
    scale=$([ $tool = fio ] && echo --log || true)
    "$BIN" chart --kind bar $scale -o "$R/throughput-$tool.png" tool=$tool 2>/dev/null ||
        echo "   (no $tool records for a bar chart)"
done
# Latency charts of the run just made; the timeline of fio's bandwidth logs in fixtures/fio
# (the quick suite's runs are too short for more than one 500 ms sample).
for kind in percentiles histogram; do
    "$BIN" chart --kind $kind -o "$R/$kind.png" demo=quick || echo "   (no $kind chart: see above)"
done
"$BIN" chart --kind timeline -o "$R/timeline.png" 'log~avg_bw' || echo "   (no timeline chart)"
"$BIN" xlsx -o "$R/report.xlsx"
ls -l "$R"
