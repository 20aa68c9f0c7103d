#!/bin/sh
# pdf_breaks.sh - review 11 #8: a PDF table cell never starts a line with
# closing punctuation.  fit_prefix (pdf_doc.c) cuts a word too long for
# its line where it overflows; that cut follows is_break_after's rule
# (8a0adaf, review 10 #7: no break before ".", ",", ";", ":" or ")") as
# the text breaker does, so the last letter moves down with the comma.
# Kernel names "DeviceRadixSort" + one letter repeated + ", float, int,
# int>" (hta timeline_analysis's "DeviceRadixSortOneswee...long" /
# ", float, int, int>"), the letter and its count varied, fill a Kernels
# name cell to the width where the comma is the character that overflows
# (the integ6 build cut before it at o x16, W x10, m x10, i x35, l x35);
# no line of any of them starts with closing punctuation.  Also the
# shared hta timeline_analysis report.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1 ||
    ! command -v pdftotext > /dev/null 2>&1; then
    skip "PDF line breaks before punctuation" "no python3 or pdftotext"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import json, sys
for ch, lo, hi in (("o", 12, 20), ("W", 7, 13), ("m", 7, 13),
                   ("i", 31, 39), ("l", 31, 39)):
    for k in range(lo, hi + 1):
        ev = []
        def X(cat, name, ts, dur, tid=1, pid=1, **args):
            ev.append({"ph": "X", "cat": cat, "name": name, "pid": pid,
                       "tid": tid, "ts": ts, "dur": dur, "args": args})
        X("user_annotation", "ProfilerStep#1", 0, 10000)
        X("cpu_op", "aten::op", 100, 50, **{"External id": 1})
        X("cuda_runtime", "cudaLaunchKernel", 101, 2,
          **{"External id": 1, "correlation": 1})
        X("kernel", "DeviceRadixSort" + ch * k + ", float, int, int>", 5000,
          500, tid=7, pid=0, **{"External id": 1, "correlation": 1,
                                "device": 0, "stream": 7})
        json.dump({"schemaVersion": 1, "traceEvents": ev},
                  open("%s/%s%d.pt.trace.json" % (sys.argv[1], ch, k), "w"))
PY

bad=""
n=0
for f in "$T_DIR"/*.pt.trace.json; do
    b=${f%.pt.trace.json}
    "$PR_BIN" -q -i "$f" --pdf "$b.pdf" 2> "$b.err" || bad="$bad $(basename "$b"):exit"
    pdftotext "$b.pdf" "$b.txt" 2> /dev/null
    if grep -qE '^[[:space:]]*[.,;:)]' "$b.txt"; then
        bad="$bad $(basename "$b")"
        grep -nE -B1 '^[[:space:]]*[.,;:)]' "$b.txt" | sed 's/^/# /' | head -4
    fi
    n=$((n + 1))
done
check "no PDF line starts with closing punctuation ($n names;$bad)" [ -z "$bad" ]
check "  the names reached the Kernels table" grep -q "float, int, int>" "$T_DIR/o16.txt"

HT=hta/timeline_analysis
if [ -e "$PR_SHARED/traces/$HT" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$HT" --pdf "$T_DIR/ht.pdf" \
        2> "$T_DIR/ht.err"
    pdftotext "$T_DIR/ht.pdf" "$T_DIR/ht.txt"
    # (its name may take a third line of the cell: "float, int," / "int>")
    check "hta timeline_analysis: the radix sort kernel's cell keeps its comma" \
        sh -c 'tr "\n" " " < "$1" | grep -q "float, int, *int>" &&
               ! grep -qE "^[[:space:]]*[.,;:)]" "$1"' sh "$T_DIR/ht.txt"
else
    skip "hta timeline_analysis PDF" "no $HT"
fi
# review 13 #10: a number and its unit stay on one line (hta_nccl's
# Verdict evidence cell had "aten::view 9.4" / "ms")
NC=hta/nccl_parser_config
if [ -e "$PR_SHARED/traces/$NC" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$NC" --pdf "$T_DIR/nc.pdf" \
        2> "$T_DIR/nc.err"
    pdftotext "$T_DIR/nc.pdf" "$T_DIR/nc.txt"
    check "hta nccl: no PDF line starts with a unit cut from its number" \
        sh -c 'grep -q "9.4 ms" "$1" &&
               ! grep -qE "^[[:space:]]*(ns|us|µs|ms|s|KB|MB|GB|GB/s)([[:space:];,.)]|$)" "$1"' \
        sh "$T_DIR/nc.txt"
else
    skip "hta nccl PDF units" "no $NC"
fi
# review 18 #8: no line ends with an opening bracket (fix12 broke
# npu_text1's Verdict evidence as "hcom_allReduce__586_3_1 22.0 ms (" /
# "the bound's parts", and 253 lines over the samples ended with "(";
# tb_plugin resnet50 had 138, kernel names such as "true>(" / "int, ...")
for s in torch_npu/text_level1 tb_plugin/resnet50_num_workers_0; do
    if [ -e "$PR_SHARED/traces/$s" ]; then
        b=$T_DIR/$(basename "$s")
        "$PR_BIN" -q --input "$PR_SHARED/traces/$s" --pdf "$b.pdf" \
            2> "$b.err"
        pdftotext "$b.pdf" "$b.txt"
        pdftotext -layout "$b.pdf" "$b.lay"
        check "$s: no PDF line ends with \"(\", \"[\" or \"{\"" \
            sh -c '! grep -qE "[([{][[:space:]]*$" "$1" "$2"' sh "$b.txt" "$b.lay"
    else
        skip "$s PDF brackets" "no $s"
    fi
done
echo "1..$T_N"
