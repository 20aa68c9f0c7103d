#!/bin/sh
# pdf_report.sh - the PDF report end to end (issue #3): --pdf writes a valid
# PDF with embedded fonts, byte-identical under SOURCE_DATE_EPOCH, on A4 or
# Letter, and leaves nothing behind when it cannot write.  Checks that need
# qpdf, pdffonts, pdfinfo or pdftotext skip when the tool is missing.
. "$PR_SRCDIR/tests/lib.sh"

have() { command -v "$1" > /dev/null 2>&1; }
done_tests() { echo "1..$T_N"; exit 0; }

# A small trace with two steps, a kernel with template characters and an
# operator name outside Latin-1.
trace=$T_DIR/worker0.1.pt.trace.json
cat > "$trace" <<'JSON'
{"schemaVersion": 1,
 "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-40GB",
   "totalGlobalMem": 42505273344, "computeMajor": 8, "computeMinor": 0,
   "numSms": 108}],
 "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1,
   "tid": 1, "ts": 1000, "dur": 2000},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
   "ts": 1010, "dur": 200,
   "args": {"Input Dims": [[64, 512], [512, 1000]],
            "Input type": ["float", "float"]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
   "tid": 1, "ts": 1020, "dur": 10, "args": {"correlation": 7}},
  {"ph": "X", "cat": "kernel", "name": "void gemm<float, 128>(Params<&>)",
   "pid": 0, "tid": 7, "ts": 1100, "dur": 800,
   "args": {"correlation": 7, "device": 0, "stream": 7}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1,
   "tid": 1, "ts": 3000, "dur": 2000},
  {"ph": "X", "cat": "cpu_op", "name": "my::op_\u00fcnicode_\u2211", "pid": 1,
   "tid": 1, "ts": 3010, "dur": 200},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
   "tid": 1, "ts": 3020, "dur": 10, "args": {"correlation": 8}},
  {"ph": "X", "cat": "kernel", "name": "volta_sgemm_128x64_nn", "pid": 0,
   "tid": 7, "ts": 3100, "dur": 900,
   "args": {"correlation": 8, "device": 0, "stream": 7}}
 ]}
JSON

SOURCE_DATE_EPOCH=1700000000
export SOURCE_DATE_EPOCH
pdf=$T_DIR/report.pdf

# every build has --pdf and reads this trace: a failure, never a skip
if ! "$PR_BIN" --help 2>&1 | grep -q -- "--pdf"; then
    not_ok "profreport --help does not list --pdf"
    done_tests
fi
if ! "$PR_BIN" --input "$trace" --json "$T_DIR/s.json" 2> "$T_DIR/err"; then
    not_ok "the pipeline cannot read the test trace: $(head -c 160 "$T_DIR/err" | tr '\n' ' ')"
    done_tests
fi

"$PR_BIN" --input "$trace" --pdf "$pdf" 2> "$T_DIR/err"
check "--pdf exits 0" [ $? -eq 0 ]
check "the file is a PDF" [ "$(head -c 5 "$pdf")" = "%PDF-" ]
check "the file is complete" grep -q '%%EOF' "$pdf"

"$PR_BIN" --input "$trace" --pdf "$T_DIR/again.pdf" 2> "$T_DIR/err"
check "byte-identical under SOURCE_DATE_EPOCH" cmp -s "$pdf" "$T_DIR/again.pdf"

"$PR_BIN" --input "$trace" --pdf "$T_DIR/letter.pdf" --paper letter \
    2> "$T_DIR/err"
check "--paper letter exits 0" [ $? -eq 0 ]

if have qpdf; then
    qpdf --check "$pdf" > "$T_DIR/qpdf" 2>&1
    check "qpdf --check passes" [ $? -eq 0 ]
else
    skip "qpdf --check passes" "qpdf not installed"
fi

if have pdffonts; then
    pdffonts "$pdf" > "$T_DIR/fonts" 2> /dev/null
    # columns from the end: emb sub uni object ID
    check "every font is embedded" awk 'NR > 2 { n++; if ($(NF-4) != "yes") bad = 1 }
        END { exit (bad || n == 0) }' "$T_DIR/fonts"
else
    skip "every font is embedded" "pdffonts not installed"
fi

if have pdfinfo; then
    pdfinfo "$pdf" > "$T_DIR/info" 2> /dev/null
    check "A4 by default" grep -q "Page size: *595.* x 841.* (A4)" "$T_DIR/info"
    check "creation date from SOURCE_DATE_EPOCH" \
        grep -q "CreationDate: *Tue Nov 14 22:13:20 2023" "$T_DIR/info"
    pdfinfo "$T_DIR/letter.pdf" > "$T_DIR/info" 2> /dev/null
    check "--paper letter gives US Letter" \
        grep -q "Page size: *612 x 792" "$T_DIR/info"
else
    skip "A4 by default" "pdfinfo not installed"
fi

if have pdftotext; then
    pdftotext "$pdf" "$T_DIR/text" 2> /dev/null
    check "text: sections" grep -q "Recommendations" "$T_DIR/text"
    check "text: page numbers" grep -q "page 1 of" "$T_DIR/text"
    check "text: names outside Latin-1" grep -q "my::op_ünicode_∑" "$T_DIR/text"
    check "text: template characters" grep -q "gemm<float, 128>" "$T_DIR/text"
    # libharu 2.3's ToUnicode map makes poppler warn "Invalid
    # 'begincidrange' operator"; ours must read without a word (#15)
    pdftotext "$pdf" - > /dev/null 2> "$T_DIR/warn"
    check "pdftotext reads the text without warnings: $(head -c 120 "$T_DIR/warn")" \
        [ ! -s "$T_DIR/warn" ]
    pdffonts "$pdf" > /dev/null 2> "$T_DIR/warn"
    check "pdffonts reads the fonts without warnings" [ ! -s "$T_DIR/warn" ]
else
    skip "text checks" "pdftotext not installed"
fi

# Atomic output: a failed write leaves neither the report nor a temp file.
mkdir "$T_DIR/out"
"$PR_BIN" --input "$trace" --pdf "$T_DIR/out/missing/r.pdf" 2> "$T_DIR/err"
check "unwritable path fails" [ $? -ne 0 ]
check "unwritable path is named" grep -q "r.pdf" "$T_DIR/err"
mkdir "$T_DIR/out/dir.pdf"
"$PR_BIN" --input "$trace" --pdf "$T_DIR/out/dir.pdf" 2> "$T_DIR/err"
check "a folder as destination fails" [ $? -ne 0 ]
check "no temp file left" [ "$(ls "$T_DIR/out")" = "dir.pdf" ]

"$PR_BIN" --input "$trace" --pdf "$T_DIR/out/f.pdf" --font "$trace" \
    2> "$T_DIR/err"
check "a bad --font fails" [ $? -ne 0 ]
check "a bad --font leaves no file" [ ! -e "$T_DIR/out/f.pdf" ]

done_tests
