#!/bin/sh
# ms_hccl_rated_calls.sh - issue #30: MindSpore's hccl_raw rated as its
# HcclParser rates a link, on the calls of 1 MiB or more.
# 1. A collective's pair of a rank with itself ("0-0": the parser's SDMA
#    tasks whose peer is 0xffffffff, "in the card") is a copy in the card
#    and crosses no link: left out of the bytes, and the rate is the
#    counted pairs' bytes over their own link time (ms_cluster4's
#    AllReduce read 29.3 GB/s with its 539 kB "0-0" copies in; its "1-0"
#    link moves 20.6).  A Receive's such pair is kept: the parser writes
#    it where HCCL gave no peer (ms_cluster4's rank 1 receives rank 0's
#    12.8 MB as "1-1" at 22.2 GB/s).
# 2. The collective table (link bytes alone, no group size) rated every
#    call, tiny ones too (5.9 GB/s busbw): now the calls under 1 MiB are
#    shown apart (small_*), the rest rated (large_*, busbw over them).
# 3. hccl_raw holding fewer operations than the trace has calls (review:
#    ms_cluster4's rank 2, 489 of 1705 all-reduces, 6 of 20 receives):
#    the split by size is over the calls with link bytes, as where all
#    have them, and a Receive's sized calls are rated, the note naming
#    the calls without link bytes.
# One rank, two steps:
#  AllReduce-op1  transit 0.5 ms: 2,000 kB over "1-0" in 0.4 ms,
#                 1,000 kB over "0-0" in 0.1 ms
#  AllReduce-op2  transit 0.1 ms: 100 kB over "1-0" (under 1 MiB: unrated)
#  Receive-op3    transit 0.5 ms: 1,500 kB over "0-0" alone (p2p: kept)
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "MindSpore hccl_raw rated calls" "no python3"
    echo "1..$T_N"
    exit 0
fi
P=$T_DIR/profiler
mkdir -p "$P"
# the ops' tasks in each 20 ms step (10 ns ticks): op1 2 ms, op2 1 ms,
# op3 3 ms
H=stream_47_0_AllReduce-op1,stream_47_0_AllReduce-op1_start_point,stream_47_0_AllReduce-op1_end_point
H=$H,stream_47_1_AllReduce-op2,stream_47_1_AllReduce-op2_start_point,stream_47_1_AllReduce-op2_end_point
H=$H,stream_48_0_Receive-op3,stream_48_0_Receive-op3_start_point,stream_48_0_Receive-op3_end_point
{
    echo "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail,$H"
    echo "1,100000000,102000000,2000000,100000000,101600000,0,1600000,400000,200000,101600000,101800000,100000,101800000,101900000,300000,100100000,100400000"
    echo "2,102000000,104000000,2000000,102000000,103600000,0,1600000,400000,200000,103600000,103800000,100000,103800000,103900000,300000,102100000,102400000"
    echo "-,102000000,104000000,2000000,102000000,103600000,0,1600000,400000,200000,103600000,103800000,100000,103800000,103900000,300000,102100000,102400000"
} > "$P/step_trace_raw_0_detail_time.csv"
A='{""1-0"": {""SDMA"": [0.4, 2000.0, 5000000.0]}, ""0-0"": {""SDMA"": [0.1, 1000.0, 10000000.0]}}'
B='{""1-0"": {""SDMA"": [0.1, 100.0, 1000000.0]}}'
C='{""0-0"": {""SDMA"": [0.5, 1500.0, 3000000.0]}}'
L='{""1-0"": {""SDMA"": [1.0, 3600.0, 3600000.0]}, ""0-0"": {""SDMA"": [0.1, 1000.0, 10000000.0]}}'
{
    echo 'step_num,communication_cost,wait_cost,link_info,communication_operator_cost'
    for s in 1 2 -; do
        echo "$s,1.1,1.0,\"$L\",\"{\"\"stream_47_0_AllReduce-op1\"\": [\"\"$s\"\", 0.5, 0.5, $A], \"\"stream_47_1_AllReduce-op2\"\": [\"\"$s\"\", 0.1, 0.5, $B], \"\"stream_48_0_Receive-op3\"\": [\"\"$s\"\", 0.5, 2.5, $C]}\""
    done
} > "$P/hccl_raw_0.csv"
"$PR_BIN" -q --input "$P" --json "$T_DIR/s.json" --html "$T_DIR/s.html" \
    2> "$T_DIR/err"
check "hccl_raw read (exit 0)" [ $? -eq 0 ]
check "hccl rows: a collective's 0-0 copy left out, a Receive's kept; rated over the links' time" \
    python3 - "$T_DIR/s.json" << 'PY'
import json, sys
h = json.load(open(sys.argv[1]))["runs"][0]["hccl"]
assert h["source"] == "hccl_raw", h
o = {x["name"]: x for x in h["ops"]}
a = o["AllReduce"]
assert a["calls"] == 4, a
# 2 x (2,000 + 100) kB over "1-0"; the 2 x 1,000 kB "0-0" copies left out
assert a["bytes"] == 4200000, a
# transit_us stays the file's communication_cost: 2 x (0.5 + 0.1) ms
assert a["transit_us"] == 1200, a
# op1's two calls alone rated (op2: 100 kB, under 1 MiB): 4 MB over
# their "1-0" pairs' 0.8 ms, 5 GB/s, not 6 MB over their 1 ms of
# communication_cost (6 GB/s)
assert a["rated_calls"] == 2 and a["rated_bytes"] == 4000000, a
assert abs(a["transit_bandwidth_gbps"] - 5.0) < 1e-9, a
r = o["Receive"]
assert r["kind"] == "p2p" and r["calls"] == 2, r
assert r["bytes"] == 3000000 and r["rated_calls"] == 2, r
assert abs(r["transit_bandwidth_gbps"] - 3.0) < 1e-9, r
PY
check "collective table: the calls under 1 MiB apart, busbw over the rest" \
    python3 - "$T_DIR/s.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
ops = {o["name"]: o for o in r["communication"]["ops"]}
a = ops["mindspore:all_reduce"]
assert a["calls"] == 4 and a["timed_calls"] == 4, a
# no group size: no message, busbw = link bytes over link time, of the
# two op1 calls only (2 x 2 MB over 2 x 0.4 ms), not 5.25 over all four
assert a["total_bytes"] is None and a["algbw_gbps"] is None, a
assert abs(a["busbw_gbps"] - 5.0) < 1e-9, a
assert a["bw_calls"] == 2 and abs(a["bw_us"] - 800) < 1e-6, a
# apart: the two op2 calls, 100 kB and 1 ms (their task) each
assert a["small_calls"] == 2 and a["small_bytes"] == 100000, a
assert abs(a["small_us"] - 1000) < 1e-6, a
assert a["large_calls"] == 2 and a["large_bytes"] == 2000000, a
assert abs(a["large_us"] - 2000) < 1e-6, a
n = r["communication"]["note"]
assert "mindspore:all_reduce: 2 of its 4 calls moved under 1 MiB" in n, n
assert "left out of its rates, which are over the other 2" in n, n
assert "copies in the card, which cross no link" in n, n
PY
check "HTML: the HCCL table's note says a collective's copy in the card is left out" \
    sh -c "grep -q 'copies in the card, which cross no link' '$T_DIR/s.html'"

# every call under 1 MiB: no rate, and the note says why
sed 's/2000\.0, 5000000\.0/200.0, 500000.0/' "$P/hccl_raw_0.csv" > "$T_DIR/h.csv"
mv "$T_DIR/h.csv" "$P/hccl_raw_0.csv"
"$PR_BIN" -q --input "$P" --json "$T_DIR/t.json" 2> "$T_DIR/err"
check "all calls small: no busbw, all apart, no rate holds" \
    python3 - "$T_DIR/t.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
a = [o for o in r["communication"]["ops"] if o["name"] == "mindspore:all_reduce"][0]
assert a["busbw_gbps"] is None and a["bw_calls"] == 0, a
assert a["small_calls"] == 4 and a["large_calls"] == 0, a
assert a["small_bytes"] == 150000, a
assert "mindspore:all_reduce: no rate holds: each of its 4 calls moved under 1 MiB" in r["communication"]["note"], r["communication"]["note"]
h = [o for o in r["hccl"]["ops"] if o["name"] == "AllReduce"][0]
assert h["rated_calls"] == 0 and h["transit_bandwidth_gbps"] is None, h
PY
# hccl_raw without step 2: its calls have no link bytes at all
{
    echo 'step_num,communication_cost,wait_cost,link_info,communication_operator_cost'
    for s in 1 -; do
        echo "$s,1.1,1.0,\"$L\",\"{\"\"stream_47_0_AllReduce-op1\"\": [\"\"$s\"\", 0.5, 0.5, $A], \"\"stream_47_1_AllReduce-op2\"\": [\"\"$s\"\", 0.1, 0.5, $B], \"\"stream_48_0_Receive-op3\"\": [\"\"$s\"\", 0.5, 2.5, $C]}\""
    done
} > "$P/hccl_raw_0.csv"
"$PR_BIN" -q --input "$P" --json "$T_DIR/u.json" --html "$T_DIR/u.html" \
    2> "$T_DIR/err"
check "hccl_raw short of the trace's calls read (exit 0)" [ $? -eq 0 ]
check "short hccl_raw: split by size over the calls with link bytes, Receive rated on its sized call" \
    python3 - "$T_DIR/u.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
ops = {o["name"]: o for o in r["communication"]["ops"]}
a = ops["mindspore:all_reduce"]
assert a["calls"] == 4 and a["timed_calls"] == 4, a
# step 1's op1 alone rated: 2 MB over its "1-0" 0.4 ms; op2 apart
assert a["algbw_gbps"] is None and abs(a["busbw_gbps"] - 5.0) < 1e-9, a
assert a["bw_calls"] == 1 and abs(a["bw_us"] - 400) < 1e-6, a
assert a["small_calls"] == 1 and a["small_bytes"] == 100000, a
assert a["large_calls"] == 1 and a["large_bytes"] == 2000000, a
v = ops["mindspore:recv"]
# step 1's receive: 1.5 MB over its 0.5 ms of link time; step 2's none
assert v["calls"] == 2 and v["sized_calls"] == 1, v
assert v["sized_bytes"] == 1500000 and v["total_bytes"] is None, v
assert v["bw_calls"] == 1 and abs(v["bw_us"] - 500) < 1e-6, v
assert abs(v["algbw_gbps"] - 3.0) < 1e-9, v
assert "1 of its 2 calls has link bytes in hccl_raw" in v["sized_note"], v
n = r["communication"]["note"]
assert "mindspore:all_reduce: 2 of its 4 calls have link bytes in hccl_raw (the other 2 none" in n, n
assert "2 of those have no group size" in n, n
assert "1 of its 2 calls with link bytes moved under 1 MiB" in n, n
assert "which are over the other 1 " in n, n
PY
echo "1..$T_N"
