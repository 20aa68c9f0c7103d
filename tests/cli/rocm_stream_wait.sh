#!/bin/sh
# rocm_stream_wait.sh - issue #28 item 6: a ROCm trace records
# hipStreamWaitEvent on the host only (the MI300X resnet trace of
# TraceLens: 24 calls with a correlation id and no device-side wait
# record), so the path cannot link the wait to a stream.  A task that
# starts long after its launch, launched right after such a wait call, is
# not said to have "no recorded cause (no stream wait or event ...)": the
# note names the unlinked wait.  Without the wait call the note keeps its
# words.  Hand-made MI300X traces, three steps: kernel_A on stream 7
# [10, 510) us; hipEventRecord, hipStreamWaitEvent, then kernel_B launched
# at 13 us on stream 9, starting at 560 us.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "rocm stream wait" "no python3"
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
MI300X = [{"id": 0, "name": "AMD Instinct MI300X", "computeMajor": 9,
           "computeMinor": 4, "warpSize": 64, "numSms": 304,
           "gcnArchName": "gfx942:sramecc+:xnack-"}]
# "late": kernel_B starts at 3000 us, 1 ms and more after its launch, in
# steps of 3.4 ms that a sync call covers, beside 40 short kernels: the
# device idles most of the path
for case, wait in (("wait", True), ("nowait", False), ("late", True)):
    late = case == "late"
    ev = []
    for s in range(3):
        b, c = s * 10000, s * 10
        ev += [X("user_annotation", "ProfilerStep#%d" % s, b,
                 3400 if late else 9000),
               X("cpu_op", "aten::foo", b + 1, 10),
               X("cuda_runtime", "hipLaunchKernel", b + 2, 5, correlation=c + 1),
               K("kernel_A", b + 10, 500, c + 1, 7)]
        if wait:
            ev += [X("cuda_runtime", "hipEventRecord", b + 8, 2, correlation=c + 2),
                   X("cuda_runtime", "hipStreamWaitEvent", b + 11, 1,
                     correlation=c + 3)]
        if late:
            for i in range(40):
                ev += [X("cuda_runtime", "hipLaunchKernel", b + 3 + i * 0.01,
                         0.005, correlation=1000 * (s + 1) + i),
                       K("kernel_small", b + 100 + i * 10, 5,
                         1000 * (s + 1) + i, 11)]
        ev += [X("cpu_op", "aten::bar", b + 12, 10),
               X("cuda_runtime", "hipLaunchKernel", b + 13, 5, correlation=c + 4),
               K("kernel_B", b + (3000 if late else 560), 300, c + 4, 9),
               X("cuda_runtime", "hipStreamSynchronize", b + 20,
                 3290 if late else 850, correlation=c + 5)]
    json.dump({"deviceProperties": MI300X, "traceEvents": ev},
              open("%s/%s.pt.trace.json" % (d, case), "w"))
PY
note() {
    python3 -c "
import json, sys
print(json.load(open(sys.argv[1]))['runs'][0]['critical_path']['launch_wait_note'] or '')" "$1"
}
for c in wait nowait late; do
    "$PR_BIN" -q --input "$T_DIR/$c.pt.trace.json" --json "$T_DIR/$c.json" \
        2> "$T_DIR/err"
    check "$c: summary written (exit $?; $(head -c 200 "$T_DIR/err"))" \
        [ -s "$T_DIR/$c.json" ]
done
note "$T_DIR/wait.json" > "$T_DIR/w.txt"
check "after an unlinked hipStreamWaitEvent: the note names it ($(cat "$T_DIR/w.txt"))" \
    sh -c "grep -q 'kernel_B on stream 9): just before the longest.s launch (no launch between) the launching thread made a stream-wait call that no device record links to a stream' '$T_DIR/w.txt' && ! grep -q 'records no cause' '$T_DIR/w.txt'"
note "$T_DIR/nowait.json" > "$T_DIR/n.txt"
check "no wait call: no recorded cause, as before ($(cat "$T_DIR/n.txt"))" \
    grep -q 'kernel_B on stream 9): the trace records no cause (no stream wait or event' "$T_DIR/n.txt"

python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
print(r['critical_path']['launch_wait_note'] or '')
print(r['verdict']['text'])" "$T_DIR/late.json" > "$T_DIR/l.txt"
check "a late start after the unlinked wait: the note and the idle verdict name it, not 'no recorded cause' ($(cat "$T_DIR/l.txt"))" \
    sh -c "grep -q 'made a stream-wait call that no device record links to a stream' '$T_DIR/l.txt' && grep -q '^The device is idle 88% of the critical path (mean step 3.4 ms; on the path: idle 88%, kernels 9%), and the trace links the longest wait to no stream' '$T_DIR/l.txt' && ! grep -q 'no recorded cause\|records no cause' '$T_DIR/l.txt'"

echo "1..$T_N"
