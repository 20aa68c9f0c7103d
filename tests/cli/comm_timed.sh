#!/bin/sh
# comm_timed.sh - the collectives table's Calls x Mean = Total (review
# 22g #10): nsys_before's 66 all_to_all calls sat beside a mean over the
# 64 with a kernel in the capture.  Hand-made: 4 nccl:all_reduce host
# calls, 3 with a 100 us kernel, the last issued at the capture's end
# without one: distributed.comm_ops has timed_calls 3 and a mean of 100
# us, and the table's Calls cell says "4 (3 timed)".
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "timed calls" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR/t.json" << 'PY'
import json, sys
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 1000, "args": {}}]
for i in range(4):
    t = 10 + i * 200
    ev.append({"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce",
               "pid": 1, "tid": 1, "ts": t, "dur": 20,
               "args": {"External id": 100 + i, "Input Dims": [[262144]],
                        "Input type": ["float"]}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
               "pid": 1, "tid": 1, "ts": t + 2, "dur": 5,
               "args": {"correlation": 10 + i, "External id": 100 + i}})
    if i < 3:
        ev.append({"ph": "X", "cat": "kernel",
                   "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)",
                   "pid": 0, "tid": 7, "ts": t + 30, "dur": 100,
                   "args": {"correlation": 10 + i, "External id": 100 + i,
                            "device": 0, "stream": 7}})
json.dump({"distributedInfo": {"backend": "nccl", "rank": 0,
                               "world_size": 2},
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q --input "$T_DIR/t.json" --json "$T_DIR/s.json" \
    --html "$T_DIR/r.html" --pdf "$T_DIR/r.pdf"
check "the reports are written" [ $? -eq 0 ]
check "comm_ops: 4 calls, 3 timed, mean over the 3 (100 us)" \
    python3 -c "
import json, sys
o = [o for o in json.load(open(sys.argv[1]))['distributed']['comm_ops']
     if o['name'] == 'nccl:all_reduce'][0]
assert (o['calls'], o['timed_calls']) == (4, 3), o
assert abs(o['mean_us'] - 100) < 1e-6 and abs(o['total_us'] - 300) < 1e-6, o
" "$T_DIR/s.json"
sed 's/<wbr>//g' "$T_DIR/r.html" > "$T_DIR/r.cells" # break opportunities
check "the table's Calls cell: 4 (3 timed)" \
    grep -q '>nccl:all_reduce</td><td[^>]*>4 (3 timed)</td>' "$T_DIR/r.cells"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -layout "$T_DIR/r.pdf" "$T_DIR/r.txt"
    check "the PDF's too" grep -q "nccl:all_reduce .*4 (3 timed)" "$T_DIR/r.txt"
else
    skip "the PDF's Calls cell" "no pdftotext"
fi

echo "1..$T_N"
