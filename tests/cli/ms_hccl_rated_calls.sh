#!/bin/sh
# ms_hccl_rated_calls.sh - issue #30 #4: since the 1 MiB floor,
# transit_bandwidth_gbps rates only the calls that sent 1 MiB or more
# (ms_cluster4's AllReduce: 5 of its 458, 29.3 GB/s where the row's own
# bytes / transit_us give 5.82), and nothing said which: the row now gives
# rated_calls and rated_bytes.  The "0-0" pair beside "1-0" is kept in the
# bytes: MindSpore's hccl_parser writes src-dst from each task's src and
# dst rank, putting one for the other where it is 0xffffffff (unknown),
# and counts only SDMA/RDMA tasks (a LOCAL one is never in them), so a
# pair of one rank is not a local copy: ms_cluster4's ranks 1-3 give
# their Receives' 12.8 MB at 22 GB/s under "1-1" and "0-0" alone, as
# rank 0 gives its under "1-0".
# One rank, two steps, two ops a step:
#  AllReduce-op1  transit 0.5 ms: 2,000 kB over "1-0", 1,000 kB over "0-0"
#  AllReduce-op2  transit 0.1 ms: 100 kB over "1-0" (under 1 MiB: unrated)
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "MindSpore hccl_raw rated calls" "no python3"
    echo "1..$T_N"
    exit 0
fi
P=$T_DIR/profiler
mkdir -p "$P"
cat > "$P/step_trace_raw_0_detail_time.csv" << 'EOF'
step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail
1,100000000,102000000,2000000,100000000,101600000,0,1600000,400000
2,102000000,104000000,2000000,102000000,103600000,0,1600000,400000
-,102000000,104000000,2000000,102000000,103600000,0,1600000,400000
EOF
A='{""1-0"": {""SDMA"": [0.45, 2000.0, 4444444.4]}, ""0-0"": {""SDMA"": [0.05, 1000.0, 20000000.0]}}'
B='{""1-0"": {""SDMA"": [0.1, 100.0, 1000000.0]}}'
L='{""1-0"": {""SDMA"": [0.55, 2100.0, 3818181.8]}, ""0-0"": {""SDMA"": [0.05, 1000.0, 20000000.0]}}'
{
    echo 'step_num,communication_cost,wait_cost,link_info,communication_operator_cost'
    for s in 1 2 -; do
        echo "$s,0.6,1.0,\"$L\",\"{\"\"stream_47_0_AllReduce-op1\"\": [\"\"$s\"\", 0.5, 0.5, $A], \"\"stream_47_0_AllReduce-op2\"\": [\"\"$s\"\", 0.1, 0.5, $B]}\""
    done
} > "$P/hccl_raw_0.csv"
"$PR_BIN" -q --input "$P" --json "$T_DIR/s.json" --html "$T_DIR/s.html" \
    2> "$T_DIR/err"
check "hccl_raw read (exit 0)" [ $? -eq 0 ]
check "hccl row: the rated calls and bytes given, the 0-0 pair kept" \
    python3 - "$T_DIR/s.json" << 'PY'
import json, sys
h = json.load(open(sys.argv[1]))["runs"][0]["hccl"]
assert h["source"] == "hccl_raw", h
o, = h["ops"]
assert o["name"] == "AllReduce" and o["calls"] == 4, o
# 2 x (2,000 + 1,000 + 100) kB: every pair's
assert o["bytes"] == 6200000, o
assert o["transit_us"] == 1200, o
# op1's two calls alone are rated: 6 MB over their 1 ms, not the row's
# 6.2 MB over 1.2 ms
assert o["rated_calls"] == 2 and o["rated_bytes"] == 6000000, o
assert abs(o["transit_bandwidth_gbps"] - 6.0) < 1e-9, o
assert o["transit_zero_calls"] == 0 and o["transit_zero_small_calls"] == 0, o
PY
echo "1..$T_N"
    exit 0
fi
P=$T_DIR/profiler
mkdir -p "$P"
cat > "$P/step_trace_raw_0_detail_time.csv" << 'EOF'
step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail
1,100000000,102000000,2000000,100000000,101600000,0,1600000,400000
2,102000000,104000000,2000000,102000000,103600000,0,1600000,400000
-,102000000,104000000,2000000,102000000,103600000,0,1600000,400000
EOF
A='{""1-0"": {""SDMA"": [0.45, 2000.0, 4444444.4]}, ""0-0"": {""SDMA"": [0.05, 1000.0, 20000000.0]}}'
B='{""1-0"": {""SDMA"": [0.1, 100.0, 1000000.0]}}'
L='{""1-0"": {""SDMA"": [0.55, 2100.0, 3818181.8]}, ""0-0"": {""SDMA"": [0.05, 1000.0, 20000000.0]}}'
{
    echo 'step_num,communication_cost,wait_cost,link_info,communication_operator_cost'
    for s in 1 2 -; do
        echo "$s,0.6,1.0,\"$L\",\"{\"\"stream_47_0_AllReduce-op1\"\": [\"\"$s\"\", 0.5, 0.5, $A], \"\"stream_47_0_AllReduce-op2\"\": [\"\"$s\"\", 0.1, 0.5, $B]}\""
    done
} > "$P/hccl_raw_0.csv"
"$PR_BIN" -q --input "$P" --json "$T_DIR/s.json" --html "$T_DIR/s.html" \
    2> "$T_DIR/err"
check "hccl_raw read (exit 0)" [ $? -eq 0 ]
check "hccl row: the rated calls and bytes given, the 0-0 pair kept" \
    python3 - "$T_DIR/s.json" << 'PY'
import json, sys
h = json.load(open(sys.argv[1]))["runs"][0]["hccl"]
assert h["source"] == "hccl_raw", h
o, = h["ops"]
assert o["name"] == "AllReduce" and o["calls"] == 4, o
# 2 x (2,000 + 1,000 + 100) kB: every pair's
assert o["bytes"] == 6200000, o
assert o["transit_us"] == 1200, o
# op1's two calls alone are rated: 6 MB over their 1 ms, not the row's
# 6.2 MB over 1.2 ms
assert o["rated_calls"] == 2 and o["rated_bytes"] == 6000000, o
assert abs(o["transit_bandwidth_gbps"] - 6.0) < 1e-9, o
assert o["transit_zero_calls"] == 0 and o["transit_zero_small_calls"] == 0, o
PY
check "HTML: the table's note says the rank's copy to itself is left out" \
    sh -c "grep -q 'crosses no link and is left' '$T_DIR/s.html'"
echo "1..$T_N"
