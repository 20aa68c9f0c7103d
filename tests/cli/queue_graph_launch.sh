#!/bin/sh
# queue_graph_launch.sh - HTA's queue length (launches.queue_length[])
# counts every operation outstanding on a stream, from the call that
# enqueued it until it starts.  One cudaGraphLaunch enqueues all of its
# graph's kernels at once: each kernel correlated to the launch is
# outstanding from the launch's start (issue #29 #1: hta_diff_test's 12
# graph launches, 5,046 kernels, were left out of its queues).
#
# Hand-made: a cudaLaunchKernel at 0 us (its kernel starts at 80 us), then
# a cudaGraphLaunch at 10 us whose 4 kernels start at 100, 120, 140 and
# 160 us on the same stream: from 10 us to 80 us five operations are
# queued (max 5); operations 5, of them kernels 5.  No kernel is counted
# twice, none dropped.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "graph queue" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR/g.json" << 'PY'
import json, sys
def x(cat, name, pid, tid, ts, dur, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}
ev = [x("cpu_op", "forward", 1, 1, 0, 40, **{"External id": 1}),
      x("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 5, correlation=1,
        **{"External id": 1}),
      x("kernel", "first_kernel", 0, 7, 80, 20, device=0, stream=7,
        correlation=1, **{"External id": 1}),
      x("cuda_runtime", "cudaGraphLaunch", 1, 1, 10, 20, correlation=2,
        **{"External id": 1})]
for i in range(4):
    ev.append(x("kernel", "graph_kernel_%d" % i, 0, 7, 100 + 20 * i, 20,
                device=0, stream=7, correlation=2, **{"External id": 1}))
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY

"$PR_BIN" -q --input "$T_DIR/g.json" --json "$T_DIR/g.s.json"
set -- $(python3 - "$T_DIR/g.s.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
q = [x for x in r["launches"]["queue_length"] if x["stream"] == 7]
q = q[0] if q else {"operations": 0, "kernels": 0, "max": 0}
print(q["operations"], q["kernels"], q["max"],
      r["launches"]["graph_kernels"])
PY
)
check "graph kernels are queued operations ($1 of 5)" test "$1" = 5
check "all five are kernels ($2)" test "$2" = 5
check "the graph's kernels are outstanding from its launch (max $3 of 5)" \
    test "$3" = 5
check "graph_kernels still counts the graph's 4 ($4)" test "$4" = 4
echo "1..$T_N"
