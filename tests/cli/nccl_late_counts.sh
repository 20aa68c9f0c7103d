#!/bin/sh
# nccl_late_counts.sh - the NCCL late-rank note names the collectives it
# paired with each one's calls, the most first (review s20, issue #29:
# nsys mfu_2gpu_before's "(send_recv, all_to_all)" stood for 1 send_recv
# and 32 all_to_all calls; now "(32 all_to_all, 1 send_recv)").
# Hand-made: two Kineto ranks on one clock, 8 all-reduces and 2
# send/recvs a rank; rank 1 runs 300 us more work before each, so it
# enters each 300 us late and both end together.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "NCCL late-rank counts" "no python3"
    echo "1..$T_N"
    exit 0
fi
cat > "$T_DIR/kin.py" << 'PY'
import json, sys
out, rank = sys.argv[1], int(sys.argv[2])
AR = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
SR = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 1000000, "dur": 20000, "args": {}}]
t = 1000000
for i in range(10):
    work = 1000 + 300 * rank
    ev.append({"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0,
               "tid": 7, "ts": t + 20, "dur": work, "args": {"device": 0}})
    ev.append({"ph": "X", "cat": "kernel", "name": SR if i in (3, 7) else AR,
               "pid": 0, "tid": 8, "ts": t + 20 + work,
               "dur": 1720 - 20 - work, "args": {"device": 0}})
    t += 2000
json.dump({"distributedInfo": {"backend": "nccl", "rank": rank,
                               "world_size": 2},
           "traceEvents": ev}, open(out, "w"))
PY
mkdir -p "$T_DIR/one"
python3 "$T_DIR/kin.py" "$T_DIR/one/r0.json" 0
python3 "$T_DIR/kin.py" "$T_DIR/one/r1.json" 1
"$PR_BIN" -q --input "$T_DIR/one" --json "$T_DIR/one.json"
check "the late-rank note counts each collective's calls, the most first" \
    python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))['job']
assert j['late_rank'] == 1, j['late_rank']
t = j['late_rank_note']
assert 'in 10 of the 10 calls (8 all_reduce, 2 send_recv) that the 2 ranks' in t, t
" "$T_DIR/one.json"
echo "1..$T_N"
