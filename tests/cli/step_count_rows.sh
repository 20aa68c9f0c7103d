#!/bin/sh
# step_count_rows.sh - issue #34: distributed.step_count_mismatch[] is a
# typed table (rows.def's pr_row_step_count), written through the one
# writer and read back by the loader.  Two hand-made ranks of one job,
# rank 0 with 2 ProfilerSteps and rank 1 with 3: the table lists both
# workers with their step counts, in the workers' order, keys in schema
# order; a saved summary loads through `profreport diff` (the typed reader
# refuses a damaged row: a step count as text).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "step-count mismatch rows" "no python3"
    echo "1..$T_N"
    exit 0
fi
mkdir -p "$T_DIR/job"
python3 - "$T_DIR/job" << 'PY'
import json, sys
d = sys.argv[1]
for rank, steps in ((0, 2), (1, 3)):
    ev = []
    for i in range(steps):
        ev.append({"ph": "X", "cat": "user_annotation", "name":
                   "ProfilerStep#%d" % (i + 1), "pid": 1, "tid": 1,
                   "ts": 1000 + 1000 * i, "dur": 900})
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1,
                   "tid": 1, "ts": 1010 + 1000 * i, "dur": 100})
        ev.append({"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float",
                   "pid": 0, "tid": 7, "ts": 1200 + 1000 * i, "dur": 300,
                   "args": {"device": 0, "stream": 7}})
    json.dump({"distributedInfo": {"backend": "nccl", "rank": rank,
                                   "world_size": 2},
               "traceEvents": ev},
              open("%s/worker%d.1700000000000.pt.trace.json" % (d, rank), "w"))
PY
"$PR_BIN" -q --input "$T_DIR/job" --json "$T_DIR/s.json"
check "two ranks of 2 and 3 steps: summary written (exit $?)" [ -s "$T_DIR/s.json" ]
check "  step_count_mismatch lists each worker's steps, keys in schema order" \
    python3 -c "
import json, sys
s = json.load(open(sys.argv[1]), object_pairs_hook=lambda p: p)
d = dict(dict(s)['distributed'])
rows = [list(r) for r in d['step_count_mismatch']]
assert rows == [[('worker', 'worker0'), ('steps', 2)],
                [('worker', 'worker1'), ('steps', 3)]], rows
" "$T_DIR/s.json"
"$PR_BIN" diff -q -b "$T_DIR/s.json" -i "$T_DIR/s.json" > /dev/null 2>&1
rc=$?
check "  the saved summary loads as a diff's baseline (exit $rc)" [ "$rc" -eq 0 ]
python3 - "$T_DIR/s.json" "$T_DIR/bad.json" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["distributed"]["step_count_mismatch"][1]["steps"] = "3"
json.dump(s, open(sys.argv[2], "w"))
PY
"$PR_BIN" diff -q -b "$T_DIR/bad.json" -i "$T_DIR/s.json" > /dev/null 2> "$T_DIR/err"
rc=$?
check "  a step count as text is refused, with its row (exit $rc)" \
    sh -c "[ $rc -eq 2 ] && grep -q 'step_count_mismatch\[1\].*steps' '$T_DIR/err'"
echo "1..$T_N"
