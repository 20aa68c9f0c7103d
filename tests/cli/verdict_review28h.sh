#!/bin/sh
# verdict_review28h.sh - review 28h items 1, 5 and 9 (issue #29), each on a
# small hand-made trace:
#  - pipelined steps (#5): a step's device work starts before the previous
#    step's ends (here a second stream 7 ms behind); the first device step
#    is its host interval (10 ms), not the pipeline depth (17 ms), and
#    first_step_backlog_us says the 7 ms (HTA's negative_queue_length rank
#    0 read a 245.8 ms mean where every step advances ~215 ms);
#  - a device busy nearly all its step (#1): two streams busy 1-22.3 ms of a
#    25 ms step while the host sits 20 ms in a user range of cudaEventQuery
#    polls, then launches one kernel: the path is the host's, but the step
#    is bound by the device (deepseek train.json, busy 99.2%, read "Bound by
#    the host");
#  - nsys captures whose launch kind is a cudaMalloc (#9): 100 ms of it
#    (40% of the capture) before 10 kernels is a cold start, said so, and
#    "runtime calls", not "launches"; 30 ms of it (17%) gets no cold-start
#    sentence but is still "runtime calls" (CloverLeaf's "launches 41%" was
#    one 234 ms cudaMalloc, context creation).
. "$PR_SRCDIR/tests/lib.sh"
# the export builder the nsys tests share (tests/cli/lib/nsys_db.py)
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "review 28h verdicts" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi

# field FILE EXPR: a Python expression over the first run (r) of a summary
field() {
    python3 - "$1" "$2" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(eval(sys.argv[2]))
PY
}

python3 - "$T_DIR" << 'PY'
import json, sys
import nsys_db  # tests/cli/lib
d = sys.argv[1]
ms = 1000.0

def kineto(path, ev):
    ev.sort(key=lambda e: e["ts"])
    json.dump({"schemaVersion": 1,
               "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB"}],
               "traceEvents": ev}, open(path, "w"))

def X(cat, name, pid, tid, ts, dur, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}

def launch(ev, corr, t, stream, k0, k1, name="gemm"):
    ev.append(X("cuda_runtime", "cudaLaunchKernel", 7, 1, t, 10,
                correlation=corr))
    ev.append(X("kernel", name, 0, stream, k0, k1 - k0, correlation=corr,
                device=0, stream=stream))

# pipelined: 4 steps of 10 ms; per step a kernel on stream 7 (1-6 ms) and
# a collective on stream 8 (7-17 ms, back to back with the previous one's)
ev, c = [], 0
for k in range(4):
    b = k * 10 * ms
    ev.append(X("user_annotation", "ProfilerStep#%d" % k, 7, 1, b, 10 * ms))
    ev.append(X("cpu_op", "aten::mm", 7, 1, b + 500, 2 * ms))
    c += 1
    launch(ev, c, b + 1 * ms, 7, b + 1 * ms + 30, b + 6 * ms)
    c += 1
    launch(ev, c, b + 1.5 * ms, 8, b + 7 * ms, b + 17 * ms,
           "ncclKernel_AllToAll")
kineto(d + "/pipe.json", ev)

# busy device, host polling
ev = [X("user_annotation", "ProfilerStep#1", 7, 1, 0, 25 * ms)]
launch(ev, 1, 0.2 * ms, 7, 1 * ms, 22.25 * ms)
launch(ev, 2, 0.4 * ms, 8, 1 * ms, 22.3 * ms, "gemm2")
ev.append(X("user_annotation", "dispatch", 7, 1, 2 * ms, 20 * ms))
for i in range(20):
    ev.append(X("cuda_runtime", "cudaEventQuery", 7, 1, 2 * ms + i * ms + 100,
                5, correlation=100 + i))
launch(ev, 3, 22.1 * ms, 9, 22.35 * ms, 25 * ms, "gemm3")
kineto(d + "/busy.json", ev)
# the same with a 0.5 ms input copy before the kernels: busy 97.8%, of
# which copies 2.0 points (mtia_inf: 91.9% with 1.7 points of DMA beside a
# compute utilization of 90.2%)
ev.append(X("cuda_runtime", "cudaMemcpyAsync", 7, 1, 0.1 * ms, 10,
            correlation=50))
ev.append(X("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 0, 10, 0.5 * ms,
            0.5 * ms, correlation=50, device=0, stream=10, bytes=1 << 20))
kineto(d + "/busycopy.json", ev)

# nsys: one cudaMalloc of `malloc_ms`, then 10 launches of 15 ms kernels
def nsys(path, malloc_ms):
    db = nsys_db.export(path, ['cudaLaunchKernel_v7000', 'stencil_kernel',
                               'cudaMalloc_v3020'], 'stencil')
    M = 1000000
    nsys_db.runtime(db, M, M + malloc_ms * M, 1, 3)
    t0 = M + malloc_ms * M + M
    for i in range(10):
        t = t0 + i * 15 * M
        nsys_db.runtime(db, t, t + 10000, i + 10, 1)
        nsys_db.kernel(db, t + 20000, t + 15 * M - 10000, i + 10, 2)
    db.commit()

nsys(d + "/cold.sqlite", 100)
nsys(d + "/warm.sqlite", 30)
PY

for f in pipe.json busy.json busycopy.json cold.sqlite warm.sqlite; do
    "$PR_BIN" -q --input "$T_DIR/$f" --json "$T_DIR/$f.s.json" 2> "$T_DIR/err" ||
        sed 's/^/# /' "$T_DIR/err"
done

# pipelined steps
check "pipelined: every device step 10 ms, the first one its host interval" \
    test "$(field "$T_DIR/pipe.json.s.json" "[s['duration_us'] for s in r['steps']]")" = "[10000, 10000, 10000, 10000]"
check "pipelined: mean step 10 ms on the device basis" \
    test "$(field "$T_DIR/pipe.json.s.json" "(r['step_summary']['mean_us'], r['step_summary']['basis'])")" = "(10000, 'device')"
check "pipelined: the first step's device work ends 7 ms past its host end" \
    test "$(field "$T_DIR/pipe.json.s.json" "r['step_summary']['first_step_backlog_us']")" = 7000
check "pipelined: the verdict's mean step is 10.0 ms" \
    test "$(field "$T_DIR/pipe.json.s.json" "'mean step 10.0 ms' in r['verdict']['text']")" = True

# a busy device under a host path
check "busy device: the path is mostly the host's" \
    test "$(field "$T_DIR/busy.json.s.json" "r['critical_path']['by_kind_us']['host_op'] > 0.8 * 25000")" = True
check "busy device: the step is bound by the device, not the host" \
    test "$(field "$T_DIR/busy.json.s.json" "(r['critical_path']['bound'], r['critical_path']['steps'][0]['bound'], r['verdict']['bound'])")" = "('device', 'device', 'device')"
check "busy device: the verdict says why (busy 95.8%, idle 4.2% at most)" \
    test "$(field "$T_DIR/busy.json.s.json" "r['verdict']['text'].startswith('Bound by device compute in 1 of 1 step') and 'The device is busy 95.8% of the steps' in r['verdict']['text'] and 'idle 4.2%' in r['verdict']['text']")" = True

check "busy device with a copy: the copies' part of the busy share named" \
    test "$(field "$T_DIR/busycopy.json.s.json" "'The device is busy 97.8% of the steps (of which copies and fills 2.0 points)' in r['verdict']['text'] and 'idle 2.2%' in r['verdict']['text']")" = True
check "busy device without copies: no copies' part" \
    test "$(field "$T_DIR/busy.json.s.json" "'of which copies' in r['verdict']['text']")" = False

# nsys cudaMalloc
check "nsys cold: 'runtime calls', never 'launches'" \
    test "$(field "$T_DIR/cold.sqlite.s.json" "'runtime calls 40%' in r['verdict']['text'] and 'launches' not in r['verdict']['text']")" = True
check "nsys cold: the cold-start sentence with the cold_step share (40%)" \
    test "$(field "$T_DIR/cold.sqlite.s.json" "'A cold start: first-use costs' in r['verdict']['text'] and 'without them the capture would be 40% shorter' in r['verdict']['text']")" = True
check "nsys warm: the cudaMalloc is 'runtime calls', no cold start under a quarter" \
    test "$(field "$T_DIR/warm.sqlite.s.json" "'runtime calls 17%' in r['verdict']['text'] and 'launches' not in r['verdict']['text'] and 'A cold start' not in r['verdict']['text']")" = True
# an export's views say where stacks come from, not torch.profiler's switch
check "nsys: the source view's note is the export's" \
    test "$(field "$T_DIR/cold.sqlite.s.json" "(r['source_view']['note'].startswith('The export gives no operator call stacks'), r['module_view']['note'].startswith('The export gives no module frames'))")" = "(True, True)"
check "kineto: the source view's note is torch.profiler's" \
    test "$(field "$T_DIR/busy.json.s.json" "r['source_view']['note'].startswith('The trace has no stacks')")" = True

if ! have_shared; then
    skip "shared samples" "no ../shared/traces"
    echo "1..$T_N"
    exit 0
fi
# tb_plugin's steps do not pipeline on the device: no backlog, its numbers
# as the plugin's (issue #29's done-when)
if shared_summary tb tb_plugin/resnet50_num_workers_0; then
    check "tb_resnet50: no pipelined first step" \
        test "$(field "$T_DIR/tb.json" "r['step_summary']['first_step_backlog_us']")" = None
else
    skip "tb_resnet50" "no tb_plugin/resnet50_num_workers_0"
fi
# HTA's trace_diff test rank: steps 1010-1014's device work starts before
# the previous step's ends; step 1009 read 156.6 ms (its host start to its
# device end, 57.1 ms past its host end), now its 100.3 ms host interval,
# starting 56.3 ms after the device work before it ended
if shared_summary dt hta/trace_diff/test/test.json.gz; then
    check "hta_diff_test: the first step is its host interval, the backlog named" \
        test "$(field "$T_DIR/dt.json" "(r['steps'][0]['duration_us'] == r['steps'][0]['host_duration_us'] == 100298, r['step_summary']['first_step_backlog_us'])")" = "(True, 56348)"
else
    skip "hta_diff_test" "no hta/trace_diff/test"
fi
echo "1..$T_N"
