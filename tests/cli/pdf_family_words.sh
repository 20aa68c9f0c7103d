#!/bin/sh
# pdf_family_words.sh - review 30g #11: the PDF Kernels table's Family
# column holds its longest words whole ("elementwise", "embedding",
# "collective"), never broken across two lines ("elementwis" / "e").  On
# HTA's trace_diff test rank, whose kernels hold all three families.
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared || ! command -v pdftotext > /dev/null 2>&1; then
    skip "PDF family words" "needs ../shared/traces and pdftotext"
    echo "1..$T_N"
    exit 0
fi
"$PR_BIN" -q --input "$PR_SHARED/traces/hta/trace_diff/test/test.json.gz" \
    --pdf "$T_DIR/r.pdf" 2> "$T_DIR/err" || sed 's/^/# /' "$T_DIR/err"
pdftotext -layout "$T_DIR/r.pdf" "$T_DIR/r.txt"
check "the family words appear whole" \
    sh -c "grep -q ' elementwise ' '$T_DIR/r.txt' && grep -q ' embedding ' '$T_DIR/r.txt' && grep -q ' collective ' '$T_DIR/r.txt'"
check "no family word broken at the cell's edge" \
    sh -c "! grep -qE 'elementwis( |\$)|embeddin( |\$)|collectiv( |\$)' '$T_DIR/r.txt'"
echo "1..$T_N"
