#!/bin/sh
# step_label_fit.sh - user review 25u #10: the terminal steps table cut
# "ProfilerStep#5" to "Pro…ep#5" (later wrapped it over two lines,
# "Profiler" / "Step#5"); a narrow Step column now keeps a numbered
# label's end on one line, from where a part of it starts: "…Step#5",
# "…Step#12".  A made trace of 12 ProfilerSteps at -w 30 and 40, and the
# shared tb_plugin resnet50 at 40.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "step labels" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
ev = []
for i in range(12):
    t0 = i * 1000
    ev.append(X("user_annotation", "ProfilerStep#%d" % (i + 1), t0, 1000))
    ev.append(X("cuda_runtime", "cudaLaunchKernel", t0 + 5, 5,
                correlation=i + 1))
    ev.append(X("kernel", "volta_sgemm_128x64_nn", t0 + 20, 600, pid=0,
                tid=7, correlation=i + 1, device=0, stream=7))
json.dump({"traceEvents": ev}, open(d + "/s.pt.trace.json", "w"))
PY
maxw() { awk '{ n = length($0); if (n > m) m = n } END { print m + 0 }' "$1"; }

for w in 30 40; do
    "$PR_BIN" table -q --input "$T_DIR/s.pt.trace.json" --kind steps -w $w \
        > "$T_DIR/s$w.txt" 2> "$T_DIR/err"
    check "steps at $w: exit 0 ($(head -c 200 "$T_DIR/err"))" [ $? -eq 0 ]
    check "steps at $w: one line a step, each ending its label's number" \
        python3 -c '
import re, sys
lines = open(sys.argv[1]).read().split("\n")
rows = lines[1:lines.index(next(l for l in lines if l.startswith("(")))]
labels = [l.split()[0] for l in rows]
want = ["\u2026Step#%d" % i for i in range(1, 13)]
assert labels == want, labels
' "$T_DIR/s$w.txt"
    check "steps at $w: no label cut in its middle or wrapped" \
        sh -c '! grep -q "Pro…\|^ *Step#\|Profiler *$" "$1"' - "$T_DIR/s$w.txt"
    check "steps at $w: fits (widest $(maxw "$T_DIR/s$w.txt"))" \
        [ "$(maxw "$T_DIR/s$w.txt")" -le $w ]
done
"$PR_BIN" table -q --input "$T_DIR/s.pt.trace.json" --kind steps -w 200 \
    > "$T_DIR/wide.txt" 2> "$T_DIR/err"
check "steps at 200: labels whole" grep -q "^ProfilerStep#12 " "$T_DIR/wide.txt"

R=${PR_SHARED:-}/traces/tb_plugin/resnet50_num_workers_0
if have_shared && [ -d "$R" ]; then
    "$PR_BIN" table -q --input "$R" --kind steps -w 40 > "$T_DIR/r.txt" \
        2> "$T_DIR/err"
    check "resnet50 steps at 40: ProfilerStep#5 reads …Step#5 on one line" \
        grep -q "^1 *…Step#5  " "$T_DIR/r.txt"  # its span numbered (table_wrap)
    check "resnet50 steps at 40: 12 step rows, none wrapped" \
        [ "$(grep -c "…Step#[0-9]*  " "$T_DIR/r.txt")" -eq 12 ]
else
    skip "resnet50 steps at 40" "no shared traces"
fi
echo "1..$T_N"
