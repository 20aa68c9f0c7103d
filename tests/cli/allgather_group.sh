#!/bin/sh
# allgather_group.sh - an all-gather's group from the c10d call around it
# (review 28g #6): c10d::_allgather_base_ [[64n], [n]] holds
# nccl:_all_gather_base [[n]] (int8) and its kernel; the world is 128, so
# the world does not give the group, the tensors do: 64, the bytes are the
# gathered output (64n, nccl-tests' size) and the bandwidths follow.
# Without the c10d call the bytes stay not known.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "all-gather group" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
n = 1 << 20
def trace(path, c10d):
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 2000, "args": {}}]
    if c10d:
        ev.append({"ph": "X", "cat": "cpu_op", "name": "c10d::_allgather_base_",
                   "pid": 1, "tid": 1, "ts": 10, "dur": 100,
                   "args": {"External id": 1,
                            "Input Dims": [[64 * n], [n], []],
                            "Input type": ["signed char", "signed char", ""]}})
    ev += [{"ph": "X", "cat": "user_annotation", "name": "nccl:_all_gather_base",
            "pid": 1, "tid": 1, "ts": 20, "dur": 80,
            "args": {"External id": 2, "Input Dims": [[n]],
                     "Input type": ["signed char"]}},
           {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
            "pid": 1, "tid": 1, "ts": 30, "dur": 5,
            "args": {"External id": 2, "correlation": 7}},
           {"ph": "X", "cat": "kernel",
            "name": "ncclDevKernel_AllGather_RING_LL", "pid": 0, "tid": 7,
            "ts": 100, "dur": 1000,
            "args": {"External id": 2, "correlation": 7, "device": 0,
                     "stream": 7}}]
    json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB",
                                     "computeMajor": 8, "computeMinor": 0,
                                     "numSms": 108}],
               "distributedInfo": {"backend": "nccl", "rank": 0,
                                   "world_size": 128},
               "traceEvents": ev}, open(path, "w"))
trace(sys.argv[1] + "/c10d.json", True)
trace(sys.argv[1] + "/bare.json", False)
PY
"$PR_BIN" -q --input "$T_DIR/c10d.json" --json "$T_DIR/c10d.out.json"
"$PR_BIN" -q --input "$T_DIR/bare.json" --json "$T_DIR/bare.out.json"
check "group 64 from the c10d call's tensors; bytes the gathered output" \
    python3 -c "
import json, sys
o = [o for o in json.load(open(sys.argv[1]))['runs'][0]['communication']['ops']
     if o['name'] == 'nccl:all_gather'][0]
assert o['group_size'] == 64, o
assert abs(o['algbw_gbps'] - 64 * (1 << 20) / 1000e-6 / 1e9) < 1e-6, o
assert abs(o['busbw_gbps'] - o['algbw_gbps'] * 63 / 64) < 1e-6, o
" "$T_DIR/c10d.out.json"
check "no c10d call: the group and bytes stay not known" \
    python3 -c "
import json, sys
o = [o for o in json.load(open(sys.argv[1]))['runs'][0]['communication']['ops']
     if o['name'] == 'nccl:all_gather'][0]
assert o['algbw_gbps'] is None, o
" "$T_DIR/bare.out.json"
echo "1..$T_N"
