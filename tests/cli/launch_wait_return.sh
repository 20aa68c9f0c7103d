#!/bin/sh
# launch_wait_return.sh - the critical path's launch-wait note (data
# quality launch_wait_unexplained: "waited 50 us or more after its
# launch") measures a task's wait from its launch call's return, as the
# host-wait figures do: the call's own time is the host's (issue #29 #4:
# nsys_mock's cudaMemcpyAsync held the host 589.5 us and its copy started
# 20.4 us after the call returned, "the longest 610 us, Memcpy DtoH").
#
# Hand-made A100 traces, three steps each: kernel_A on stream 7 [10, 60)
# us, then on stream 9 (nothing before it):
#   copy:   a cudaMemcpyAsync at 13 us that lasts 590 us, its pinned DtoH
#           copy starting 20 us after the call returned: no note.
#   kernel: a cudaLaunchKernel at 13 us of 5 us whose kernel_B starts at
#           218 us, 200 us after the call returned: the note gives 200 us
#           as the longest (205 us from the call's start).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "launch wait from return" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def K(cat, name, ts, dur, corr, stream, **a):
    return X(cat, name, ts, dur, pid=0, tid=stream, correlation=corr,
             device=0, stream=stream, **a)
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108, "totalGlobalMem": 85899345920,
         "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
         "regsPerBlock": 65536, "regsPerMultiprocessor": 65536,
         "warpSize": 32, "sharedMemPerBlock": 49152,
         "sharedMemPerMultiprocessor": 167936}]
for case in ("copy", "kernel"):
    ev = []
    for s in range(3):
        b, c = s * 10000, s * 10
        ev += [X("user_annotation", "ProfilerStep#%d" % s, b, 9000),
               X("cpu_op", "aten::foo", b + 1, 10),
               X("cuda_runtime", "cudaLaunchKernel", b + 2, 5,
                 correlation=c + 1),
               K("kernel", "kernel_A", b + 10, 50, c + 1, 7)]
        if case == "copy":
            ev += [X("cpu_op", "aten::copy_", b + 12, 600),
                   X("cuda_runtime", "cudaMemcpyAsync", b + 13, 590,
                     correlation=c + 4),
                   K("gpu_memcpy", "Memcpy DtoH (Device -> Pinned)",
                     b + 623, 100, c + 4, 9, bytes=1 << 20)]
        else:
            ev += [X("cpu_op", "aten::bar", b + 12, 10),
                   X("cuda_runtime", "cudaLaunchKernel", b + 13, 5,
                     correlation=c + 4),
                   K("kernel", "kernel_B", b + 218, 300, c + 4, 9)]
        # the sync waits for the stream-9 task: it is on the path
        at = b + (605 if case == "copy" else 20)
        ev += [X("cuda_runtime", "cudaDeviceSynchronize", at,
                 (b + (725 if case == "copy" else 520)) - at,
                 correlation=c + 5)]
    json.dump({"deviceProperties": A100, "traceEvents": ev},
              open("%s/%s.pt.trace.json" % (d, case), "w"))
PY
note() {
    python3 -c "
import json, sys
print(json.load(open(sys.argv[1]))['runs'][0]['critical_path']['launch_wait_note'] or '')" "$1"
}
for c in copy kernel; do
    "$PR_BIN" -q --input "$T_DIR/$c.pt.trace.json" --json "$T_DIR/$c.json" \
        2> "$T_DIR/err"
    check "$c: summary written (exit $?; $(head -c 200 "$T_DIR/err"))" \
        [ -s "$T_DIR/$c.json" ]
done
note "$T_DIR/copy.json" > "$T_DIR/c.txt"
check "copy 20 us after its call returned: no launch-wait note ($(cat "$T_DIR/c.txt"))" \
    sh -c '! grep -q "or more after" "$1"' _ "$T_DIR/c.txt"
note "$T_DIR/kernel.json" > "$T_DIR/k.txt"
check "kernel 200 us after its call returned: noted ($(cat "$T_DIR/k.txt"))" \
    grep -q "waited 50 [^ ]*s or more after" "$T_DIR/k.txt"
check "the longest is 200 us, from the return, not 205" \
    grep -q "the longest 200 [^ ]*s, kernel_B on stream 9" "$T_DIR/k.txt"
echo "1..$T_N"
