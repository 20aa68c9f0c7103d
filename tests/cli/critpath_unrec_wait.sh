#!/bin/sh
# critpath_unrec_wait.sh - a task idle after the task before it on its
# stream, launched right after a cudaStreamWaitEvent whose event record
# the trace does not hold, while another stream of the device ran, waited
# for that stream: the critical path books the gap as a stream wait, "its
# event not recorded", not as device idle (review of issue #28 (1):
# DeepSeek's H800 trace, 56 cudaStreamWaitEvent and no cudaEventRecord,
# read 6.3 ms of "device idle" in a step whose device is idle 42 us).
#
# Hand-made A100 trace, two steps: P [5, 105) us on stream 8, A [10, 1010)
# on stream 7; then a cudaStreamWaitEvent and the launch of B on stream 8,
# which starts at 1012; a cudaDeviceSynchronize waits for B.  Controls:
# without the stream-wait call (idle, named a stream idle while another
# ran), and with A on stream 7 ending at 300 (the device idle for most of
# the gap: device idle).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "critpath unrecorded stream wait" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def K(name, ts, dur, corr, stream):
    return X("kernel", name, ts, dur, pid=0, tid=stream, correlation=corr,
             device=0, stream=stream)
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108, "totalGlobalMem": 85899345920,
         "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
         "regsPerBlock": 65536, "regsPerMultiprocessor": 65536,
         "warpSize": 32, "sharedMemPerBlock": 49152,
         "sharedMemPerMultiprocessor": 167936}]
def trace(wait, a_dur):
    ev = []
    for s in range(2):
        b, c = s * 10000, s * 10
        ev += [X("user_annotation", "ProfilerStep#%d" % s, b, 1100),
               X("cuda_runtime", "cudaLaunchKernel", b + 1, 3,
                 correlation=c + 1),
               K("kernel_P", b + 5, 100, c + 1, 8),
               X("cuda_runtime", "cudaLaunchKernel", b + 6, 3,
                 correlation=c + 2),
               K("kernel_A", b + 10, a_dur, c + 2, 7)]
        if wait:
            ev.append(X("cuda_runtime", "cudaStreamWaitEvent", b + 12, 2,
                        correlation=c + 3))
        ev += [X("cuda_runtime", "cudaLaunchKernel", b + 15, 3,
                 correlation=c + 4),
               K("kernel_B", b + 1012, 50, c + 4, 8),
               X("cuda_runtime", "cudaDeviceSynchronize", b + 20, 1045,
                 correlation=c + 5)]
    return {"deviceProperties": A100, "traceEvents": ev}
for tag, wait, a_dur in (("wait", 1, 1000), ("nowait", 0, 1000),
                         ("idle", 1, 290)):
    json.dump(trace(wait, a_dur), open("%s/%s.pt.trace.json" % (d, tag), "w"))
PY
for t in wait nowait idle; do
    "$PR_BIN" -q --input "$T_DIR/$t.pt.trace.json" --json "$T_DIR/$t.json" \
        2> "$T_DIR/$t.err"
    check "$t: summary written ($(head -c 200 "$T_DIR/$t.err"))" \
        [ -s "$T_DIR/$t.json" ]
    python3 -c "
import json, sys
cp = json.load(open(sys.argv[1]))['runs'][0]['critical_path']
k = cp['steps'][0]['by_kind_us']
print(round(k['stream_wait']), round(k['idle']))
for p in cp['steps'][0]['top']:
    print(p['kind'], p['name'], round(p['us']))
" "$T_DIR/$t.json" > "$T_DIR/$t.txt" 2>> "$T_DIR/err"
done
check "paths read ($(head -c 200 "$T_DIR/err"))" [ -s "$T_DIR/idle.txt" ]
# B waits 1012 - 105 = 907 us after P
set -- $(head -1 "$T_DIR/wait.txt")
check "wait: the gap is a stream wait (stream_wait ${1:-?}, idle ${2:-?})" \
    [ "${1:-0}" -ge 900 -a "${2:-9}" -le 5 ]
check "wait: named for the event the trace does not record" \
    grep -q "^stream_wait (stream waits for another stream, its event not recorded) 90[0-9]$" "$T_DIR/wait.txt"
set -- $(head -1 "$T_DIR/nowait.txt")
check "nowait: no stream-wait call, the gap stays idle (idle ${2:-?})" \
    [ "${2:-0}" -ge 900 -a "${1:-9}" -le 5 ]
check "nowait: named a stream idle while other streams ran" \
    grep -q "^idle (stream idle, no recorded cause; other streams ran) 907$" "$T_DIR/nowait.txt"
set -- $(head -1 "$T_DIR/idle.txt")
check "idle: the other stream ran under half the gap, it stays idle (idle ${2:-?})" \
    [ "${2:-0}" -ge 900 -a "${1:-9}" -le 5 ]
check "idle: named device idle" \
    grep -q "^idle (device idle, no recorded cause) 907$" "$T_DIR/idle.txt"
echo "1..$T_N"
