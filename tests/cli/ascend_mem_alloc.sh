#!/bin/sh
# ascend_mem_alloc.sh - review 22a item 1 (torch_npu/old2023's memory):
# - a folder whose operator_memory.csv holds only GE's rows (cann::,
#   CANN's graph engine) beside a memory_record.csv with PTA rows
#   (PyTorch's caching allocator): the device's peaks are PTA's, named
#   so, not the GE rows' (old2023 rank 0: 80.1 MiB against PTA's 4.49
#   GiB), and nothing is said "allocated before the trace began" from the
#   wrong allocator; the live-at-peak table's empty text does not deny
#   the live bytes the sentence above it gives, and names them by the
#   graph that allocated them (cann::Graph); the peak's time is PTA's
#   row's too, not the GE curve's (review24: old2023 rank 0 said 22.5 ms,
#   GE's 80 MiB, beside PTA's 4.49 GiB of 8.2 ms), and the HTML puts no
#   PTA step on GE's peak;
# - operator_memory.csv rows 100 days after the run's tasks (another
#   capture's: old2023 rank 1's ResNet rows) are left out, with a Data
#   quality row naming the file and the distance, and memory_record.csv
#   times in E-notation ("1.69512E+15") are said not to be times;
# - on the shared old2023 sample: rank 0's peaks are memory_record.csv's
#   PTA maxima, rank 1 has no memory curve.
. "$PR_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || {
    skip "Ascend memory allocators" "no python3"
    echo "1..$T_N"
    exit 0
}

# run DIR OPMEM_T0 MR_TIME: a rank folder: two tasks 1 ms apart at
# t0 = 1695115378000000 us, GE rows of operator_memory.csv from OPMEM_T0,
# memory_record.csv with PTA / GE / APP rows at MR_TIME
run() {
    d=$1/ASCEND_PROFILER_OUTPUT
    mkdir -p "$d"
    printf '{"config": {}, "rank_id": 0}\n' > "$1/profiler_info_0.json"
    cat > "$d/kernel_details.csv" <<EOF
Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim
1,4294967295,1,16,MatMul1,MatMul,AI_CORE,1695115378000000,500,0,24
1,4294967295,2,16,Add1,Add,AI_VECTOR_CORE,1695115378001000,400,0,24
EOF
    t=$2
    cat > "$d/operator_memory.csv" <<EOF
Name,Size(KB),Allocation Time(us),Release Time(us),Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Release Total Allocated(MB),Release Total Reserved(MB),Device Type
cann::Graph_1,2048,$((t + 100)),$((t + 300)),200,2.0,242.0,0.0,242.0,NPU:0
cann::Graph_2,4096,$((t + 200)),$((t + 400)),200,6.0,242.0,2.0,242.0,NPU:0
EOF
    m=$3
    # PTA's reserved total peaks on its first row, its allocated on the
    # second (at m + 400 where m is a time)
    case $m in *E*) m2=$m ;; *) m2=$((m + 400)) ;; esac
    cat > "$d/memory_record.csv" <<EOF
Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Device Type
APP,$m,,11224.375,NPU:0
PTA,$m,4000.0,8664.0,NPU:0
PTA,$m2,4599.5,8664.0,NPU:0
PTA,$m,1000.0,8000.0,NPU:0
GE,$m,6.0,242.0,NPU:0
PTA+GE,$m,4605.5,8906.0,NPU:0
EOF
}

T0=1695115378000000
run "$T_DIR/ge" $T0 $((T0 + 500))
"$PR_BIN" -q --input "$T_DIR/ge" --json "$T_DIR/ge.json" \
    --html "$T_DIR/ge.html" 2> "$T_DIR/ge.err"
check "GE rows only: exit 0" test $? -eq 0
check "GE rows only: the device's peaks are memory_record.csv's PTA, named" \
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))['runs'][0]['memory']['devices'][0]
want = {'peak_allocated_bytes': 4599.5 * 1048576, 'peak_reserved_bytes': 8664.0 * 1048576,
        'peak_allocator': 'PTA', 'curve_allocator': 'GE', 'live_at_peak_untraced_bytes': None,
        'live_at_peak_bytes': 6 * 1048576, 'allocations': 2,
        # PTA's allocated peak, 900 us after the first task; GE's was at 200
        'peak_at_us': 900}
bad = {k: (d.get(k), v) for k, v in want.items() if d.get(k) != v}
assert not bad, bad
" "$T_DIR/ge.json"
check "GE rows only: the HTML names each allocator, no 'before the trace began', no 'No tensor ... live'" \
    python3 -c "
import re, sys
h = re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read().replace('<wbr>', ''))
h = re.sub(r'\s+', ' ', h).replace('&#39;', \"'\").replace('&#x27;', \"'\")
for want in (\"PTA: PyTorch's caching allocator (memory_record.csv)\",
             \"At the peak of GE's allocations (CANN's graph engine)\",
             \"The device's peaks above are PTA's\",
             # GE's rows are their graph's (cann::Graph_1, _2), not
             # outside every operator (review 26a #6)
             'Operator Live at the peak Tensors cann::Graph 6.00 MiB 2',
             'PTA NPU 0 allocated 4.49 GiB, reserved 8.46 GiB'):
    assert want in h, want
for never in ('allocated before the trace began',
              'No tensor allocated in the trace is live'):
    assert never not in h, never
assert re.search(r\"At the peak of GE's allocations \(CANN's graph engine\), \", h), 'a step on the GE peak'
" "$T_DIR/ge.html"

# another capture's rows (100 days later) and E-notation times
run "$T_DIR/far" $((T0 + 100 * 86400 * 1000000)) 1.69512E+15
"$PR_BIN" -q --input "$T_DIR/far" --json "$T_DIR/far.json" \
    --html "$T_DIR/far.html" 2> "$T_DIR/far.err"
check "another capture's operator_memory.csv: exit 0" test $? -eq 0
check "another capture's rows are left out, named, with the distance; E-notation is not a time" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['memory'] is None, r['memory']
dq = {x['kind']: x for x in r['diagnostics']}
o = dq['npu_op_mem_outside_session']
assert o['count'] == 2 and 'operator_memory.csv' in o['text'] and \
    '100.0 days after' in o['text'] and '2023-12-28' in o['text'], o
e = dq['memory_time_rounded']
assert e['count'] == 6 and 'memory_record.csv' in e['text'] and \
    'E-notation' in e['text'] and 'not a time' in e['text'], e
pta = [c for c in r['npu_memory']['components'] if c['component'] == 'PTA'][0]
assert pta['peak_allocated_bytes'] == 4599.5 * 1048576, pta
" "$T_DIR/far.json"
check "another capture's rows: the Memory section says why" \
    grep -q "operator_memory.csv rows outside the span of the run" \
    "$T_DIR/far.html"

# the shared sample the review measured
if shared_summary old torch_npu/old2023; then
    check "old2023: rank 0's peaks are memory_record.csv's PTA maxima; rank 1's other-run rows left out" \
        python3 -c "
import csv, json, os, sys
s = json.load(open(sys.argv[1]))
for r in s['runs']:
    d = os.path.join(sys.argv[2], 'test_rank_%d' % r['rank'], 'ASCEND_PROFILER_OUTPUT')
    mr = [x for x in csv.DictReader(open(os.path.join(d, 'memory_record.csv')))
          if x['Component'] == 'PTA']
    a = max(float(x['Total Allocated(MB)']) for x in mr) * 1048576
    if r['rank'] == 0:
        dev = r['memory']['devices'][0]
        assert abs(dev['peak_allocated_bytes'] - a) < 1 and dev['peak_allocator'] == 'PTA', dev
        assert dev['live_at_peak_untraced_bytes'] is None, dev
        # the peak's time is that PTA row's (8.2 ms), from the first task
        t = [float(x['Timestamp(us)']) for x in mr if float(x['Total Allocated(MB)']) * 1048576 == a][0]
        k = min(float(x['Start Time(us)']) for x in csv.DictReader(open(os.path.join(d, 'kernel_details.csv'))))
        assert abs(dev['peak_at_us'] - (t - k)) < 0.01 and dev['peak_step'] == 'Step 2', (dev['peak_at_us'], t - k)
    else:
        assert r['memory'] is None, r['memory']
        assert any(x['kind'] == 'npu_op_mem_outside_session' for x in r['diagnostics'])
" "$T_DIR/old.json" "$PR_SHARED/traces/torch_npu/old2023"
else
    skip "old2023: allocators" "no $PR_SHARED/traces/torch_npu/old2023"
fi

echo "1..$T_N"
