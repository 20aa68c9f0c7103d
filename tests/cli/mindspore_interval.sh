#!/bin/sh
# mindspore_interval.sh - issue #30's words: a MindSpore run's data-queue
# time (the GetNext tasks: the summary's dataloader key, unchanged) is
# MindSpore's step interval (its step trace's iteration_interval), not a
# DataLoader, in the HTML (step table, breakdown and timeline legends, the
# critical path), the PDF, the terminal table and the verdict; the CSV
# keeps the key's id; a PyTorch run on the same NPU keeps "DataLoader".
. "$PR_SRCDIR/tests/lib.sh"

MS=$PR_SHARED/traces/mindspore/ascend_run2
PT=$PR_SHARED/traces/msprof/torch_npu_ascend_profiler_output
if ! have_shared || [ ! -d "$MS" ] || [ ! -d "$PT" ] ||
    ! command -v pdftotext >/dev/null 2>&1; then
    skip "MindSpore's step interval" "no $PR_SHARED/traces or no pdftotext"
    echo "1..$T_N"
    exit 0
fi

"$PR_BIN" -q -i "$MS" --json "$T_DIR/ms.json" --html "$T_DIR/ms.html" \
    --pdf "$T_DIR/ms.pdf" 2>"$T_DIR/err" || sed 's/^/# /' "$T_DIR/err"
pdftotext "$T_DIR/ms.pdf" "$T_DIR/ms.txt" 2>/dev/null
check "MindSpore: the HTML says Step interval, never DataLoader" \
    sh -c "grep -q 'Step interval' '$T_DIR/ms.html' && ! grep -q 'DataLoader\|Data loader' '$T_DIR/ms.html'"
check "MindSpore: the PDF says Step interval, never DataLoader" \
    sh -c "grep -q 'Step interval' '$T_DIR/ms.txt' && ! grep -q 'DataLoader\|Data loader' '$T_DIR/ms.txt'"
check "MindSpore: the summary key stays dataloader" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['framework'] == 'mindspore', r['framework']
assert r['step_summary']['breakdown_us']['dataloader'] > 0, r['step_summary']
" "$T_DIR/ms.json"
"$PR_BIN" table --kind steps -i "$MS" > "$T_DIR/t.txt" 2>"$T_DIR/err"
check "MindSpore: the terminal table's column is Step interval" \
    sh -c "head -1 '$T_DIR/t.txt' | grep -q 'Step interval' && ! grep -q DataLoader '$T_DIR/t.txt'"
"$PR_BIN" table --kind steps --csv -i "$MS" > "$T_DIR/t.csv" 2>"$T_DIR/err"
check "MindSpore: the CSV header keeps the key's id" \
    sh -c "head -1 '$T_DIR/t.csv' | grep -q 'dataloader_us'"
"$PR_BIN" -q -i "$PT" --html "$T_DIR/pt.html" 2>"$T_DIR/err"
check "PyTorch on an NPU: the HTML keeps DataLoader" \
    sh -c "grep -q 'DataLoader' '$T_DIR/pt.html' && ! grep -q 'Step interval' '$T_DIR/pt.html'"
echo "1..$T_N"
