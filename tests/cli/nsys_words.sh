#!/bin/sh
# nsys_words.sh - a program with no PyTorch in its trace (a CUDA C++ code
# under Nsight Systems: no operator, no framework) is advised in its
# runtime's words, not PyTorch's (review 28h #11: a held-out CloverLeaf
# export, which syncs the device after each of its 1,312 kernels, was told
# to avoid .item()/torch.cuda.synchronize() "in the training step" and to
# use torch.profiler.schedule).  Hand-made exports: a cudaMalloc (200 ms:
# context creation, a cold capture; or 10 us), then 40 kernels each
# followed by a cudaDeviceSynchronize that waits for it.
. "$PR_SRCDIR/tests/lib.sh"
# the export builder the nsys tests share (tests/cli/lib/nsys_db.py)
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "nsys advice words" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi
cat > "$T_DIR/mk.py" << 'PY'
import sys
from nsys_db import export, kernel, runtime  # tests/cli/lib
db = export(sys.argv[1], ['cudaLaunchKernel_v7000', 'hydro_kernel',
                          'cudaDeviceSynchronize_v3020', 'cudaMalloc_v3020'],
            'hydro')
malloc_us = int(sys.argv[2])
us = 1000
runtime(db, 0, malloc_us * us, 1000, 4)
t = malloc_us * us
for i in range(40):
    runtime(db, t, t + 5 * us, i + 1, 1)
    kernel(db, t + 8 * us, t + 208 * us, i + 1, 2)
    runtime(db, t + 6 * us, t + 210 * us, 2000 + i, 3)
    t += 260 * us
db.commit()
PY
python3 "$T_DIR/mk.py" "$T_DIR/cold.sqlite" 200000
python3 "$T_DIR/mk.py" "$T_DIR/sync.sqlite" 10
"$PR_BIN" -q --input "$T_DIR/cold.sqlite" --json "$T_DIR/cold.json"
"$PR_BIN" -q --input "$T_DIR/sync.sqlite" --json "$T_DIR/sync.json"
check "no PyTorch in the trace: no torch API in any advice, syncs and warm-up in CUDA's words" \
    python3 -c "
import json, sys
recs = {}
for p in sys.argv[1:]:
    r = json.load(open(p))['runs'][0]
    for x in r['recommendations'] + r.get('observations', []):
        recs[x['id']] = x['text']
assert 'cold_step' in recs and 'host_sync' in recs, list(recs)
for i, t in recs.items():
    for w in ('.item()', 'torch.profiler', 'torch.cuda.synchronize', 'prof.step', 'training step'):
        assert w not in t, (i, w, t)
assert '--capture-range=cudaProfilerApi' in recs['cold_step'], recs['cold_step']
t = recs['host_sync']
assert 'Synchronize less' in t and 'in the capture' in t, t
" "$T_DIR/cold.json" "$T_DIR/sync.json"
# no framework, no batch (review 28h #8): no twice-the-batch or
# accumulation replay, no convergence or learning-rate words
check "no framework in the trace: no batch replay or batch words" \
    python3 -c "
import json, sys
for p in sys.argv[1:]:
    r = json.load(open(p))['runs'][0]
    w = [x['id'] for x in (r['critical_path'] or {}).get('what_if') or []]
    assert 'low_gpu_utilization' not in w and 'gradient_accumulation' not in w, (p, w)
    for x in r['recommendations'] + r.get('observations', []):
        for word in ('convergence', 'learning rate', 'batch size'):
            assert word not in x['text'], (p, x['id'], x['text'])
" "$T_DIR/cold.json" "$T_DIR/sync.json"
echo "1..$T_N"
