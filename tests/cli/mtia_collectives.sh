#!/bin/sh
# mtia_collectives.sh - an MTIA run's collectives are named in MTIA's
# words, never NCCL's, HCCL's or an NPU's (issue #30 #4).  A task known as
# a collective by its metadata alone (Kineto's "Collective name" on an
# mtia_ccp_events task) was filed under backend "nccl" ("nccl:all_reduce"
# in the tables); it is "mtia" now.  The same trace with its tasks as
# CUDA kernels keeps "nccl".
#
# Hand-made: 3 steps of 1 ms on MTIA device 17, each a compute task and a
# 400 us all-reduce task of 4 MiB (c10d::allreduce_, record_param_comms).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "mtia collectives" "no python3"
    echo "1..$T_N"
    exit 0
fi

# trace FILE mtia|cuda
trace() {
    python3 - "$@" << 'PY'
import json, sys
mtia = sys.argv[2] == "mtia"
rt, cat = ("mtia_runtime", "mtia_ccp_events") if mtia else \
          ("cuda_runtime", "kernel")
dev = 17 if mtia else 0
def x(cat, name, pid, tid, ts, dur, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}
meta = {"Collective name": "allreduce", "In msg nelems": 1048576,
        "Out msg nelems": 1048576, "dtype": "Float", "Group size": 2,
        "Process Group Name": "0", "Process Group Description": "default_pg"}
ev, t, corr = [], 0, 50
for s in range(3):
    ev += [x("user_annotation", "ProfilerStep#%d" % s, 1, 1, t, 1000),
           x("cpu_op", "aten::linear", 1, 1, t + 5, 50,
             **{"External id": 10 * s + 1}),
           x(rt, "gif_merge" if mtia else "cudaLaunchKernel", 1, 1, t + 10,
             3, correlation=corr, device=dev, **{"External id": 10 * s + 1}),
           x(cat, "pe_exe", dev, 3774, t + 100, 300, stream=108,
             correlation=corr, device=dev)]
    corr += 1
    ev += [x("cpu_op", "c10d::allreduce_", 1, 1, t + 58, 54,
             **{"External id": 10 * s + 2}),
           x("cpu_op", "record_param_comms", 1, 1, t + 60, 50,
             **dict(meta, **{"External id": 10 * s + 2})),
           x(rt, "gif_merge" if mtia else "cudaLaunchKernel", 1, 1, t + 65,
             3, correlation=corr, device=dev, **{"External id": 10 * s + 2}),
           x(cat, "allreduce", dev, 3775, t + 400, 400, stream=109,
             correlation=corr, device=dev,
             **dict(meta, **{"External id": 10 * s + 2}))]
    corr += 1
    t += 1000
props = [{"id": 17, "name": "ARTEMIS"}] if mtia else \
        [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "computeMajor": 8,
          "computeMinor": 0, "numSms": 108, "totalGlobalMem": 85899345920}]
json.dump({"schemaVersion": 1, "deviceProperties": props,
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY
}

# facts SUMMARY: "<backends> <op names>"
facts() {
    python3 - "$1" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
ops = (r.get("communication") or {}).get("ops") or []
print(",".join(o["backend"] for o in ops) or "-",
      ",".join(o["name"] for o in ops) or "-")
PY
}

words() { # report -> its HTML's text
    python3 - "$1" << 'PY'
import html, re, sys
t = open(sys.argv[1]).read()
t = re.sub(r"<script.*?</script>|<style.*?</style>", "", t, flags=re.S)
print(html.unescape(re.sub(r"<[^>]+>", "\n", t)))
PY
}

trace "$T_DIR/mtia.json" mtia
"$PR_BIN" -q --input "$T_DIR/mtia.json" --json "$T_DIR/mtia.s.json" \
    --html "$T_DIR/mtia.html"
set -- $(facts "$T_DIR/mtia.s.json")
check "MTIA: the collective's backend is mtia ($1)" test "$1" = mtia
check "MTIA: its row is mtia:all_reduce ($2)" test "$2" = mtia:all_reduce
words "$T_DIR/mtia.html" > "$T_DIR/mtia.words"
check "MTIA: no NCCL, HCCL or NPU word in the report ($(grep -oiE 'nccl|hccl|\bnpu\b' "$T_DIR/mtia.words" | sort -u | tr '\n' ' '))" \
    sh -c "! grep -qiE 'nccl|hccl|\bnpu\b' '$T_DIR/mtia.words'"

trace "$T_DIR/cuda.json" cuda
"$PR_BIN" -q --input "$T_DIR/cuda.json" --json "$T_DIR/cuda.s.json"
set -- $(facts "$T_DIR/cuda.s.json")
check "CUDA: the same collective stays nccl ($1)" test "$1" = nccl
check "CUDA: its row is nccl:all_reduce ($2)" test "$2" = nccl:all_reduce
echo "1..$T_N"
