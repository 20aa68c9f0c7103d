#!/bin/sh
# idle_queued_wait.sh - device idle while a launched kernel waits in its
# queue (on an event: cudaStreamWaitEvent, or on work queued before it) is
# not host wait (HTA's idle-time categories: host wait / kernel wait /
# other; issue #30 #3).  The host waits end when the launch call returns
# (its latency after that, under HTA's 30 us consecutive-kernel delay,
# still counts as host wait); the rest of the gap is "other".
#
# Hand-made: k1 on stream 7 runs 0-100 us.  The host makes a
# cudaStreamWaitEvent on stream 8, then launches k2 on it at 150 us (the
# call returns at 160 us); k2 starts at 1,160 us: 60 us of host wait, 1 ms
# other.  Then k3 is launched at 2,000 us (returns at 2,010 us) and starts
# at 2,020 us: all of its 760 us gap (from k2's end) is host wait.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "queued wait" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR/q.json" << 'PY'
import json, sys
def x(cat, name, pid, tid, ts, dur, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}
ev = [x("cuda_runtime", "cudaLaunchKernel", 1, 1, -20, 5, correlation=1),
      x("kernel", "k1", 0, 7, 0, 100, device=0, stream=7, correlation=1),
      x("cuda_runtime", "cudaEventRecord", 1, 1, -10, 2, correlation=2),
      x("cuda_runtime", "cudaStreamWaitEvent", 1, 1, 140, 3, correlation=3),
      x("cuda_runtime", "cudaLaunchKernel", 1, 1, 150, 10, correlation=4),
      x("kernel", "k2", 0, 8, 1160, 100, device=0, stream=8, correlation=4),
      x("cuda_runtime", "cudaLaunchKernel", 1, 1, 2000, 10, correlation=5),
      x("kernel", "k3", 0, 8, 2020, 100, device=0, stream=8, correlation=5)]
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY

"$PR_BIN" -q --input "$T_DIR/q.json" --json "$T_DIR/q.s.json"
set -- $(python3 - "$T_DIR/q.s.json" << 'PY'
import json, sys
t = json.load(open(sys.argv[1]))["runs"][0]["temporal_breakdown"][0]
print(round(t["idle_host_wait_us"]), round(t["idle_kernel_wait_us"]),
      round(t["idle_other_us"]))
PY
)
check "host wait: until each launch call returned ($1 of 820 us)" \
    test "$1" = 820
check "no kernel wait ($2 us)" test "$2" = 0
check "the queued kernel's 1 ms after its call returned is other ($3 us)" \
    test "$3" = 1000
echo "1..$T_N"
