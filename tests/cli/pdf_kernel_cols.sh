#!/bin/sh
# pdf_kernel_cols.sh - the PDF's kernel table fits its portrait page: the
# wide columns (Blocks/SM, Precision, Rule: PR_COL_WIDE) are left out of
# the page and named in its caption, so that the numbers are not cut ("131
# ..." for 131 ms, as with 12 columns) and the rules do not wrap letter by
# letter; the HTML keeps every column.  On the bundled example trace.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v pdftotext > /dev/null 2>&1; then
    skip "PDF kernel table columns" "no pdftotext"
    echo "1..$T_N"
    exit 0
fi
in=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
"$PR_BIN" -q --input "$in" --pdf "$T_DIR/r.pdf" --html "$T_DIR/r.html"
check "report written (exit $?)" [ -s "$T_DIR/r.pdf" ]
pdftotext "$T_DIR/r.pdf" "$T_DIR/r.txt"
check "the caption names the columns the page leaves out" \
    grep -q "Blocks/SM, Precision and Rule: in the HTML report" "$T_DIR/r.txt"
check "the PDF's kernel table has no Rule header" sh -c \
    "! grep -qx 'Rule' '$T_DIR/r.txt'"
check "the HTML's kernel table keeps them" sh -c \
    "grep -q '>Blocks/SM<' '$T_DIR/r.html' && grep -q '>Rule<' '$T_DIR/r.html'"
pdftotext -layout "$T_DIR/r.pdf" "$T_DIR/l.txt"
# a cut number ends in "…" ("5.05…", "157 …"); a shortened name keeps
# text after its "…" ("Kernel<cutlass_80…8_32x3_nt_")
check "no cell of the kernel pages' time columns is cut (a number then …)" \
    sh -c "! sed -n '/Top kernels by total time/,/Attribution/p' '$T_DIR/l.txt' | grep -q '[0-9][0-9.]* \\?…\\( \\|\$\\)'"
echo "1..$T_N"
