#!/bin/sh
# Whether two workbooks hold the same content: every part of both zips (sheets, styles,
# charts, relations) byte for byte, but for docProps/core.xml's creation time.
#   sh bench/xlsx-same.sh A.xlsx B.xlsx   (exit 0: the same; 1: they differ, diff shown)
# Needs unzip.
set -eu
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir "$T/a" "$T/b"
unzip -q "$1" -d "$T/a"
unzip -q "$2" -d "$T/b"
for d in a b; do
    sed -i 's#<dcterms:created[^<]*</dcterms:created>##; s#<dcterms:modified[^<]*</dcterms:modified>##' \
        "$T/$d/docProps/core.xml"
done
if diff -r -q "$T/a" "$T/b"; then
    echo "same: $(find "$T/a" -type f | wc -l) parts, $(du -sb "$T/a" | cut -f1) bytes"
else
    exit 1
fi
