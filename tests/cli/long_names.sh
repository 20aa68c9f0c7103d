#!/bin/sh
# long_names.sh - issues #17 and #19: an operator and a kernel name of
# 70,000 characters (over libharu's 65,535-byte string limit) go through
# the whole pipeline: the run exits 0, the PDF is valid (qpdf --check) and
# shows the names cut for display, while the JSON keeps them in full.
. "$PR_SRCDIR/tests/lib.sh"

have() { command -v "$1" > /dev/null 2>&1; }

long=$(awk 'BEGIN { s = "x"; while (length(s) < 70000) s = s s;
                    print substr(s, 1, 70000) }')
trace=$T_DIR/long.json
cat > "$trace" <<JSON
{"deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB"}],
 "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1,
   "tid": 1, "ts": 0, "dur": 200},
  {"ph": "X", "cat": "cpu_op", "name": "aten::op_$long", "pid": 1, "tid": 1,
   "ts": 5, "dur": 100, "args": {"Input Dims": [[64, 64], [64, 64]]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
   "tid": 1, "ts": 10, "dur": 5, "args": {"correlation": 7}},
  {"ph": "X", "cat": "kernel", "name": "void k_$long<float>(int)", "pid": 0,
   "tid": 7, "ts": 20, "dur": 50,
   "args": {"correlation": 7, "device": 0, "stream": 7}}
 ]}
JSON

"$PR_BIN" --quiet --input "$trace" --json "$T_DIR/s.json" \
    --html "$T_DIR/r.html" --pdf "$T_DIR/r.pdf" 2> "$T_DIR/err"
rc=$?
check "a 70,000-character name does not fail the run (exit $rc: $(head -c 160 "$T_DIR/err"))" [ "$rc" -eq 0 ]
check "the PDF is written" [ -s "$T_DIR/r.pdf" ]
check "the HTML is written" [ -s "$T_DIR/r.html" ]
check "the JSON keeps the kernel name in full" \
    grep -q "k_$long<float>(int)" "$T_DIR/s.json"
if have qpdf; then
    check "qpdf --check accepts the PDF" qpdf --check "$T_DIR/r.pdf"
else
    skip "qpdf --check accepts the PDF" "no qpdf"
fi
if have pdftotext; then
    pdftotext "$T_DIR/r.pdf" "$T_DIR/r.txt" 2> /dev/null
    check "the PDF shows the names, cut for display" \
        grep -q "op_xxxxxxxx" "$T_DIR/r.txt"
    n=$(wc -c < "$T_DIR/r.txt")
    check "no PDF line carries the whole name ($n bytes of text)" \
        [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T_DIR/r.txt")" -lt 65535 ]
else
    skip "the PDF shows the names" "no pdftotext"
fi

# the diff and trend reports lay the same names out in their own tables
# (top regressions, operators per night): never fatal there either
sed 's/"dur": 50,/"dur": 90,/' "$trace" > "$T_DIR/long2.json"
"$PR_BIN" diff -q -b "$trace" -i "$T_DIR/long2.json" --pdf "$T_DIR/d.pdf" \
    --html "$T_DIR/d.html" --markdown "$T_DIR/d.md" \
    --fail-on 'op:aten::op_*>+5%' 2> "$T_DIR/err"
rc=$?
check "diff: a 70,000-character name does not fail it (exit $rc: $(head -c 160 "$T_DIR/err"))" \
    [ "$rc" -eq 3 ]
check "diff: the PDF is written" [ -s "$T_DIR/d.pdf" ]
# issue #15: a gate's detail is cut in its middle, so its verdict stays
# (plain text in the table since tables.c: Markdown's * and _ escaped)
check "diff: the Markdown gate detail is cut but keeps its verdict" \
    grep -q '^| \*\*FAIL\*\* | .*xxx…xxx.* +80\.0% (+40\.0 [^ ]*s, 50\.0 [^ ]*s -> 90\.0 [^ ]*s) |$' \
    "$T_DIR/d.md"
check "diff: Markdown rows show the name shortened" \
    sh -c "[ \$(awk 'length(\$0) > 1000' '$T_DIR/d.md' | wc -l) -eq 0 ]"
"$PR_BIN" trend -q -i "$trace" "$T_DIR/long2.json" --pdf "$T_DIR/t.pdf" \
    --html "$T_DIR/t.html" 2> "$T_DIR/err"
rc=$?
check "trend: a 70,000-character name does not fail it (exit $rc: $(head -c 160 "$T_DIR/err"))" \
    [ "$rc" -eq 0 ]
check "trend: the PDF is written" [ -s "$T_DIR/t.pdf" ]
if have qpdf; then
    qpdf --check "$T_DIR/d.pdf" > /dev/null 2>&1 &&
        qpdf --check "$T_DIR/t.pdf" > /dev/null 2>&1
    check "qpdf --check accepts the diff and trend PDFs" [ $? -eq 0 ]
fi
echo "1..$T_N"
