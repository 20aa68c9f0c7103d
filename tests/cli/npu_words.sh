#!/bin/sh
# npu_words.sh - an Ascend run's report speaks of its NPU: the HTML, the
# PDF and the advice never say "GPU" or "CUDA" outside the names the trace
# itself holds, and the timeline's lanes are NPU streams; its tensor-core
# findings are the fp32 matmuls that kernel_details.csv says ran without
# HF32, with torch_npu's switch (or, mte2 bound, bf16).  Traces from ../shared/traces/torch_npu.
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
t = open(sys.argv[1], encoding='utf-8').read().replace('<wbr>', '')
t = re.sub(r'<(style|script)\b.*?</\1>', '', t, flags=re.S)
t = re.sub(r'title="([^"]*)"', r'>\1<', t)
print(html.unescape(re.sub(r'<[^>]+>', '\n', t)))
PY
check "HTML: no GPU or CUDA" sh -c "! grep -n -E 'GPU|CUDA|cuda\\.' '$T_DIR/html.txt'"
check "HTML: the lanes are NPU streams" grep -q "NPU0 stream 2" "$T_DIR/html.txt"
check "HTML: NPU utilization" grep -q "NPU utilization" "$T_DIR/html.txt"
# issue #30: the producer's step names, the Cube's section, no false cause
check "HTML: steps are the producer's \"Step 50\"" grep -q "^Step 50" "$T_DIR/html.txt"
check "JSON: steps named \"Step N\"" python3 -c "
import json, sys
r = json.load(open('$T_DIR/r.json'))['runs'][0]
names = [s['name'] for s in r['steps']]
print(names)
sys.exit(0 if names and all(n.startswith('Step ') for n in names) else 1)"
check "HTML: the Cube and Vector section" grep -q "^Cube and Vector" "$T_DIR/html.txt"
check "HTML: no roofline because the trace names no device" \
    grep -q "No roofline: the trace does not name its device" "$T_DIR/html.txt"
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

# the HF32 finding: exactly the fp32 MatMul rows with HF32 Eligible NO
check "HF32 finding: the NO rows of kernel_details.csv" python3 - "$R" \
    "$T_DIR/r.json" <<'PY'
import csv, json, sys
from decimal import Decimal
rows = csv.DictReader(open(sys.argv[1] + '/ASCEND_PROFILER_OUTPUT/kernel_details.csv'))
want = sum(Decimal(r['Duration(us)']) for r in rows
           if r['Type'].startswith('MatMul') and r['HF32 Eligible'] == 'NO'
           and 'FLOAT' in r['Input Data Types'].split(';'))
f = json.load(open(sys.argv[2]))['runs'][0]['tensor_cores']['findings']
got = sum(Decimal(str(x['device_us'])) for x in f)
ids = {x['reason_id'] for x in f}
# the switch where HF32 would help; bf16's halved bytes where the tasks
# are mte2 bound (review finding 8: ascend_cube_findings.sh)
adv = all('torch.npu.matmul.allow_hf32 = True' in x['advice']
          if x['reason_id'] == 'hf32_matmul_off' else 'bf16' in x['advice']
          for x in f)
print(want, got, ids, adv)
sys.exit(0 if want > 0 and abs(got - want) < Decimal('0.01') and
         ids <= {'hf32_matmul_off', 'fp32_mte2_bound'} and adv else 1)
PY

echo "1..$T_N"
