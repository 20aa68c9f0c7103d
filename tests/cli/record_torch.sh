#!/bin/sh
# record_torch.sh - `profreport record -- python3 train.py` for real: a tiny
# CNN trained for 6 optimizer steps under torch.profiler (--steps 1,1,3),
# then the summary (the 3 active steps, operators with their input shapes,
# memory), the HTML and PDF (clean, and on a CPU run without a word about
# GPUs), a module run whose exit status passes through, and, where a GPU
# is present, CUDA activities.  Needs a Python that imports torch
# ($PR_PYTHON, python3 or /usr/bin/python3: Debian's python3-torch);
# skipped with a message where there is none, except under CI, which
# installs it (PROFREPORT_CI_TORCH=1 makes a missing torch a failure).
. "$PR_SRCDIR/tests/lib.sh"

py=
for c in ${PR_PYTHON:-} python3 /usr/bin/python3; do
    if command -v "$c" > /dev/null 2>&1 &&
        (cd "$T_DIR" && "$c" -c "import torch") > /dev/null 2>&1; then
        py=$(command -v "$c")
        break
    fi
done
if [ -z "$py" ]; then
    if [ "${PROFREPORT_CI_TORCH:-0}" = 1 ]; then
        not_ok "torch imports in python3 (CI installs python3-torch)"
    else
        skip "record with torch.profiler" \
            "no Python with torch here (apt-get install python3-torch)"
    fi
    echo "1..$T_N"
    exit 0
fi

cat > "$T_DIR/train.py" << 'PY'
import sys
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)
dev = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                      nn.Flatten(), nn.Linear(8 * 16 * 16, 10)).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(8, 3, 16, 16, device=dev)
y = torch.randint(0, 10, (8,), device=dev)
for _ in range(int(sys.argv[1])):
    opt.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
PY
mkdir "$T_DIR/pkg"
printf 'import sys\nimport torch\nsys.exit(int(sys.argv[1]))\n' \
    > "$T_DIR/pkg/fail.py"
: > "$T_DIR/pkg/__init__.py"

cd "$T_DIR" || exit 1
"$PR_BIN" record --output "$T_DIR/run" --steps 1,1,3 --json "$T_DIR/s.json" \
    --html "$T_DIR/r.html" --pdf "$T_DIR/r.pdf" -- "$py" train.py 6 \
    > "$T_DIR/out" 2> "$T_DIR/err"
rc=$?
check "record -- python3 train.py exits 0 (got $rc)" [ "$rc" -eq 0 ]
if [ "$rc" -ne 0 ]; then
    sed 's/^/# /' "$T_DIR/err"
fi
check "the launcher says which optimizer steps it recorded" \
    grep -q "6 optimizer steps; steps 3 to 5 recorded" "$T_DIR/err"
check "one trace in the output folder" \
    sh -c "[ \$(ls '$T_DIR/run/'*.pt.trace.json | wc -l) -eq 1 ]"
check "no temporary file is left beside it" \
    sh -c "[ -z \"\$(ls -A '$T_DIR/run' | grep -v '\\.pt\\.trace\\.json\$')\" ]"

check "the summary: 3 active steps, operators with shapes, memory" \
    "$py" -c "
import json, sys
s = json.load(open(sys.argv[1]))
r = s['runs'][0]
assert len(s['runs']) == 1, len(s['runs'])
steps = [x['name'] for x in r['steps']]
assert len(steps) == 3 and all(n.startswith('ProfilerStep#') for n in steps), steps
shapes = {(o['name'], o['input_shapes']) for o in r['operators_by_shape']}
assert ('aten::conv2d', '[[8, 3, 16, 16], [8, 3, 3, 3], [8], [], [], [], []]') \
    in shapes, sorted(shapes)[:20]
assert ('aten::linear', '[[8, 2048], [10, 2048], [10]]') in shapes, sorted(shapes)[:20]
ops = {o['name'] for o in r['operators']}
assert {'aten::conv2d', 'aten::relu', 'aten::linear'} <= ops, ops
mem = r['memory']
devs = [d['device'] for d in mem['devices']]
assert 'CPU' in devs, devs
cpu = [d for d in mem['devices'] if d['device'] == 'CPU'][0]
assert len(cpu['curve']['t_us']) > 0, cpu
assert any(m['name'] == 'aten::conv2d' and m['allocation_size_bytes'] > 0
           for m in mem['operators']), mem['operators'][:5]
" "$T_DIR/s.json"

cuda=$("$py" -c "import torch; print(int(torch.cuda.is_available()))" 2>/dev/null)
if [ "$cuda" = 1 ]; then
    check "with a GPU: CUDA activities, kernels linked to operators" \
        "$py" -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert len(r['kernels']) > 0, len(r['kernels'])
ops = {o['name']: o for o in r['operators']}
assert ops['aten::conv2d']['device_total_us'] > 0, ops['aten::conv2d']
" "$T_DIR/s.json"
else
    skip "CUDA activities" "no GPU here: the CPU run was checked"
fi
if command -v qpdf > /dev/null 2>&1; then
    check "the PDF passes qpdf --check" qpdf --check "$T_DIR/r.pdf"
else
    skip "qpdf --check" "qpdf not installed"
fi
check "the HTML report is written" grep -q "aten::conv2d" "$T_DIR/r.html"
# a CPU run's reports say nothing of a GPU: no device views, no kernel or
# tensor-core columns, the devices as "CPU only"
gpu_words='\b(GPUs?|CUDA|NVIDIA|NPUs?|kernels?|tensor cores?|warps?|occupancy)\b'
if [ "$cuda" != 1 ]; then
    check "the summary says the run is host-only" "$py" -c "
import json, sys
assert json.load(open(sys.argv[1]))['runs'][0]['host_only'] is True
" "$T_DIR/s.json"
    check "the HTML says nothing about GPUs" \
        sh -c "! grep -Eiq '$gpu_words' '$T_DIR/r.html'"
    check "the HTML lists the devices as CPU only" grep -q "CPU only" \
        "$T_DIR/r.html"
    "$PR_BIN" table -q --input "$T_DIR/run" --kind operators --top 5 \
        > "$T_DIR/ops.txt" 2>&1
    check "table --kind operators: host columns only on a CPU run" \
        sh -c "grep -q 'Host self' '$T_DIR/ops.txt' &&
               ! grep -Eq 'Device|TC self' '$T_DIR/ops.txt'"
    "$PR_BIN" table -q --input "$T_DIR/run" --kind steps \
        > "$T_DIR/steps.txt" 2>&1
    check "table --kind steps: no kernel, memcpy or runtime column" \
        sh -c "grep -q 'CPU exec' '$T_DIR/steps.txt' &&
               ! grep -Eq 'Kernel|Memcpy|Memset|Runtime' '$T_DIR/steps.txt'"
    if command -v pdftotext > /dev/null 2>&1; then
        pdftotext "$T_DIR/r.pdf" "$T_DIR/r.txt"
        check "the PDF says nothing about GPUs" \
            sh -c "! grep -Eiq '$gpu_words' '$T_DIR/r.txt'"
        check "the PDF lists the devices as CPU only" grep -q "CPU only" \
            "$T_DIR/r.txt"
    else
        skip "the PDF's words" "pdftotext not installed (poppler-utils)"
    fi
fi

# python3 -m: the module runs as __main__ and its exit status passes
# through; no optimizer step is said, and is no error after a failure
"$PR_BIN" record --output "$T_DIR/run2" -- "$py" -m pkg.fail 3 \
    > /dev/null 2> "$T_DIR/err2"
rc=$?
check "record -- python3 -m MODULE: the exit status passes through (got $rc)" \
    [ "$rc" -eq 3 ]
check "  the launcher says no optimizer step was seen" \
    grep -q "no optimizer step was seen" "$T_DIR/err2"
check "  and profreport that nothing was captured" \
    grep -q "warning: nothing was captured" "$T_DIR/err2"

echo "1..$T_N"
