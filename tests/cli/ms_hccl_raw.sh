#!/bin/sh
# ms_hccl_raw.sh - review30a #8: MindSpore's hccl_raw_N.csv states per
# step and op the time its main stream spent in transfers
# (communication_cost), in Notify Wait (wait_cost) and per rank pair and
# link type the size its HcclParser writes in kB (bytes / 1e3: hccl_parser
# .py's "the unit of sdma_communication_size is k_byte").  The
# collectives table showed bytes, algbw and busbw "–".  Now each op's
# task of the step gets the bytes it moved over its links, and the run's
# hccl rows split transit from wait.  review31 #4: the op's algbw and
# busbw are over the transfer time the parser pairs with those bytes (its
# link entries' time; issue #30: not communication_cost, which also holds
# a collective's in-card copies), not its task time, mostly Notify Wait.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "MindSpore hccl_raw" "no python3"
    echo "1..$T_N"
    exit 0
fi
P=$T_DIR/profiler
mkdir -p "$P"
# two 20 ms steps (10 ns ticks): a 5 ms Receive in FP+BP, which moved
# 10,000 kB over SDMA in 0.5 ms of transfer and waited 4.4 ms for its peer
cat > "$P/step_trace_raw_1_detail_time.csv" << 'EOF'
step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail,stream_48_0_Receive-op663,stream_48_0_Receive-op663_start_point,stream_48_0_Receive-op663_end_point
1,100000000,102000000,2000000,100000000,101600000,0,1600000,400000,500000,100100000,100600000
2,102000000,104000000,2000000,102000000,103600000,0,1600000,400000,500000,102100000,102600000
-,102000000,104000000,2000000,102000000,103600000,0,1600000,400000,500000,102100000,102600000
EOF
L='{""1-0"": {""SDMA"": [0.5, 10000.0, 20000000.0]}}'
{
    echo 'step_num,communication_cost,wait_cost,link_info,communication_operator_cost'
    for s in 1 2 -; do
        echo "$s,0.5,4.4,\"$L\",\"{\"\"stream_48_0_Receive-op663\"\": [\"\"$s\"\", 0.5, 4.4, $L]}\""
    done
} > "$P/hccl_raw_1.csv"
"$PR_BIN" -q --input "$P" --json "$T_DIR/s.json" --html "$T_DIR/s.html" \
    2> "$T_DIR/err"
check "the step trace and hccl_raw are read (exit 0)" [ $? -eq 0 ]
check "the Receive's bytes and rate from link_info" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
ops = {o['name']: o for o in r['communication']['ops']}
o = ops['mindspore:recv']
assert o['calls'] == 2 and o['sized_calls'] == 2, o
assert o['total_bytes'] == 20000000, o
# review31 #4: over the transfer time hccl_raw pairs with the bytes
# (2 x 0.5 ms), not the 2 x 5 ms task that is mostly Notify Wait
assert abs(o['algbw_gbps'] - 20.0) < 1e-9, o
assert abs(o['busbw_gbps'] - 20.0) < 1e-9, o
assert o['bw_us'] == 1000 and o['total_us'] == 10000, o
assert o['wall_gbps'] is None and o['wall_us'] is None, o
n = r['communication']['note']
assert 'over the link time the parser pairs with those bytes' in n, n
" "$T_DIR/s.json"
check "hccl rows: transit and wait from communication_cost and wait_cost" python3 -c "
import json, sys
h = json.load(open(sys.argv[1]))['runs'][0]['hccl']
assert h['source'] == 'hccl_raw', h
o, = h['ops']
assert o['name'] == 'Receive' and o['collective'] == 'recv', o
assert o['kind'] == 'p2p' and o['calls'] == 2, o
assert o['transit_us'] == 1000 and o['wait_us'] == 8800, o
assert o['elapse_us'] is None, o
assert o['bytes'] == 20000000, o
assert abs(o['transit_bandwidth_gbps'] - 20.0) < 1e-9, o
" "$T_DIR/s.json"
check "HTML: the HCCL table is named after hccl_raw, not communication.json" \
    sh -c "grep -q \"HCCL time by operation (MindSpore&#39;s hccl_raw)\|HCCL time by operation (MindSpore's hccl_raw)\" '$T_DIR/s.html' &&
           ! grep -q 'as communication.json splits it' '$T_DIR/s.html'"
# a damaged communication_operator_cost: exit 2, the file named
sed 's/\[""1"", 0.5/[""1"", 0.5 {/' "$P/hccl_raw_1.csv" > "$T_DIR/bad.csv"
mv "$T_DIR/bad.csv" "$P/hccl_raw_1.csv"
"$PR_BIN" -q --input "$P" --json "$T_DIR/bad.json" 2> "$T_DIR/bad.err"
rc=$?
check "damaged hccl_raw: exit 2, the file named, no output" \
    sh -c "[ $rc -eq 2 ] && grep -q 'hccl_raw_1.csv' '$T_DIR/bad.err' && [ ! -e '$T_DIR/bad.json' ]"

# ---- the shared sample
C=mindspore/extra/cluster_4rank_pipeline
if have_shared && [ -d "$PR_SHARED/traces/$C" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$C" --json "$T_DIR/c4.json" \
        2> /dev/null
    check "cluster_4rank_pipeline: rank 0's receives sized, rank 2's transit vs wait" \
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
r = {x['worker']: x for x in d['runs']}
o = [x for x in r['rank0']['communication']['ops'] if x['name'] == 'mindspore:recv'][0]
assert o['sized_calls'] == 20 and o['total_bytes'] == 256911360, o
# review31 #4: 22.7 GB/s over the transit time, not 0.3 over the wait
assert abs(o['algbw_gbps'] - 22.694) < 0.01 and abs(o['busbw_gbps'] - 22.694) < 0.01, o
a = [x for x in r['rank0']['communication']['ops'] if x['name'] == 'mindspore:all_reduce'][0]
# issue #30: over its 5 calls of 1 MiB or more, its in-card '0-0' copies
# left out: the '1-0' link's 20.6 GB/s, not 5.9 over all 445 calls
assert abs(a['busbw_gbps'] - 20.64) < 0.01 and a['bw_calls'] == 5, a
assert a['small_calls'] == 440 and a['large_calls'] == 5, a
h = [x for x in r['rank0']['hccl']['ops'] if x['name'] == 'AllReduce'][0]
assert h['bytes'] == 6659584 and h['rated_bytes'] == 5393920, h
assert abs(h['transit_bandwidth_gbps'] - 20.64) < 0.01, h
h = [x for x in r['rank2']['hccl']['ops'] if x['name'] == 'Receive'][0]
assert h['calls'] == 6 and h['bytes'] == 77073408, h
assert abs(h['transit_us'] - 3383.38) < 0.01 and abs(h['wait_us'] - 1994860.61) < 0.1, h
" "$T_DIR/c4.json"
else
    skip "cluster_4rank_pipeline" "no $PR_SHARED/traces/$C"
fi
echo "1..$T_N"
