#!/bin/sh
# copy_bound_words.sh - a run whose HtoD copies keep the GPU busy most of
# its span gets the copy_bound finding, with the bytes the copies move,
# their GB/s against the host link, and pinned-memory advice only when
# the copies are pageable (issue #30 #2); no launch or utilization
# finding, and the verdict's bound is the copies.
#
# Hand-made A100 trace: 4 steps of 10 ms, each a 64 MiB HtoD copy of 8 ms
# (cudaMemcpyAsync, 8.4 GB/s, 27% of PCIe 4.0 x16) and one 1 ms sgemm.
# Pageable copies get pin_memory advice; the same copies from pinned
# memory are said to be pinned already and get no pin_memory advice.
# The same copies read back (DtoH, issue #29 #1) go into host memory, not
# from it, and get read-back advice (keep the values on the GPU, a
# preallocated pinned buffer), never the DataLoader's pinning or smaller
# inputs, in copy_bound and in pageable_copies alike.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "copy_bound words" "no python3"
    echo "1..$T_N"
    exit 0
fi

# trace FILE pageable|pinned [dtoh]
trace() {
    python3 - "$@" << 'PY'
import json, sys
kind = "Pinned" if sys.argv[2] == "pinned" else "Pageable"
dtoh = len(sys.argv) > 3
def x(cat, name, pid, tid, ts, dur, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}
ev, corr, t, MB = [], 1, 0, 1 << 20
for s in range(4):
    ev += [x("user_annotation", "ProfilerStep#%d" % s, 1, 1, t, 10000),
           x("cpu_op", "aten::to", 1, 1, t + 10, 8200,
             **{"External id": corr}),
           x("cpu_op", "aten::copy_", 1, 1, t + 20, 8180,
             **{"External id": corr}),
           x("cuda_runtime", "cudaMemcpyAsync", 1, 1, t + 30, 8150,
             correlation=corr, **{"External id": corr}),
           x("gpu_memcpy", ("Memcpy DtoH (Device -> %s)" if dtoh else
                             "Memcpy HtoD (%s -> Device)") % kind, 0, 7,
             t + 100, 8000, device=0, stream=7, correlation=corr,
             bytes=64 * MB, **{"memory bandwidth (GB/s)": 8.389,
                               "External id": corr})]
    corr += 1
    ev += [x("cpu_op", "aten::mm", 1, 1, t + 8300, 50,
             **{"External id": corr, "Input Dims": [[256, 256], [256, 256]],
                "Input type": ["float", "float"]}),
           x("cuda_runtime", "cudaLaunchKernel", 1, 1, t + 8310, 10,
             correlation=corr, **{"External id": corr}),
           x("kernel", "volta_sgemm_128x64_nn", 0, 7, t + 8400, 1000,
             device=0, stream=7, correlation=corr, grid=[4, 4, 1],
             block=[256, 1, 1], **{"External id": corr}),
           x("cuda_runtime", "cudaStreamSynchronize", 1, 1, t + 8400, 1050,
             correlation=corr + 1)]
    corr += 2
    t += 10000
props = {"id": 0, "name": "NVIDIA A100-SXM4-80GB",
         "totalGlobalMem": 85899345920, "computeMajor": 8, "computeMinor": 0,
         "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
         "regsPerBlock": 65536, "regsPerMultiprocessor": 65536,
         "warpSize": 32, "sharedMemPerBlock": 49152,
         "sharedMemPerMultiprocessor": 167936, "numSms": 108}
json.dump({"schemaVersion": 1, "deviceProperties": [props],
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY
}

# facts SUMMARY: "<copy_bound> <bytes> <GB/s and link> <pin advice>
# <pinned already> <launch or utilization finding> <verdict bound>"
facts() {
    python3 - "$1" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
f = {x["id"]: x["text"] for x in r["recommendations"] +
     r.get("observations", [])}
t = f.get("copy_bound", "")
print("copy_bound" in f, "moves 268.4 MB in 32.0 ms" in t,
      "at 8.4 GB/s (27% of the PCIe 4.0 x16 link" in t,
      "pin_memory=True" in t, "pinned already" in t,
      any(k in f for k in ("launch_bound", "low_gpu_utilization",
                           "scalar_bound")),
      r["verdict"].get("bound"))
PY
}

trace "$T_DIR/pageable.json" pageable
"$PR_BIN" -q --input "$T_DIR/pageable.json" --json "$T_DIR/pageable.s.json"
set -- $(facts "$T_DIR/pageable.s.json")
check "pageable: copy_bound finding" test "$1" = True
check "pageable: it says the bytes the copies move" test "$2" = True
check "pageable: their GB/s against the host link" test "$3" = True
check "pageable: pinned-memory advice" test "$4" = True
check "pageable: not said to be pinned" test "$5" = False
check "pageable: no launch or utilization finding" test "$6" = False
check "pageable: the verdict is bound by copies ($7)" test "$7" = copy

trace "$T_DIR/pinned.json" pinned
"$PR_BIN" -q --input "$T_DIR/pinned.json" --json "$T_DIR/pinned.s.json"
set -- $(facts "$T_DIR/pinned.s.json")
check "pinned: copy_bound finding" test "$1" = True
check "pinned: it says the bytes the copies move" test "$2" = True
check "pinned: no pin_memory advice" test "$4" = False
check "pinned: said to be pinned already" test "$5" = True
check "pinned: the verdict is bound by copies ($7)" test "$7" = copy

# words SUMMARY ID: a finding's text checks, "<present> <into> <from>
# <loader pinning advised> <uint8> <read-back advice> <pinned buffer>"
words() {
    python3 - "$1" "$2" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
f = {x["id"]: x["text"] for x in r["recommendations"] +
     r.get("observations", [])}
t = f.get(sys.argv[2], "").lower()
print(sys.argv[2] in f, "into pageable" in t, "from pageable" in t,
      "pin_memory=true) or" in t, "uint8" in t,
      "keep the values on the gpu and read them back less often" in t,
      "preallocated pinned buffer with non_blocking=true" in t)
PY
}

trace "$T_DIR/dtoh.json" pageable dtoh
"$PR_BIN" -q --input "$T_DIR/dtoh.json" --json "$T_DIR/dtoh.s.json"
set -- $(words "$T_DIR/dtoh.s.json" copy_bound)
check "dtoh: copy_bound finding" test "$1" = True
check "dtoh: copies into pageable memory" test "$2" = True
check "dtoh: not from pageable memory" test "$3" = False
check "dtoh: no DataLoader pinning advice" test "$4" = False
check "dtoh: no smaller-input advice" test "$5" = False
check "dtoh: keep values on the GPU, read back less" test "$6" = True
check "dtoh: or a preallocated pinned buffer" test "$7" = True
set -- $(words "$T_DIR/dtoh.s.json" pageable_copies)
check "dtoh: pageable_copies finding" test "$1" = True
check "dtoh: pageable_copies says into pageable memory" test "$2" = True
check "dtoh: pageable_copies gives no DataLoader pinning" test "$4" = False
check "dtoh: pageable_copies: keep values, read back less" test "$6" = True
check "dtoh: pageable_copies: or a preallocated pinned buffer" \
    test "$7" = True
set -- $(words "$T_DIR/pageable.s.json" pageable_copies)
check "htod: pageable_copies finding" test "$1" = True
check "htod: pageable_copies gives DataLoader pinning" test "$4" = True
check "htod: pageable_copies gives no read-back advice" test "$6" = False
echo "1..$T_N"
