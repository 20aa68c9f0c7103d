#!/bin/sh
# heat_legend_wrap.sh - review32a #8: the job overview's step heat map
# names its off-scale cells beside the colour ramp, or under it where
# that would run past the chart (ms_cluster4's PDF page 4 cut it at
# "over 181 ms: 3 cells, ke"); and the ranks' HCCL note is said once.
# Trace from ../shared/traces/mindspore.
. "$PR_SRCDIR/tests/lib.sh"

D=${PR_SHARED:-}/traces/mindspore/extra/cluster_4rank_pipeline
if ! have_shared || [ ! -d "$D" ] || ! command -v pdftotext > /dev/null 2>&1; then
    skip "heat map legend" "no $D or no pdftotext"
    echo "1..$T_N"
    exit 0
fi
"$PR_BIN" -q --input "$D" --pdf "$T_DIR/r.pdf"
check "exit 0" [ $? -eq 0 ]
pdftotext -layout "$T_DIR/r.pdf" "$T_DIR/r.txt"
check "PDF: the off-scale count is whole, on its own line" \
    grep -Eq '^ *over 181 ms: 3 cells, kept off the scale *$' "$T_DIR/r.txt"
# review32a #8: the ranks' ~110-word note on HCCL's link sizes, alike
# but for their counts, is said once, each rank's count under its name
check "PDF: the HCCL sizes note once, under the three ranks" sh -c \
    "[ \$(grep -c 'sizes only as the bytes' '$T_DIR/r.txt') -eq 1 ] &&
     grep -q '489 of its 1705 calls' '$T_DIR/r.txt'"
echo "1..$T_N"
