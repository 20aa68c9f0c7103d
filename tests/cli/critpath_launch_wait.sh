#!/bin/sh
# critpath_launch_wait.sh - two waits around a launch that are not the
# host's launch overhead (critpath.c late_starts and queue_full).
#
# 1. A task that starts long after its launch call returned, on a stream
#    with nothing before it, did not wait for the host (hunt30 #1:
#    TraceLens' graph-replayed vLLM/SGLang iterations on MI300X read
#    "launches 41-98%" and "capture the launches in a graph").  Hand-made:
#    one cudaGraphLaunch at 10 us of 50 kernels that start at 5 ms and run
#    back to back (20 us each): the 5 ms wait is idle with no recorded
#    cause, no launch_bound finding, the verdict names no launches.  The
#    same trace with the kernels starting 300 us after the launch keeps
#    that wait as launch-to-start delay (under PR_CP_LATE_START_NS), but
#    offers no launch finding: all its kernels come from a graph launch.
# 2. A launch call made with its device's launch queue full (over 1,000
#    launched tasks not started; CUDA queues about 1,024) blocks until a
#    task ends: a wait on the device, like a sync (review30g #1: HTA's
#    ns_resolution V100 trace, whose AMP replay saved 2.2%).  Hand-made V100
#    step: 1,030 fp32 sgemm launches (aten::mm) in 0.5 ms, then 300
#    launches that each return 3 us after a kernel ends (100 us kernels),
#    60 ms of host work, a cudaDeviceSynchronize.  The AMP replay (kernels
#    at the fp16 tensor-core peak) shortens the blocking calls with the
#    kernels: 52% (held as fixed host time, 0.5 + 30 + 60 ms of host would
#    keep the step at 90.5 ms: 32%).  The same launches with 500 tasks
#    pending stay launch calls.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "launch waits" "no python3"
    echo "1..$T_N"
    exit 0
fi

# graph FILE START_US [wait]: one graph launch of 50 kernels starting at
# START_US (wait: after a cudaStreamWaitEvent whose record is not traced)
graph() {
    python3 - "$@" << 'PY'
import json, sys
s = float(sys.argv[2])
def x(cat, name, pid, tid, ts, dur, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}
ev = [x("cpu_op", "forward", 1, 1, 5, 30, **{"External id": 1}),
      x("cuda_runtime", "cudaGraphLaunch", 1, 1, 10, 20, correlation=1,
        **{"External id": 1})]
if len(sys.argv) > 3:  # a stream wait on an event recorded before it
    ev.append(x("cuda_runtime", "cudaStreamWaitEvent", 1, 1, 6, 2,
                correlation=9))
for i in range(50):
    ev.append(x("kernel", "gemm_kernel_%d" % (i % 5), 0, 7, s + 20 * i, 20,
                device=0, stream=7, correlation=1, **{"External id": 1}))
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY
}

# facts SUMMARY: "<launch us> <idle us> <launch_bound rec> <verdict names
# launches> <the note says the host did not set it> <the path table's bound>
# <the verdict's bound>"
facts() {
    python3 - "$1" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
cp = r["critical_path"]
k = cp["by_kind_us"]
recs = [x["id"] for x in r["recommendations"]]
n = cp.get("launch_wait_note") or ""
print(round(k["launch"]), round(k["idle"]), "launch_bound" in recs,
      "launches" in r["verdict"]["text"],
      "did not wait for the host" in n and "gemm_kernel_0" in n,
      cp["steps"][0].get("bound"), r["verdict"].get("bound"))
PY
}

graph "$T_DIR/late.json" 5000
"$PR_BIN" -q --input "$T_DIR/late.json" --json "$T_DIR/late.s.json"
set -- $(facts "$T_DIR/late.s.json")
check "late start: the 5 ms wait is not launch time ($1 us)" test "$1" -lt 100
check "late start: it is idle with no recorded cause ($2 us)" \
    test "$2" -ge 4900
check "late start: no launch_bound finding" test "$3" = False
check "late start: the verdict names no launches" test "$4" = False
check "late start: the note says the task did not wait for the host" \
    test "$5" = True
# the path's table and the verdict agree: idle, no resource (review 31 #9:
# SGLang decode read "Bound: device" beside a verdict naming no bound)
check "late start: the path table's bound is idle, as the verdict ($6/$7)" \
    test "$6/$7" = "idle/idle"
"$PR_BIN" -q --input "$T_DIR/late.json" --html "$T_DIR/late.html"
sed 's/<wbr>//g' "$T_DIR/late.html" > "$T_DIR/late.txt"
check "late start: the section says idle leads, then the resource" \
    grep -qF "largest part of the path over the capture (no steps) (see the \
Verdict); of the resources, device compute leads" "$T_DIR/late.txt"

# the same after a stream wait on an event the trace does not record: the
# note names that call (review 31 #9: SGLang's overlap scheduler calls
# hipStreamWaitEvent 21 us before the launch that then waits 463 ms)
graph "$T_DIR/waitev.json" 5000 wait
"$PR_BIN" -q --input "$T_DIR/waitev.json" --json "$T_DIR/waitev.s.json"
check "late start after a stream wait: the note names the wait" python3 -c "
import json, sys
n = json.load(open(sys.argv[1]))['runs'][0]['critical_path']['launch_wait_note']
assert 'made a stream wait on an event whose record is not in the trace' in n, n
" "$T_DIR/waitev.s.json"
check "late start without one: the note does not" python3 -c "
import json, sys
n = json.load(open(sys.argv[1]))['runs'][0]['critical_path']['launch_wait_note']
assert 'stream wait on an event' not in n and 'waited for an event it does not record' in n, n
" "$T_DIR/late.s.json"

graph "$T_DIR/near.json" 330
"$PR_BIN" -q --input "$T_DIR/near.json" --json "$T_DIR/near.s.json"
set -- $(facts "$T_DIR/near.s.json")
check "300 us after its launch: still a launch-to-start delay ($1 us)" \
    test "$1" -ge 290
check "300 us after its launch: no late-start note" test "$5" = False
# every kernel came from a graph launch: no launch finding, no advice to
# capture a graph (PR_GRAPHED_SHARE), and the replay's misses say why
check "all kernels from a graph launch: no launch_bound finding" \
    test "$3" = False

# queue FILE FAST: FAST quick launches, then 300 that block on the queue
queue() {
    python3 - "$@" << 'PY'
import json, sys
out, fast = sys.argv[1], int(sys.argv[2])
ev = []
def x(cat, name, pid, tid, ts, dur, **a):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
               "ts": ts, "dur": dur, "args": a})
corr = 0
def launch(ts, dur, kts):
    global corr
    corr += 1
    x("cpu_op", "aten::mm", 1, 1, ts - 0.1, dur + 0.15,
      **{"External id": corr, "Input Dims": [[256, 256], [256, 256]],
         "Input type": ["float", "float"]})
    x("cuda_runtime", "cudaLaunchKernel", 1, 1, ts, dur, correlation=corr,
      **{"External id": corr})
    x("kernel", "volta_sgemm_128x64_nn", 0, 7, kts, 100, device=0, stream=7,
      correlation=corr, **{"External id": corr})
for i in range(fast):
    launch(1 + 0.5 * i, 0.3, 2 + 100 * i)
t = 1 + 0.5 * fast + 3
for j in range(300):
    k = fast + j
    # full: returns 3 us after kernel k - 1024 ends, as a slot frees
    end = 2 + 100 * (k - 1023) + 3 if fast >= 1024 else t + 100
    launch(t, end - t, max(2 + 100 * k, end))
    t = end + 2
x("cpu_op", "aten::_host_work", 1, 1, t, 60000)
t += 60001
last = max(e["ts"] + e["dur"] for e in ev if e["cat"] == "kernel")
x("cuda_runtime", "cudaDeviceSynchronize", 1, 1, t, last + 3 - t)
x("user_annotation", "ProfilerStep#1", 1, 1, 0, last + 10)
json.dump({"deviceProperties": [{"id": 0, "name": "Tesla V100-SXM2-16GB",
           "computeMajor": 7, "computeMinor": 0, "numSms": 80,
           "totalGlobalMem": 16945512448}], "traceEvents": ev},
          open(out, "w"))
PY
}

# qfacts SUMMARY: "<launch us on the path> <AMP replay's gain %>"
qfacts() {
    python3 - "$1" << 'PY'
import json, sys
cp = json.load(open(sys.argv[1]))["runs"][0]["critical_path"]
w = {x["id"]: x for x in cp["what_if"]}
print(round(cp["by_kind_us"]["launch"]),
      round(w["enable_amp"]["gain_pct"]) if "enable_amp" in w else -1)
PY
}

queue "$T_DIR/full.json" 1030
"$PR_BIN" -q --input "$T_DIR/full.json" --json "$T_DIR/full.s.json"
set -- $(qfacts "$T_DIR/full.s.json")
check "full queue: the blocked launches are off the path ($1 us)" \
    test "$1" -lt 1000
check "full queue: the AMP replay shortens them with the kernels ($2%)" \
    test "$2" -ge 45
amp_text() {
    python3 - "$1" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
t = [x["text"] for x in r["recommendations"] if x["id"] == "enable_amp"]
print(bool(t) and "yet the step shortens" not in t[0])
PY
}
check "full queue: the AMP finding says no 'yet the step shortens'" \
    test "$(amp_text "$T_DIR/full.s.json")" = True

queue "$T_DIR/half.json" 500
"$PR_BIN" -q --input "$T_DIR/half.json" --json "$T_DIR/half.s.json"
set -- $(qfacts "$T_DIR/half.s.json")
check "500 pending: the long launches stay launch calls ($1 us)" \
    test "$1" -ge 25000

# 3. A thread whose last call precedes another thread's waited for that
#    thread up to the window's end, as a call after such a wait does (the
#    main thread inside loss.backward() while autograd's thread launches:
#    ns_resolution's device-time steps end 50.6 ms into its "## backward
#    ##" range, which the replays held as fixed host work).  Hand-made:
#    the main thread's last call at 2 us, then "## backward ##" to the
#    step's end at 1 ms; the autograd thread launches 10 kernels from 100
#    to 825 us.  Only the range's 175 us after that last call is the main
#    thread's on the path (990 us before).
python3 - "$T_DIR/bwd.json" << 'PY'
import json, sys
def x(cat, name, pid, tid, ts, dur, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}
ev = [x("user_annotation", "ProfilerStep#1", 1, 1, 0, 1000),
      x("cpu_op", "aten::zeros", 1, 1, 1, 5, **{"External id": 1}),
      x("cuda_runtime", "cudaLaunchKernel", 1, 1, 2, 2, correlation=1,
        **{"External id": 1}),
      x("kernel", "fill_kernel", 0, 7, 5, 10, device=0, stream=7,
        correlation=1, **{"External id": 1}),
      x("user_annotation", "## backward ##", 1, 1, 10, 990)]
for i in range(10):
    t, c = 100 + 80 * i, 2 + i
    ev += [x("cpu_op", "MmBackward0", 1, 2, t - 2, 10, **{"External id": c}),
           x("cuda_runtime", "cudaLaunchKernel", 1, 2, t, 5, correlation=c,
             **{"External id": c}),
           x("kernel", "grad_kernel", 0, 7, t + 6, 70, device=0, stream=7,
             correlation=c, **{"External id": c})]
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q --input "$T_DIR/bwd.json" --json "$T_DIR/bwd.s.json"
bwd=$(python3 - "$T_DIR/bwd.s.json" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))["runs"][0]["critical_path"]["steps"][0]
print(round({t["name"]: t["us"] for t in s["top"]}.get("## backward ##", 0)))
PY
)
check "main thread waiting in backward: 175 us of its range on the path ($bwd)" \
    test "$bwd" = 175

echo "1..$T_N"
