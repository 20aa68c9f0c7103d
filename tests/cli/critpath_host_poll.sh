#!/bin/sh
# critpath_host_poll.sh - issue #28 (1): a host wait that no call records,
# spinning on a counter a kernel writes (DeepEP's normal-mode dispatch:
# notify_dispatch, then moe_recv_counter read in a loop; the kernel
# table's "host_polls"), is no host work: the critical path runs through
# the kernel and host_poll_note says so.  A held-out H800 trace
# (DeepSeek's profile-data train.json) booked four such waits, 66 ms of a
# 130 ms step, as host work (78% of its path).
#
# Hand-made H100 trace, two steps: a GEMM [10, 1510) us on stream 7, then
# notify_dispatch launched at 20 us runs [1512, 2512); the host records
# nothing from 26 us and resumes at 2480 (32 us before the kernel ends)
# with aten::empty and a launch of an add on stream 9, which a
# cudaDeviceSynchronize waits for.  Controls: the same with a kernel of no
# host_polls rule, and with the host resuming at 1400 us, before the
# kernel started (it cannot have read a counter the kernel writes).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "critpath host poll" "no python3"
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
H100 = [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "computeMajor": 9,
         "computeMinor": 0, "numSms": 132, "totalGlobalMem": 85520809984,
         "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
         "regsPerBlock": 65536, "regsPerMultiprocessor": 65536,
         "warpSize": 32, "sharedMemPerBlock": 49152,
         "sharedMemPerMultiprocessor": 233472}]
NOTIFY = ("void deep_ep::internode::notify_dispatch<false, 8>(int const*, "
          "int*, int, int const*, int*, int, int, int, bool const*, int*, "
          "int*, int, int, void**, int**, int)")
GEMM = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64"
def trace(name, resume):
    ev = []
    for s in range(2):
        b, c = s * 10000, s * 10
        ev += [X("user_annotation", "ProfilerStep#%d" % s, b, resume + 50),
               X("cpu_op", "aten::mm", b + 2, 8),
               X("cuda_runtime", "cudaLaunchKernel", b + 3, 5,
                 correlation=c + 1),
               K("kernel", GEMM, b + 10, 1500, c + 1, 7),
               X("user_annotation", "dispatch(F)", b + 15, resume + 40 - 15),
               X("cuda_runtime", "cudaLaunchKernelExC", b + 20, 6,
                 correlation=c + 2),
               K("kernel", name, b + 1512, 1000, c + 2, 7),
               X("cpu_op", "aten::empty", b + resume, 4),
               X("cpu_op", "aten::add", b + resume + 10, 8),
               X("cuda_runtime", "cudaLaunchKernel", b + resume + 12, 5,
                 correlation=c + 3),
               K("kernel", "void at::native::vectorized_elementwise_kernel"
                 "<4, at::native::CUDAFunctor_add<float>>()",
                 b + resume + 20, 20, c + 3, 9),
               X("cuda_runtime", "cudaDeviceSynchronize", b + resume + 18,
                 27, correlation=c + 4)]
    return {"deviceProperties": H100, "traceEvents": ev}
for tag, name, resume in (("poll", NOTIFY, 2480),
                          ("nopoll", "void my_lib::notify_kernel<8>(int*)",
                           2480),
                          ("early", NOTIFY, 1400)):
    json.dump(trace(name, resume), open("%s/%s.pt.trace.json" % (d, tag), "w"))
PY
for t in poll nopoll early; do
    "$PR_BIN" -q --input "$T_DIR/$t.pt.trace.json" --json "$T_DIR/$t.json" \
        --html "$T_DIR/$t.html" 2> "$T_DIR/$t.err"
    check "$t: summary written (exit $?; $(head -c 200 "$T_DIR/$t.err"))" \
        [ -s "$T_DIR/$t.json" ]
done
read_cp() {
    python3 -c "
import json, sys
cp = json.load(open(sys.argv[1]))['runs'][0]['critical_path']
k = cp['by_kind_us']
print(round(k['host_op']), round(k['communication']), round(k['kernel']),
      cp['host_poll_us'] if cp['host_poll_us'] is None
      else round(cp['host_poll_us']), cp['host_poll_note'] is not None,
      round(cp['replay_error_pct'], 3))
print(cp['host_poll_note'])
" "$1"
}
read_cp "$T_DIR/poll.json" > "$T_DIR/poll.txt" 2> "$T_DIR/err"
read_cp "$T_DIR/nopoll.json" > "$T_DIR/nopoll.txt" 2>> "$T_DIR/err"
read_cp "$T_DIR/early.json" > "$T_DIR/early.txt" 2>> "$T_DIR/err"
check "paths read ($(head -c 200 "$T_DIR/err"))" \
    [ -s "$T_DIR/poll.txt" -a -s "$T_DIR/nopoll.txt" -a -s "$T_DIR/early.txt" ]
# the wait [26, 2480) us is 2454 us a step; the path runs GEMM (1500) ->
# notify_dispatch (1000, communication) -> the host from 2480
set -- $(head -1 "$T_DIR/poll.txt")
check "poll: the wait is no host work (host_op ${1:-?} us < 100)" \
    [ "${1:-9999}" -lt 100 ]
check "poll: notify_dispatch is on the path as communication (${2:-?} us)" \
    [ "${2:-0}" -ge 960 -a "${2:-0}" -le 1000 ]
check "poll: host_poll_us is the wait, 2454 us a step (${4:-?})" \
    [ "${4:-0}" = 2454 ]
check "poll: the replay reproduces the steps (${6:-?}%)" [ "${6:-1}" = 0 ]
check "poll: the note names the kernel, DeepEP and the rule" \
    sh -c 'grep -q "notify_dispatch" "$1" && grep -q "DeepEP" "$1" &&
           grep -q "deepep.notify" "$1"' _ "$T_DIR/poll.txt"
check "poll: the HTML's critical path part shows the note" \
    grep -q "until a kernel it launched writes a counter" "$T_DIR/poll.html"
# controls: a kernel no rule says is polled, or a resume 400 us before
# the kernel's end, is host time as recorded
set -- $(head -1 "$T_DIR/nopoll.txt")
check "nopoll: no note, the gap stays host work (host_op ${1:-?} us)" \
    [ "${5:-}" = False -a "${1:-0}" -ge 2400 ]
set -- $(head -1 "$T_DIR/early.txt")
check "early: no note when the host resumes before the kernel starts (${4:-?})" \
    [ "${5:-}" = False -a "${4:-}" = None ]
echo "1..$T_N"
