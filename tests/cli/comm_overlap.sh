#!/bin/sh
# comm_overlap.sh - review 13 #12: each worker's share of communication
# time that computation overlaps, HTA's get_comm_comp_overlap (overlap /
# (overlap + communication)), beside the TensorBoard split.  A hand-made
# step: a 400 us GEMM and a 200 us all-reduce that overlaps its last 100
# us, so half the communication is overlapped; the shared hta nccl trace
# gives 15.6% (7.32 of 46.88 ms, recomputed from its kernels in review 13).
. "$PR_SRCDIR/tests/lib.sh"

python3 - "$T_DIR/o.pt.trace.json" << 'PY'
import json, sys
ev = []
def X(cat, name, ts, dur, tid=1, pid=1, **args):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
               "ts": ts, "dur": dur, "args": args})
X("user_annotation", "ProfilerStep#1", 0, 1000)
X("cpu_op", "aten::mm", 10, 20, **{"External id": 1})
X("cuda_runtime", "cudaLaunchKernel", 12, 5, **{"External id": 1, "correlation": 1})
X("kernel", "ampere_sgemm_128x64_nn", 100, 400, tid=7, pid=0,
  **{"External id": 1, "correlation": 1, "device": 0, "stream": 7})
X("cpu_op", "c10d::allreduce_", 40, 20, **{"External id": 2})
X("cuda_runtime", "cudaLaunchKernel", 42, 5, **{"External id": 2, "correlation": 2})
X("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
  400, 200, tid=9, pid=0,
  **{"External id": 2, "correlation": 2, "device": 0, "stream": 9})
json.dump({"schemaVersion": 1,
           "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 1},
           "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB",
                                 "totalGlobalMem": 85097971712,
                                 "computeMajor": 8, "computeMinor": 0,
                                 "numSms": 108}],
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q -i "$T_DIR/o.pt.trace.json" --json "$T_DIR/o.json" \
    --html "$T_DIR/o.html" 2> "$T_DIR/o.err" || sed 's/^/# /' "$T_DIR/o.err"
check "half the all-reduce overlapped: comm_overlap_pct 50" \
    python3 -c "
import json, sys
w = json.load(open(sys.argv[1]))['distributed']['workers'][0]
assert abs(w['overlap_us'] - 100) < 1e-6, w
assert abs(w['communication_us'] - 100) < 1e-6, w
assert abs(w['comm_overlap_pct'] - 50) < 1e-9, w
" "$T_DIR/o.json"
check "  the HTML's worker table shows it" \
    sh -c "grep -q 'Comm. overlapped' '$T_DIR/o.html'"

NC=hta/nccl_parser_config
if [ -e "$PR_SHARED/traces/$NC" ]; then
    "$PR_BIN" -q -i "$PR_SHARED/traces/$NC" --json "$T_DIR/n.json" \
        2> "$T_DIR/n.err"
    check "hta nccl: 15.6% of the communication overlapped, as HTA computes" \
        python3 -c "
import json, sys
w = json.load(open(sys.argv[1]))['distributed']['workers'][0]
assert abs(w['comm_overlap_pct'] - 15.61) < 0.01, w
" "$T_DIR/n.json"
else
    skip "hta nccl overlap share" "no $NC"
fi
# review 14 #2: a CPU-only gloo run records no computation: no share (not
# 0%); an Ascend rank's share is its step table's, in the Ranks table
CO=hta/cpu_only
T1=torch_npu/text_level1
if [ -e "$PR_SHARED/traces/$CO" ] && [ -e "$PR_SHARED/traces/$T1" ]; then
    "$PR_BIN" -q -i "$PR_SHARED/traces/$CO" --json "$T_DIR/c.json" \
        2> "$T_DIR/c.err"
    "$PR_BIN" -q -i "$PR_SHARED/traces/$T1" --json "$T_DIR/t.json" \
        --html "$T_DIR/t.html" 2> "$T_DIR/t.err"
    check "hta cpu_only: no computation recorded, comm_overlap_pct null" \
        python3 -c "
import json, sys
w = json.load(open(sys.argv[1]))['distributed']['workers']
assert w and all(x['comm_overlap_pct'] is None for x in w), w
w = json.load(open(sys.argv[2]))['distributed']['workers']
for x in w:
    want = 100 * x['overlap_us'] / (x['overlap_us'] + x['communication_us'])
    assert abs(x['comm_overlap_pct'] - want) < 1e-9, x
" "$T_DIR/c.json" "$T_DIR/t.json"
    check "  torch_npu text_level1: the Ranks table shows HCCL overlapped" \
        grep -q 'HCCL overlapped' "$T_DIR/t.html"
else
    skip "cpu_only and text_level1 overlap shares" "no $CO or $T1"
fi
echo "1..$T_N"
