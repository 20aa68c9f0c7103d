#!/bin/sh
# npu_words.sh - an Ascend run's report speaks of its NPU: the HTML, the
# PDF and the advice never say "GPU" or "CUDA" outside the names the trace
# itself holds, and the timeline's lanes are NPU streams.  Traces from
# ../shared/traces/torch_npu.
. "$PR_SRCDIR/tests/lib.sh"

R=${PR_SHARED:-}/traces/torch_npu/text_level1/rank0_ascend_pt
if ! have_shared || [ ! -d "$R" ] || ! command -v python3 >/dev/null 2>&1; then
    skip "NPU wording" "no $R or no python3"
    echo "1..$T_N"
    exit 0
fi
"$PR_BIN" --quiet --input "$R" --html "$T_DIR/r.html" --pdf "$T_DIR/r.pdf" \
    --json "$T_DIR/r.json"
check "exit 0" [ $? -eq 0 ]

# the visible text of the HTML (no styles, scripts or markup)
python3 - "$T_DIR/r.html" > "$T_DIR/html.txt" <<'PY'
import html, re, sys
t = open(sys.argv[1], encoding='utf-8').read()
t = re.sub(r'<(style|script)\b.*?</\1>', '', t, flags=re.S)
t = re.sub(r'title="([^"]*)"', r'>\1<', t)
print(html.unescape(re.sub(r'<[^>]+>', '\n', t)))
PY
check "HTML: no GPU or CUDA" sh -c "! grep -n -E 'GPU|CUDA|cuda\\.' '$T_DIR/html.txt'"
check "HTML: the lanes are NPU streams" grep -q "NPU0 stream 2" "$T_DIR/html.txt"
check "HTML: NPU utilization" grep -q "NPU utilization" "$T_DIR/html.txt"
if command -v pdftotext >/dev/null 2>&1; then
    pdftotext -layout "$T_DIR/r.pdf" "$T_DIR/pdf.txt"
    check "PDF: no GPU or CUDA" sh -c "! grep -n -E 'GPU|CUDA|cuda\\.' '$T_DIR/pdf.txt'"
    check "PDF: NPU metrics" grep -q "NPU metrics" "$T_DIR/pdf.txt"
else
    skip "PDF wording" "no pdftotext"
fi
check "advice: no GPU or CUDA" python3 -c "
import json, re, sys
r = json.load(open('$T_DIR/r.json'))['runs'][0]
bad = [x['text'] for x in r['recommendations'] if re.search('GPU|CUDA|cuda', x['text'])]
print(bad)
sys.exit(1 if bad else 0)"

echo "1..$T_N"
