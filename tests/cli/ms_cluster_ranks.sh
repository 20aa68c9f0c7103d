#!/bin/sh
# ms_cluster_ranks.sh - review 28a #2: the Distributed section's Ranks
# table of a MindSpore cluster export (HCCL tasks only, the split in
# ascend_cluster_analyse_*.csv) takes the cluster table's figures on the
# table's own basis (the steps after the warm-up first one, as its mean
# and the pipeline stages table), says they are the cluster table's, not
# "from the device tasks", and leaves Overlapped and Free not known (the
# table has no such column), not 0.  Before, ms_cluster4's rank2 read
# Communication(Not Overlapped) 452 ms a step (the 2.04 s warm-up averaged
# in) beside 54.7 ms in the stages table right below.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "MindSpore cluster ranks" "no python3"
    echo "1..$T_N"
    exit 0
fi
C=$T_DIR/cluster
mkdir -p "$C"
# two stages, three 10 ms steps (10 ns ticks), an AllReduce of 1 ms each
for r in 0 1; do
    cat > "$C/step_trace_raw_${r}_detail_time.csv" << 'EOF'
step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail,stream_11_0_AllReduce-op1,stream_11_0_AllReduce-op1_start_point,stream_11_0_AllReduce-op1_end_point
1,1000000,2000000,1000000,1000000,1900000,0,900000,100000,100000,1100000,1200000
2,2000000,3000000,1000000,2000000,2900000,0,900000,100000,100000,2100000,2200000
3,3000000,4000000,1000000,3000000,3900000,0,900000,100000,100000,3100000,3200000
EOF
done
# rank 0 the fast stage: a 500 ms warm-up first row of communication
# alone, then 2 ms a step; rank 1 the slow stage; the last row the
# table's mean of steps 2..3
cat > "$C/ascend_cluster_analyse_pipeline-parallel_2_2_0.csv" << 'EOF'
computation_time,communication_alone_time,stage_time,receive_alone_time,collective_communication_alone_time
1.0,500.0,9.0,498.0,2.0
1.0,2.0,9.0,1.0,1.0
1.0,2.0,9.0,1.0,1.0
1.0,2.0,9.0,1.0,1.0
EOF
cat > "$C/ascend_cluster_analyse_pipeline-parallel_2_2_1.csv" << 'EOF'
computation_time,communication_alone_time,stage_time,receive_alone_time,collective_communication_alone_time
8.0,400.0,9.0,399.0,1.0
8.0,1.0,9.0,0,1.0
8.0,1.0,9.0,0,1.0
8.0,1.0,9.0,0,1.0
EOF
"$PR_BIN" -q --input "$C" --json "$T_DIR/c.json" --html "$T_DIR/c.html" \
    2> "$T_DIR/err"
check "the cluster export is read (exit 0)" [ $? -eq 0 ]
check "the Ranks rows are the cluster table's, on its own basis (steps 2..3)" \
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
w = {x['rank']: x for x in d['distributed']['workers']}
runs = {r['rank']: r for r in d['runs']}
assert sorted(w) == [0, 1], w
for r, comp, comm in ((0, 1000, 2000), (1, 8000, 1000)):
    x = w[r]
    assert x['split_source'] == 'ascend_cluster_analyse', x
    assert abs(x['computation_us'] - comp) < 1e-6, x
    assert abs(x['communication_us'] - comm) < 1e-6, x
    assert x['overlap_us'] is None and x['other_us'] is None, x
    assert x['comm_overlap_pct'] is None, x
    m = runs[r]['step_phases']['mean']
    assert abs(m['communication_not_overlapped_us'] - x['communication_us']) < 1e-6, (m, x)
assert 'cluster table' in d['distributed']['method_producer'], d['distributed']
" "$T_DIR/c.json"
python3 - "$T_DIR/c.html" > "$T_DIR/c.txt" << 'PY'
import html, re, sys
t = open(sys.argv[1], encoding='utf-8').read().replace('<wbr>', '')
t = re.sub(r'<(script|style)[^>]*>.*?</\1>', ' ', t, flags=re.S)
print(re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', t))))
PY
check "the HTML names the cluster table, not the device tasks" python3 -c "
import sys
t = open(sys.argv[1]).read()
i = t.find('Ranks Per step')
assert i >= 0, 'no Ranks heading'
s = t[i:i + 700]
assert 'from MindSpore\'s cluster table (ascend_cluster_analyse_*.csv' in s, s
assert 'from the device tasks' not in s, s
assert 'Overlapped and Free are not known' in s, s
" "$T_DIR/c.txt"
echo "1..$T_N"
