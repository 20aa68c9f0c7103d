#!/bin/sh
# diff_hccl_names.sh - issue #30 #5: HCCL names an operation
# hcom_<op>__<group>_<index>_<n>, <group> the last three digits of its
# communication group's hash, which differs from run to run (the group's
# name holds host, port and time).  `profreport diff` pairs such
# operations by the name without that number: two runs of one program
# show no new or vanished collective, each pair one row
# "hcom_allReduce__*_0_1" with both full names.  Before, text_level1 vs
# text_level2 listed its 4 allReduces as 4 new and 4 vanished.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "diff of HCCL names" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import sys
H = ("Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,"
     "Start Time(us),Duration(us),Wait Time(us),Block Dim\n")
def row(n, ty, core, ts, dur):
    na = core == "HCCL"
    return "1,4294967295,%s,%s,%s,%s,%s,%.1f,%.2f,0,8\n" % (
        "N/A" if na else "1", "N/A" if na else "16", n, ty, core,
        1699529622000000 + ts, dur)
d = sys.argv[1]
for side, grp, slow in (("base", 586, 500), ("cur", 271, 600)):
    s = H + row("MatMul0", "MatMul", "AI_CORE", 0, 1000)
    s += row("hcom_allReduce__%d_0_1" % grp, "hcom_allReduce_", "HCCL", 1100, slow)
    s += row("MatMul1", "MatMul", "AI_CORE", 1800, 1000)
    s += row("hcom_allReduce__%d_1_1" % grp, "hcom_allReduce_", "HCCL", 2900, 100)
    open("%s/%s_kernel_details.csv" % (d, side), "w").write(s)
PY
# (exit 4: no step, so the default gate compares nothing: inconclusive)
"$PR_BIN" diff -q --json "$T_DIR/d.json" "$T_DIR/base_kernel_details.csv" \
    "$T_DIR/cur_kernel_details.csv" 2> "$T_DIR/d.err"
"$PR_BIN" diff "$T_DIR/base_kernel_details.csv" \
    "$T_DIR/cur_kernel_details.csv" > "$T_DIR/d.txt" 2> /dev/null
check "diff of two task lists writes its JSON and its text" \
    sh -c "[ -s '$T_DIR/d.json' ] && grep -q '^Baseline base_kernel_details.csv' '$T_DIR/d.txt'"
check "the allReduces pair across group numbers: none new or vanished" \
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
def rows(o):
    if isinstance(o, dict):
        if 'name' in o and 'status' in o:
            yield o
        for v in o.values():
            yield from rows(v)
    elif isinstance(o, list):
        for v in o:
            yield from rows(v)
rs = [r for r in rows(d) if 'hcom' in str(r.get('name'))]
assert rs, 'no hcom rows'
assert all(r['status'] == 'both' for r in rs), [(r['name'], r['status']) for r in rs]
r0 = [r for r in rs if r['name'] == 'hcom_allReduce__*_0_1']
assert r0 and r0[0]['baseline_name'] == 'hcom_allReduce__586_0_1' and \
    r0[0]['current_name'] == 'hcom_allReduce__271_0_1', r0
" "$T_DIR/d.json"
check "the text report: one row per pair, no new or vanished hcom row" \
    sh -c "grep -Eq '^hcom_allReduce__\\*_0_1 +1 -> 1 ' '$T_DIR/d.txt' &&
           ! grep -E '^hcom_allReduce__(586|271)_' '$T_DIR/d.txt'"
echo "1..$T_N"
