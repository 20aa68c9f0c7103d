#!/bin/sh
# critpath_hccl_groups.sh - review 22a finding 5: torch_npu's
# kernel_details.csv writes Stream ID "N/A" on its HCCL rows.  Read as one
# stream, a collective of one communicator (hcom_allReduce__935_1) waited
# in stream order for another's (hcom_allReduce__328_2), and the gap
# between them read as communication: kernel_details_910B_v1.csv's path
# held 388.8 ms of communication where its 19 collectives ran 346.4 ms,
# 54.3 ms of it "(collective wait, its tasks not read)".  Now each
# communicator (the number after the name's double underscore) is a row
# of its own, a collective whose tasks the export does not hold waited for
# the last task of another stream to end in its gap (its input), the rest
# idle, and the path's communication is at most the time some collective
# ran (the invariant, critpath.c comm_within_collectives).
# Hand-made: MatMul0 [0, 1000) on stream 16, hcom_allReduce__1_0
# [1100, 1600), hcom_allReduce__2_0 [1650, 1700), MatMul1 [1800, 5000),
# hcom_allReduce__1_1 [10000, 10500), MatMul2 [10510, 11500); and two
# collectives of one communicator alone, 9.9 ms apart.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "HCCL communicators on the critical path" "no python3"
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
s = H + row("MatMul0", "MatMul", "AI_CORE", 0, 1000)
s += row("hcom_allReduce__1_0", "hcom_allReduce_", "HCCL", 1100, 500)
s += row("hcom_allReduce__2_0", "hcom_allReduce_", "HCCL", 1650, 50)
s += row("MatMul1", "MatMul", "AI_CORE", 1800, 3200)
s += row("hcom_allReduce__1_1", "hcom_allReduce_", "HCCL", 10000, 500)
s += row("MatMul2", "MatMul", "AI_CORE", 10510, 990)
open(d + "/groups_kernel_details.csv", "w").write(s)
s = H + row("hcom_allReduce__1_0", "hcom_allReduce_", "HCCL", 0, 100)
s += row("hcom_allReduce__1_1", "hcom_allReduce_", "HCCL", 10000, 100)
open(d + "/alone_kernel_details.csv", "w").write(s)
PY

# split CSV JSON: "<replay error> <kernel> <communication> <idle> <unread
# wait> <union of the CSV's HCCL rows>" (us)
split() {
    "$PR_BIN" -q --input "$1" --json "$2" 2> /dev/null &&
        python3 - "$1" "$2" << 'PY'
import csv, json, sys
rows = {(r["Name"], r["Start Time(us)"]): r for r in csv.DictReader(open(sys.argv[1]))
        if r["Accelerator Core"] == "HCCL"}
sp = sorted((float(r["Start Time(us)"]),
             float(r["Start Time(us)"]) + float(r["Duration(us)"]))
            for r in rows.values())
u, cs, ce = 0.0, None, None
for a, b in sp:
    if ce is None or a > ce:
        u += (ce - cs) if ce is not None else 0
        cs, ce = a, b
    else:
        ce = max(ce, b)
u += (ce - cs) if ce is not None else 0
s = json.load(open(sys.argv[2]))["runs"][0]["critical_path"]["steps"][0]
k = s["by_kind_us"]
w = [t["us"] for t in s["top"]
     if t["name"] == "(collective wait, its tasks not read)"]
print(s["replay_error_pct"], round(k["kernel"]), round(k["communication"]),
      round(k["idle"]), round(w[0]) if w else 0, round(u))
PY
}

set -- $(split "$T_DIR/groups_kernel_details.csv" "$T_DIR/groups.json")
check "two communicators: the replay is exact ($1%)" test "$1" = 0
check "two communicators: the path's communication ($3 us) <= the collectives' union ($6 us)" \
    test "$3" -le "$6"
check "two communicators: hcom_allReduce__1_1 waited for MatMul1, not for hcom_allReduce__2_0 (kernels $2 us)" \
    test "$2" -ge 5190
check "two communicators: no wait named as unread ($5 us)" test "$5" = 0
check "two communicators: the 5 ms after MatMul1 is idle ($4 us)" \
    test "$4" -ge 5000

set -- $(split "$T_DIR/alone_kernel_details.csv" "$T_DIR/alone.json")
check "one communicator alone: the replay is exact ($1%)" test "$1" = 0
check "one communicator alone: communication ($3 us) <= the collectives' union ($6 us)" \
    test "$3" -le "$6"
check "one communicator alone: the 9.9 ms no collective ran is idle ($4 us)" \
    test "$4" -ge 9800

if have_shared &&
    [ -e "$PR_SHARED/traces/msprof/torch_npu_ascend_profiler_output/kernel_details_910B_v1.csv" ]; then
    set -- $(split "$PR_SHARED/traces/msprof/torch_npu_ascend_profiler_output/kernel_details_910B_v1.csv" "$T_DIR/v1.json")
    check "kernel_details_910B_v1: the path's communication ($3 us) <= its 19 collectives' union ($6 us)" \
        test "$3" -le "$6"
    check "kernel_details_910B_v1: no wait named as unread ($5 us; was 54254)" \
        test "$5" = 0
    check "kernel_details_910B_v1: without hcom_broadcast__445_0, communication 18% of the path, as its other collectives' 37.5 ms" \
        python3 -c "
import json, sys
t = json.load(open(sys.argv[1]))['runs'][0]['verdict']['text']
assert 'Without it, the capture\'s critical path (208.0 ms) is idle 59%, compute tasks 23%, communication 18%.' in t, t
" "$T_DIR/v1.json"
else
    skip "kernel_details_910B_v1" "no ../shared"
fi
echo "1..$T_N"
