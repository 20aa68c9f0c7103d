#!/bin/sh
# ascend_cann_mem.sh - review 26a #6: operator_memory.csv's "cann::" rows
# are CANN's own allocations (the graph engine's, GE) for the task the row
# names: torch_npu's aclop path runs that task on its dequeue thread while
# the Python thread runs another operator, so charging the row to the
# operator running then put Conv2D's TransData workspace on
# aten::max_pool2d_with_indices (npu_text0: 97 MiB of its 165 MiB).  A
# cann:: row goes to a row of its own, the task's name without its
# instance number (cann::trans_TransData_16 -> cann::trans_TransData,
# cann::ReduceSum7_in_1 -> cann::ReduceSum7); the database (OP_MEMORY,
# names without "cann::") does the same.
#
# Hand-made trace_view.json, times in us: ProfilerStep#1 [0, 720) on the
# Python thread 10 > aten::max_pool2d_with_indices [100, 400); the dequeue
# thread 20 runs Dequeue@Conv2D [150, 300); one task on stream 2.
# operator_memory.csv: aten::max_pool2d_with_indices 512 KB at 120 (its
# own), cann::trans_TransData_16 1024 KB at 160, cann::trans_TransData_17
# 2048 KB at 170, cann::ReduceSum7_in_1 256 KB at 180, each released by
# 350.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "CANN's allocations" "no python3"
    echo "1..$T_N"
    exit 0
fi

d=$T_DIR/r_ascend_pt/ASCEND_PROFILER_OUTPUT
mkdir -p "$d"
python3 - "$d" << 'PY'
import json, sys
out = sys.argv[1]
t0 = 1000000.0
def m(pid, name):
    return {"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
            "args": {"name": name}}
def x(pid, tid, name, ts, dur, cat=None, **a):
    e = {"ph": "X", "name": name, "pid": pid, "tid": tid,
         "ts": "%.3f" % (t0 + ts), "dur": dur, "args": a}
    if cat:
        e["cat"] = cat
    return e
ev = [m(1, "Python"), m(3, "Ascend Hardware"),
      x(1, 10, "ProfilerStep#1", 0, 720, "cpu_op"),
      x(1, 10, "aten::max_pool2d_with_indices", 100, 300, "cpu_op"),
      x(1, 20, "Dequeue@Conv2D", 150, 150, "dequeue"),
      x(3, 2, "Conv2D", 310, 100, None, **{"Task Type": "AI_CORE"})]
json.dump(ev, open(out + "/trace_view.json", "w"))
hdr = ("Name,Size(KB),Allocation Time(us),Release Time(us),Active Release "
       "Time(us),Duration(us),Active Duration(us),Allocation Total "
       "Allocated(MB),Allocation Total Reserved(MB),Allocation Total "
       "Active(MB),Release Total Allocated(MB),Release Total "
       "Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type\n")
rows = [("aten::max_pool2d_with_indices", 512, 120, 350),
        ("cann::trans_TransData_16", 1024, 160, 340),
        ("cann::trans_TransData_17", 2048, 170, 330),
        ("cann::ReduceSum7_in_1", 256, 180, 320)]
with open(out + "/operator_memory.csv", "w") as f:
    f.write(hdr)
    for n, kb, a, r in rows:
        f.write("%s,%s,%.3f\t,%.3f\t,,,,1.0,4.0,1.0,0.5,4.0,0.5,1,NPU:0\n"
                % (n, kb, t0 + a, t0 + r))
PY

"$PR_BIN" -q --input "$T_DIR/r_ascend_pt" --json "$T_DIR/s.json" \
    --html "$T_DIR/r.html" 2> "$T_DIR/err"
check "cann:: rows: exit 0" test $? -eq 0
check "cann:: rows: charged to their task, not to the operator running then" \
    python3 -c "
import json, sys
ops = {o['name']: o for o in json.load(open(sys.argv[1]))['runs'][0]['memory']['operators']}
mp = ops['aten::max_pool2d_with_indices']
# its own 512 KB only (before: 512 + 1024 + 2048 + 256 KB)
assert mp['self_allocation_size_bytes'] == 512 * 1024 and mp['self_allocation_count'] == 1, mp
td = ops['cann::trans_TransData']
assert td['self_allocation_size_bytes'] == 3072 * 1024 and td['self_allocation_count'] == 2, td
rs = ops['cann::ReduceSum7']
assert rs['self_allocation_size_bytes'] == 256 * 1024 and rs['self_allocation_count'] == 1, rs
assert 'cann::trans_TransData_16' not in ops and 'cann::ReduceSum7_in_1' not in ops, ops.keys()
" "$T_DIR/s.json"
check "cann:: rows: the HTML's operator table has the task's row" \
    grep -q "cann::.*trans_.*TransData" "$T_DIR/r.html"

# the shared torch_npu exports: every cann:: row of operator_memory.csv
# (OP_MEMORY's GE rows in the database) lands on a cann:: row, none on an
# aten:: operator: the cann:: rows' allocations add up to the file's
if shared_summary t0 torch_npu/text_level0 &&
    shared_summary db1 torch_npu/db_level1
then
    check "npu_text0: cann:: allocations are the file's cann:: rows, byte for byte" \
        python3 -c "
import csv, json, sys
f = csv.DictReader(open(sys.argv[2] + '/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_memory.csv'))
rows = [r for r in f if r['Name'].startswith('cann::')]
want = sum(round(float(r['Size(KB)']) * 1024) for r in rows)
ops = json.load(open(sys.argv[1]))['runs'][0]['memory']['operators']
got = sum(o['self_allocation_size_bytes'] for o in ops if o['name'].startswith('cann::'))
n = sum(o['self_allocation_count'] for o in ops if o['name'].startswith('cann::'))
assert len(rows) == 57 and n == 57 and got == want, (len(rows), n, got, want)
mp = [o for o in ops if o['name'] == 'aten::max_pool2d_with_indices'][0]
# 165 MiB before, 97 MiB of it Conv2D's TransData
assert mp['self_allocation_size_bytes'] < 70 * 2**20, mp
" "$T_DIR/t0.json" "$PR_SHARED/traces/torch_npu/text_level0"
    check "npu_db1: OP_MEMORY's GE rows go to cann:: rows on both ranks" \
        python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    ops = r['memory']['operators']
    n = sum(o['self_allocation_count'] for o in ops if o['name'].startswith('cann::'))
    assert n == 57, (r['rank'], n)
    td = [o for o in ops if o['name'] == 'cann::trans_TransData']
    assert td and td[0]['self_allocation_count'] == 28, td
" "$T_DIR/db1.json"
else
    skip "the shared torch_npu exports" "no $PR_SHARED/traces"
fi

echo "1..$T_N"
