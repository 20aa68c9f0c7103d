#!/bin/sh
# tree_labels.sh - issue #32: the module tree's labels (a Lightning run
# names each module by its path, "model.transformer_encoder_stack_with_
# rotary_position_embeddings.layers.2.multi_head_self_attention.query_
# projection_linear", 122 characters) are shortened like paths in the
# terminal, HTML and PDF: the leaf stays whole, the middle gives way, and
# two modules never read alike (cut one cell at a time, the layers'
# projections all read the same).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "tree labels" "no python3"
    echo "1..$T_N"
    exit 0
fi
TR=$T_DIR/pl.pt.trace.json
python3 - "$TR" << 'PY'
import json, sys
ev = []
def X(cat, name, ts, dur, tid=1, pid=1, **args):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
               "ts": ts, "dur": dur, "args": args})
corr = [0]
def op(ts, dur, kdur):
    corr[0] += 1
    c = corr[0]
    X("cpu_op", "aten::linear", ts, dur, **{"External id": c})
    X("cuda_runtime", "cudaLaunchKernel", ts + 1, 2,
      **{"External id": c, "correlation": c})
    X("kernel", "gemm_%d" % c, 90000 + ts, kdur, tid=7, pid=0,
      **{"External id": c, "correlation": c, "device": 0, "stream": 7})
def mod(name, ts, dur):
    X("user_annotation", "[pl][module]torch.nn.Module: " + name, ts, dur)
X("user_annotation", "ProfilerStep#1", 0, 80000)
t = 10
for part in ("transformer_encoder_stack_with_rotary_position_embeddings",
             "transformer_decoder_stack_with_rotary_position_embeddings"):
    mod("model." + part, t, 19000)
    for layer in range(3):
        base = "model.%s.layers.%d" % (part, layer)
        mod(base, t + 1, 2900)
        mod(base + ".multi_head_self_attention", t + 2, 2000)
        for proj in ("query_projection_linear", "key_projection_linear"):
            mod(base + ".multi_head_self_attention." + proj, t + 3, 900)
            op(t + 4, 800, 100 + layer)
            t += 1000
        t += 1000
    t += 1000
json.dump({"schemaVersion": 1, "Framework": "pytorch-lightning",
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY

# labels.py KIND FILE: "rows distinct cut leaf" of the projections'
# labels (KIND text: the table; pdf: pdftotext -layout, a label's lines
# under its row's first; html: the tree table's first cells)
cat > "$T_DIR/labels.py" << 'PY'
import html, re, sys
kind, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
labels = []
if kind == "html":
    for cell in re.findall(r'<tr data-depth="[0-9]+"[^>]*>\s*<td[^>]*>(.*?)'
                           r'</td>', text, re.S):
        labels.append(html.unescape(re.sub(r"<[^>]*>", "", cell)).strip())
else:
    lines = text.replace("\f", "\n").split("\n")
    num = re.compile(r"\s{2,}[0-9][0-9.]*\s*(µs|ms)(\s|$)")
    i = 0
    while i < len(lines):
        if not num.search(lines[i]):
            i += 1
            continue
        label = re.split(r"\s{2,}", lines[i].strip())[0]
        i += 1
        while (kind == "pdf" and i < len(lines) and lines[i].strip() and
               not num.search(lines[i])):
            label += re.split(r"\s{2,}", lines[i].strip())[0]
            i += 1
        labels.append(label)
proj = [l for l in labels if re.search(r"projection_linear( \[[0-9]+\])?$", l)]
print(len(proj), len(set(proj)), sum("…" in l for l in proj),
      sum(bool(re.search(r"[0-9]…(query|key)_projection_linear", l))
          for l in proj), len(labels), len(set(labels)))
PY
labels() { python3 "$T_DIR/labels.py" "$@"; }

"$PR_BIN" table -i "$TR" --kind modules -w 72 > "$T_DIR/t.txt" 2> "$T_DIR/err"
check "table --kind modules exits 0 ($(head -c 200 "$T_DIR/err"))" [ $? -eq 0 ]
labels text "$T_DIR/t.txt" > "$T_DIR/n.txt"
read -r n u cut layer rows urows < "$T_DIR/n.txt"
check "terminal: $rows modules, as many labels ($urows)" \
    [ "$rows" -ge 25 -a "$urows" -eq "$rows" ]
check "terminal: 12 projections cut in the middle, leaf and layer kept ($n, $cut, $layer)" \
    [ "$n" -eq 12 -a "$cut" -eq 12 -a "$layer" -eq 12 ]
check "terminal: every line within -w 72 code points" python3 -c "
import sys
sys.exit(max(len(l) for l in open(sys.argv[1], encoding='utf-8')
             .read().split('\n')) > 72)" "$T_DIR/t.txt"

"$PR_BIN" -q -i "$TR" --html "$T_DIR/r.html" --pdf "$T_DIR/r.pdf" \
    2> "$T_DIR/err"
check "report exits 0 ($(head -c 200 "$T_DIR/err"))" [ $? -eq 0 ]
labels html "$T_DIR/r.html" > "$T_DIR/n.txt"
read -r n u cut layer rows urows < "$T_DIR/n.txt"
check "HTML: $rows module rows, as many labels ($urows)" \
    [ "$rows" -ge 25 -a "$urows" -eq "$rows" ]
check "HTML: 12 projections cut in the middle, leaf kept ($n, $u, $cut)" \
    [ "$n" -eq 12 -a "$u" -eq 12 -a "$cut" -eq 12 ]

if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -layout "$T_DIR/r.pdf" "$T_DIR/r.txt"
    labels pdf "$T_DIR/r.txt" > "$T_DIR/n.txt"
    read -r n u cut layer rows urows < "$T_DIR/n.txt"
    # a PDF name cell holds three lines (review 26g #7): the 122-character
    # paths are whole there now; cut or whole, each reads apart
    check "PDF: 12 projections, 12 labels, leaf kept ($n, $u, $cut cut)" \
        [ "$n" -eq 12 -a "$u" -eq 12 ]
else
    skip "PDF: projections read apart" "no pdftotext"
fi

echo "1..$T_N"
