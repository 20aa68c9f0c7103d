#!/bin/sh
# ascend_review3.sh - the third expert review's Ascend and MindSpore
# findings (issues #30, #31, #29; review of main b4ccb03) on the shared
# samples, each skipped with a message when ../shared/traces is absent.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "ascend review 3" "no python3"
        exit 0
fi

# 1. Finding 1: torch_npu/old2023's kernel_details.csv holds 21 (rank 0)
# and 22 (rank 1) tasks, 37 and 11.5 ms a step, while step_trace_time.csv
# records Step 2 as Computing 75,174.6 us, Communication(Not Overlapped)
# 146,614.0, Overlapped 6,987.3, Free 69,909.5 (rank 1: 75,422.2 /
# 151,303.5 / 7,129.5 / 67,860.8).  The Ranks table under the file's
# names shows the file's numbers, a data-quality note says the task list
# is incomplete, and the verdict rests on the step table.
OLD=torch_npu/old2023
if shared_report old "$OLD"; then
    check "old2023: the Ranks table's split is step_trace_time.csv's" \
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))['distributed']
w = {x['worker']: x for x in d['workers']}
def near(a, b): return abs(a - b) < 0.5
r0, r1 = w['rank0'], w['rank1']
assert r0['split_source'] == 'step_trace_time.csv', r0
assert near(r0['computation_us'] + r0['overlap_us'], 75174.6), r0
assert near(r0['overlap_us'], 6987.3) and near(r0['communication_us'], 146614.0), r0
assert near(r0['other_us'], 69909.5), r0
assert near(r1['communication_us'], 151303.5) and near(r1['other_us'], 67860.8), r1
assert d['method_producer'] is not None
" "$T_DIR/old.json"
    check "old2023: the HTML Ranks table says its numbers come from step_trace_time.csv" \
        python3 -c "
import sys
h = open(sys.argv[1]).read()
assert 'from each rank&#39;s step_trace_time.csv' in h or \"from each rank's step_trace_time.csv\" in h
assert '146.6 ms' in h and '151.3 ms' in h, 'the table shows the step table'
" "$T_DIR/old.html"
    check "old2023: a data-quality note says the task list is incomplete" \
        python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    n = [x for x in r['diagnostics'] if x['kind'] == 'tasks_incomplete']
    assert len(n) == 1, r['worker']
    # rank 0's 21 rows hold one short record, not read (review22a #6)
    assert n[0]['count'] in (20, 22), n
    assert 'The task list is incomplete' in n[0]['text'], n
    assert 'Computing 75.' in n[0]['text'], n
" "$T_DIR/old.json"
    check "old2023: the verdict is communication from the step table, not 'no recorded cause'" \
        python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    v = r['verdict']
    assert v['bound'] == 'communication', v
    assert v['basis'] == 'step_trace_time.csv', v
    assert 'records no cause' not in v['text'], v['text']
    assert 'is not known' not in v['text'], v['text']
assert json.load(open(sys.argv[1]))['runs'][0]['verdict']['text'].startswith(
    'Bound by communication, by the producer' + chr(39) + 's step table (step_trace_time.csv): 146.6 of 291.7 ms')
" "$T_DIR/old.json"
    check "old2023: the terminal's verdict line is the step table's" \
        grep -q "Bound by communication, by the producer's step table" \
        "$T_DIR/old.term"
else
    skip "old2023 step table" "no $OLD"
fi

# text_level1: its tasks cover its step table: no note, no new basis,
# and the Ranks table's numbers equal step_trace_time.csv's as before.
L1=torch_npu/text_level1
if shared_report l1 "$L1"; then
    check "text_level1: complete tasks: no tasks_incomplete note, the path's verdict" \
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
for r in d['runs']:
    assert not [x for x in r['diagnostics'] if x['kind'] == 'tasks_incomplete'], r['worker']
    assert 'basis' not in r['verdict'], r['verdict']
w = d['distributed']['workers'][0]
assert w['split_source'] == 'step_trace_time.csv', w
assert abs(w['communication_us'] - 101963.2) < 0.5, w
" "$T_DIR/l1.json"
else
    skip "text_level1 step table" "no $L1"
fi

# 2. Finding 7: mindspore run_3/run_4 hold a step trace of one 23.7 ms
# step (fp_and_bp 2,366,808 ticks, tail 4,097) and a cluster table of
# 651.9 ms computation and 1293.1 ms communication alone: no task.  The
# step is not "Kernel 100%" (the table clamped to the step), a note says
# the table is not these steps', the verdict gives MindSpore's split, and
# the no-finding line has no critical-path clause (there is no path).
for RUN in run_3_profiler run_4_profiler; do
    IN=mindspore/extra/$RUN
    if shared_report "$RUN" "$IN"; then
        check "$RUN: no task: the step is not Kernel, the cluster table is named as not these steps" \
            python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['step_summary']['breakdown_us']['kernel'] == 0, r['step_summary']
n = [x for x in r['diagnostics'] if x['kind'] == 'step_table_mismatch']
assert len(n) == 1 and '651.9 ms of computation' in n[0]['text'], n
st = r['step_trace']
assert st['tasks'] is False and st['steps_in_file'] == 1, st
assert abs(st['median']['fp_and_bp_us'] - 23668.08) < 0.01, st
assert abs(st['median']['tail_us'] - 40.97) < 0.01, st
v = r['verdict']
assert 'FP+BP 23.67 ms, tail 0.04 ms' in v['text'], v['text']
assert 'critical path by 1%' not in v['no_finding'], v['no_finding']
assert 'without a critical path' in v['no_finding'], v['no_finding']
" "$T_DIR/$RUN.json"
        check "$RUN: the terminal's no-finding line has no critical-path clause" \
            sh -c '! grep -q "shortens the critical path" "$1" &&
                   grep -q "without a critical path no change could be replayed" "$1"' \
            sh "$T_DIR/$RUN.term"
    else
        skip "$RUN step trace" "no $IN"
    fi
done

# 3. Finding 10: mindspore/ascend_run1's step trace (10 ns ticks): over
# the 14 steps with tasks the median FP+BP is 117.9 ms and the tail 87.2
# ms; the tasks cover 88.7 ms of FP+BP and 37.7 ms of the tail (37.2 ms
# of it one UnsortedSegmentSum).  The idle located in the verdict and
# the split drawn in the Overview.
R1=mindspore/ascend_run1
if shared_report run1 "$R1"; then
    check "ascend_run1: MindSpore's split over the steps with tasks, the idle in the tail" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
st = r['step_trace']
assert st['steps_with_tasks'] == 14 and len(st['steps']) == 14, st['steps_with_tasks']
m = st['median']
assert 117000 < m['fp_and_bp_us'] < 119000 and 86000 < m['tail_us'] < 88000, m
assert 88000 < m['fp_and_bp_tasks_us'] < 89500, m
assert 37000 < m['tail_tasks_us'] < 38500, m
v = r['verdict']['text']
assert 'locates the idle: 49.5 ms of the median step' in v, v
assert '87.2 ms tail' in v and '29.2 ms of its 117.9 ms FP+BP' in v, v
" "$T_DIR/run1.json"
    check "ascend_run1: the Overview shows MindSpore's step split" \
        python3 -c "
import sys
h = open(sys.argv[1]).read()
assert 'step split' in h and 'Tail with tasks' in h, 'no split table'
" "$T_DIR/run1.html"
else
    skip "ascend_run1 step split" "no $R1"
fi


# 5. Finding 11's Ascend items.
# text_level1's kernel table: aclnnMuls (MulAiCore) and ForeachAddList
# ran under a rule named "cann.cast", which read as "these are casts":
# the rule is named for its family.
L1R0=torch_npu/text_level1/rank0_ascend_pt
if shared_report l1r0 "$L1R0"; then
    check "text_level1: Muls and ForeachAddList are not under a cast rule" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = {x['name']: x for x in r['kernels']}
for n in ('aclnnMuls_MulAiCore_Mul', 'aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList'):
    assert n in k, n
    assert k[n]['kernel_rule'] == 'cann.elementwise', k[n]
assert not [x for x in r['kernels'] if x.get('kernel_rule') == 'cann.cast']
" "$T_DIR/l1r0.json"
else
    skip "text_level1 rule label" "no $L1R0"
fi

# mindspore/ascend_run2: minddata_cpu_utilization_1.json is synthetic
# (user 10/20/30, sys 10/20/30, io 10/10/10, idle 10/10/10: sums 40 to
# 80): a data-quality note and no storage advice; every MatMul's
# data_type in framework_raw_1.csv is UNKNOWN: no "No fp32 matmul ...
# without HF32"; MatMul-op19 (Block Dim 1, inputs 2,256,6,6 x
# 4096,9216) named with its M=2 and the tiling lever.
R2=mindspore/ascend_run2
if shared_report run2 "$R2"; then
    check "ascend_run2: host CPU samples that do not add up: a note, no reading" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
n = [x for x in r['diagnostics'] if x['kind'] == 'host_cpu_sums']
assert len(n) == 1 and '40% to 80%' in n[0]['text'], n
assert r['host_cpu']['reading'] is None, r['host_cpu']['reading']
assert 'slow storage' not in json.dumps(r)
" "$T_DIR/run2.json"
    check "ascend_run2: the HTML has no storage advice and says the dtype is unknown" \
        python3 -c "
import sys
h = open(sys.argv[1]).read()
assert 'slow storage' not in h
assert 'No fp32 matmul or convolution ran without' not in h
assert 'gives no data type for its matmul' in h
" "$T_DIR/run2.html"
    check "ascend_run2: every MatMul's dtype is unknown, and low_block_dim names M=2" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['tensor_cores']['matmul_dtype_unknown_pct'] == 100, r['tensor_cores']
ops = r['block_dim']['operators']
assert ops[0]['input_shapes'] == '[[2, 256, 6, 6], [4096, 9216], [4096]]', ops[0]
t = [x['text'] for x in r['recommendations'] if x['id'] == 'low_block_dim'][0]
assert 'MatMul-op19 (Block Dim 1 of 32, 9.17 ms; inputs 2,256,6,6 x 4096,9216: M=2)' in t, t
assert 'With M=2' in t and 'splits N across' in t, t
" "$T_DIR/run2.json"
else
    skip "ascend_run2 host CPU, dtype, block dim" "no $R2"
fi

# text_level1's MatMuls state their dtypes: the unknown share is 0.
if [ -e "$T_DIR/l1r0.json" ]; then
    check "text_level1: its MatMul dtypes are known" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['tensor_cores']['matmul_dtype_unknown_pct'] == 0, r['tensor_cores']
" "$T_DIR/l1r0.json"
fi

echo "1..$T_N"
