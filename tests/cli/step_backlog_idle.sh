#!/bin/sh
# step_backlog_idle.sh - review 30g #2: the first step starts at its first
# device work only when the device was busy for most of the wait between
# that work's launch and its start (a backlog of earlier work); on an idle
# device the step keeps its host start (HTA's trace_compare test fragment:
# a 100 ms ProfilerStep whose one kernel ran 57 ms after its launch on an
# idle device read as a 4 us device-bound step).  And a capture of a few
# tasks whose device steps are slivers of their host steps names no bound,
# whatever the path's bound.  Hand-made Kineto traces.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "first-step backlog" "python3 is needed"
    echo "1..$T_N"
    exit 0
fi

field() {
    python3 - "$1" "$2" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(eval(sys.argv[2]))
PY
}

python3 - "$T_DIR" << 'PY'
import json, sys
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

def launch(ev, corr, t, k0, dur, name="add_kernel"):
    ev.append(X("cuda_runtime", "cudaLaunchKernel", 7, 1, t, 5,
                correlation=corr))
    ev.append(X("kernel", name, 0, 7, k0, dur, correlation=corr,
                device=0, stream=7))

# idle: two 100 ms steps; each launches one 4 us kernel at +1 ms that
# runs 50 ms later on an idle device
ev = []
for k in range(2):
    b = k * 100 * ms
    ev.append(X("user_annotation", "ProfilerStep#%d" % k, 7, 1, b, 100 * ms))
    launch(ev, k + 1, b + 1 * ms, b + 51 * ms, 4)
kineto(d + "/idle.json", ev)

# backlog: the same, but a kernel launched before the capture keeps the
# device busy 1-60 ms, and the first step (10 ms on the host) is short
ev = [X("user_annotation", "ProfilerStep#0", 7, 1, 0, 10 * ms),
      X("user_annotation", "ProfilerStep#1", 7, 1, 10 * ms, 10 * ms),
      X("kernel", "earlier_kernel", 0, 7, 1 * ms, 59 * ms, correlation=99,
        device=0, stream=7)]
launch(ev, 1, 1 * ms, 60 * ms, 4)
launch(ev, 2, 11 * ms, 60.01 * ms, 4)
kineto(d + "/backlog.json", ev)
PY

for f in idle backlog; do
    "$PR_BIN" -q --input "$T_DIR/$f.json" --json "$T_DIR/$f.s.json" 2> "$T_DIR/err" ||
        sed 's/^/# /' "$T_DIR/err"
done

check "idle device: the first step keeps its host start (no backlog)" \
    test "$(field "$T_DIR/idle.s.json" "(r['steps'][0]['start_us'], r['step_summary']['first_step_backlog_us'])")" = "(0, None)"
check "idle device: both steps about 100 ms, not 4 us" \
    test "$(field "$T_DIR/idle.s.json" "[s['duration_us'] >= 100000 for s in r['steps']]")" = "[True, True]"
check "idle device: the verdict names no device bound" \
    test "$(field "$T_DIR/idle.s.json" "'Bound by device' in r['verdict']['text']")" = False
check "busy device: the first step starts after the earlier work (a backlog)" \
    test "$(field "$T_DIR/backlog.s.json" "r['step_summary']['first_step_backlog_us'] is not None and r['steps'][0]['start_us'] >= 60000")" = True
check "sliver steps of 3 tasks: no bound named, whatever the path's" \
    test "$(field "$T_DIR/backlog.s.json" "(r['verdict']['bound'], 'Too few tasks' in r['verdict']['text'])")" = "('unexplained', True)"
echo "1..$T_N"
