#!/bin/sh
# nccl_kernel_coll.sh - issue #28: an NCCL kernel's collective in
# communication.kernel_times (and so in job.late_rank_note's "(...)") is
# the one of the host op that launched it: PyTorch's all-to-all runs as
# NCCL's grouped sends and receives, one ncclDevKernel_SendRecv, under an
# nccl:all_to_all range (nsys_before's 32 of 33 per rank read "send_recv").
# A SendRecv kernel no host collective launched stays point-to-point
# (send_recv); NCCL's AllGatherV kernels (src/device/generate.py) are an
# all-gather.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "kernel collectives" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR/t.json" << 'PY'
import json, sys
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 2000, "args": {}}]
K = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned long)4096>)"
for i in range(3):
    t = 10 + i * 300
    ev.append({"ph": "X", "cat": "user_annotation", "name": "nccl:all_to_all",
               "pid": 1, "tid": 1, "ts": t, "dur": 20,
               "args": {"External id": 100 + i}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
               "pid": 1, "tid": 1, "ts": t + 2, "dur": 5,
               "args": {"correlation": 10 + i, "External id": 100 + i}})
    ev.append({"ph": "X", "cat": "kernel", "name": K,
               "pid": 0, "tid": 7, "ts": t + 30, "dur": 100,
               "args": {"correlation": 10 + i, "External id": 100 + i,
                        "device": 0, "stream": 7}})
# a SendRecv kernel launched outside any host collective
ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
           "pid": 1, "tid": 1, "ts": 1000, "dur": 5,
           "args": {"correlation": 50}})
ev.append({"ph": "X", "cat": "kernel", "name": K, "pid": 0, "tid": 7,
           "ts": 1030, "dur": 100,
           "args": {"correlation": 50, "device": 0, "stream": 7}})
ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
           "pid": 1, "tid": 1, "ts": 1300, "dur": 5,
           "args": {"correlation": 51}})
ev.append({"ph": "X", "cat": "kernel",
           "name": "ncclDevKernel_AllGatherV_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>)",
           "pid": 0, "tid": 7, "ts": 1330, "dur": 100,
           "args": {"correlation": 51, "device": 0, "stream": 7}})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q --input "$T_DIR/t.json" --json "$T_DIR/s.json"
check "the summary is written" [ $? -eq 0 ]
check "kernel_times: all_to_all x3 (the host op's), send_recv x1, all_gather x1" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
g = {x['name']: len(x['start_us'])
     for x in r['communication']['kernel_times']['groups']}
assert g == {'all_to_all': 3, 'send_recv': 1, 'all_gather': 1}, g
ops = {o['name']: o['calls'] for o in r['communication']['ops']}
assert ops.get('nccl:all_to_all') == 3 and ops.get('nccl:send_recv') == 1, ops
assert ops.get('nccl:all_gather') == 1, ops
" "$T_DIR/s.json"

echo "1..$T_N"
