#!/bin/sh
# module_tree.sh - the module tree (issue #16): collapsible in the HTML
# (rows carry their depth, the table is a tree the inline script folds,
# the first cell indented without the script), indented in the PDF and in
# `table --kind modules`.  The trace is made here: Net_0 > Encoder_0 >
# (Linear_0, ReLU_0), Net_0 > Decoder_0 > Linear_1, each with a kernel.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "module tree" "no python3"
    echo "1..$T_N"
    exit 0
fi
TR=$T_DIR/mods.pt.trace.json
python3 - "$TR" << 'PY'
import json, sys
ev = []
def X(cat, name, ts, dur, tid=1, pid=1, **args):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
               "ts": ts, "dur": dur, "args": args})
corr = [0]
def op(name, ts, dur, kdur):
    corr[0] += 1
    c = corr[0]
    X("cpu_op", name, ts, dur, **{"External id": c})
    X("cuda_runtime", "cudaLaunchKernel", ts + 1, 2, **{"External id": c, "correlation": c})
    X("kernel", "gemm_" + name.split("::")[-1], 5000 + ts, kdur, tid=7, pid=0,
      **{"External id": c, "correlation": c, "device": 0, "stream": 7})
pid = [0]
def mod(name, mid, ts, dur, parent):
    pid[0] += 1
    X("python_function", "nn.Module: " + name, ts, dur, **{"Python id": pid[0], "Python parent id": parent, "Python module id": mid})
    return pid[0]
X("user_annotation", "ProfilerStep#1", 0, 1000)
net = mod("Net_0", 0, 10, 900, 0)
enc = mod("Encoder_0", 1, 20, 400, net)
l0 = mod("Linear_0", 2, 30, 100, enc)
op("aten::linear", 40, 50, 120)
act = mod("ReLU_0", 3, 150, 50, enc)
op("aten::relu", 160, 20, 30)
dec = mod("Decoder_0", 4, 450, 400, net)
l1 = mod("Linear_1", 5, 460, 100, dec)
op("aten::linear", 470, 50, 200)
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q --input "$TR" --json "$T_DIR/s.json" --html "$T_DIR/r.html" \
    --pdf "$T_DIR/r.pdf" 2> "$T_DIR/err"
check "report exits 0 ($(head -c 200 "$T_DIR/err"))" [ $? -eq 0 ]
check "six module rows, depths 0 1 2 2 1 2" python3 -c "
import json, sys
m = json.load(open(sys.argv[1]))['runs'][0]['modules']
sys.exit(0 if [r['depth'] for r in m] == [0, 1, 2, 2, 1, 2] else 1)" "$T_DIR/s.json"
check "HTML: the module table is a tree" \
    grep -q '<table class="data tree"' "$T_DIR/r.html"
check "HTML: rows carry their depth, in tree order" sh -c '
    grep -o "<tr data-depth=\"[0-9]\"[^>]*><td[^>]*data-v=\"[A-Za-z_0-9]*\"" "$1" |
    sed "s/.*data-depth=\"\([0-9]\)\".*data-v=\"\(.*\)\"/\1\2/" | tr "\n" " " |
    grep -q "^0Net_0 1Encoder_0 2Linear_0 2ReLU_0 1Decoder_0 2Linear_1 $"' \
    - "$T_DIR/r.html"
check "HTML: indentation without the script (CSS by depth)" \
    grep -q 'table.tree td:first-child { padding-left: calc(' "$T_DIR/r.html"
check "HTML: the inline script folds subtrees" \
    grep -q 'function enhanceTree' "$T_DIR/r.html"
check "HTML: no network reference" \
    sh -c '! grep -q "<script src=\|<link [^>]*href=\"http" "$1"' - "$T_DIR/r.html"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -layout "$T_DIR/r.pdf" "$T_DIR/r.txt"
    check "PDF: a child is indented under its parent" python3 -c "
import sys
t = open(sys.argv[1]).read().splitlines()
col = {}
for name in ('Net_0', 'Encoder_0', 'Linear_0'):
    col[name] = min(l.index(name) for l in t if l.lstrip().startswith(name + ' '))
sys.exit(0 if col['Net_0'] < col['Encoder_0'] < col['Linear_0'] else 1)" \
        "$T_DIR/r.txt"
else
    skip "PDF: a child is indented under its parent" "no pdftotext"
fi
"$PR_BIN" table --input "$TR" --kind modules -w 120 > "$T_DIR/t.txt"
check "table --kind modules exits 0" [ $? -eq 0 ]
check "table --kind modules indents two spaces a level" sh -c '
    grep -q "^Net_0 " "$1" && grep -q "^  Encoder_0 " "$1" &&
    grep -q "^    Linear_0 " "$1" && grep -q "^  Decoder_0 " "$1"' \
    - "$T_DIR/t.txt"
"$PR_BIN" table --input "$TR" --kind modules --sort device_total \
    > "$T_DIR/s.txt"
check "sorted, the tree is flat (no indentation)" \
    sh -c '! grep -q "^  " "$1"' - "$T_DIR/s.txt"
"$PR_BIN" table --input "$TR" --kind modules --csv -c path,depth,device_total \
    > "$T_DIR/t.csv"
check "CSV gives each row's path and depth" \
    grep -q '^Net_0/Encoder_0/Linear_0,2,120.0$' "$T_DIR/t.csv"

echo "1..$T_N"
