#!/bin/sh
# npu_trace_view_steps.sh - a torch_npu trace_view.json given alone (no
# step_trace_time.csv) takes its steps on torch_npu's device basis
# (issue #30 #7): torch_npu's analysis starts a ProfilerStep's device step
# at the first NPU task launched inside it and ends it at the later of its
# last task's end and the step's host end (fwk_cann_relation_parser
# get_step_range); step_summary.basis says "npu_device".  It read the host
# window (the CUDA rule: from the previous step's device end).
#
# Hand-made trace_view.json, times in us: ProfilerStep#1 [0, 1000) and
# #2 [1000, 2000) on the Python thread; each launches aclnnAdd
# (AscendCL@aclnnAdd, a HostToDevice flow to its task, and the operator's
# torch_to_npu flow to it): step 1's task runs
# [300, 400), step 2's [1500, 2300).  Device steps: [300, 1000) = 700 us
# and [1500, 2300) = 800 us.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "trace_view device steps" "no python3"
    echo "1..$T_N"
    exit 0
fi

mkdir -p "$T_DIR/r_ascend_pt/ASCEND_PROFILER_OUTPUT"
python3 - "$T_DIR/r_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json" << 'PY'
import json, sys
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
def fl(ph, cat, name, pid, tid, ts, fid):
    e = {"ph": ph, "cat": cat, "name": name, "pid": pid, "tid": tid,
         "ts": "%.3f" % (t0 + ts), "id": fid}
    if ph == "f":
        e["bp"] = "e"
    return e
PY_, CANN, HW = 1, 2, 3
ev = [m(PY_, "Python"), m(CANN, "CANN"), m(HW, "Ascend Hardware"),
      {"ph": "M", "name": "process_labels", "pid": HW, "tid": 0,
       "args": {"labels": "NPU"}}]
# step, host start, op start, task start, task dur
for i, (s0, op, ts, dur) in enumerate([(0, 100, 300, 100),
                                       (1000, 1100, 1500, 800)]):
    hid = str(40065429664266452991 + (i << 40))
    tid = "%d" % int(round((t0 + ts) * 1000))  # torch_npu's flow id: ns
    ev += [x(PY_, 10, "ProfilerStep#%d" % (i + 1), s0, 1000, "cpu_op"),
           x(PY_, 10, "aten::add", op, 50, "cpu_op"),
           fl("s", "async_npu", "torch_to_npu", PY_, 10, op + 3, tid),
           fl("f", "async_npu", "torch_to_npu", HW, 2, ts, tid),
           x(CANN, 10, "AscendCL@aclnnAdd", op + 10, 20, None,
             **{"Thread Id": 10, "Mode": "ACL_OP", "level": "acl"}),
           fl("s", "HostToDevice", "HostToDevice" + hid, CANN, 10, op + 20,
              hid),
           x(HW, 2, "aclnnAdd_AddAiCore_Add", ts, dur, None,
             **{"Task Type": "AI_CORE", "connection_id": 11 + i}),
           fl("f", "HostToDevice", "HostToDevice" + hid, HW, 2, ts, hid)]
json.dump(ev, open(sys.argv[1], "w"))
PY

"$PR_BIN" -q --input "$T_DIR/r_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json" \
    --json "$T_DIR/s.json" 2> "$T_DIR/err"
set -- $(python3 - "$T_DIR/s.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
st = r["steps"]
print(r["step_summary"].get("basis"), len(st),
      ",".join("%g" % s["start_us"] for s in st),
      ",".join("%g" % s["duration_us"] for s in st),
      ",".join("%g" % s["host_duration_us"] for s in st))
PY
)
check "basis: npu_device ($1)" test "$1" = npu_device
check "two steps ($2)" test "$2" = 2
check "each starts at its first NPU task: 300 and 1500 us ($3)" \
    test "$3" = "300,1500"
check "they end at the host end or the last task's end: 700, 800 us ($4)" \
    test "$4" = "700,800"
check "the host windows stay beside them: 1000, 1000 us ($5)" \
    test "$5" = "1000,1000"
echo "1..$T_N"
