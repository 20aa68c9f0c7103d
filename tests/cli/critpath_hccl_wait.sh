#!/bin/sh
# critpath_hccl_wait.sh - review 6 finding 1 on Ascend: an HCCL operator
# waits for its peers in Notify Wait tasks of its own, inside its span
# (torch_npu/text_level1: hcom_allReduce__586_0_1's Notify Wait waits
# 5.6 ms for rank 1 inside it).  Where the trace holds those tasks, the
# operator's gap before it starts is no peer wait: it waited for a task
# that ended just before it on another stream (the path runs through
# it), else it is idle, never communication (critpath.c peers_inside,
# as NCCL's kernels).  Where the trace holds none (an operator-level
# export: torch_npu 2023's kernel_details.csv, an op_summary, MindSpore's
# step trace), what the gap waited for is not in the trace: it stays
# communication, named "(collective wait, its tasks not read)".
# Hand-made torch_npu trace_view.json: MatMul on stream 2 [10, 510) us,
# hcom_allReduce on HCCL's group row [513, 613) or [700, 800), with or
# without its Notify Wait tasks.  The replay stays exact.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "an HCCL operator's own wait" "no python3"
    echo "1..$T_N"
    exit 0
fi

# mk DIR COLLECTIVE_START NOTIFY(0|1)
mk() {
    mkdir -p "$1/r_ascend_pt/ASCEND_PROFILER_OUTPUT"
    python3 - "$1/r_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json" \
        "$2" "$3" << 'PY'
import json, sys
c, notify = float(sys.argv[2]), sys.argv[3] == "1"
t0 = 1000000.0
def m(pid, name):
    return {"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
            "args": {"name": name}}
def x(pid, tid, name, ts, dur, **a):
    return {"ph": "X", "name": name, "pid": pid, "tid": tid,
            "ts": "%.3f" % (t0 + ts), "dur": dur, "args": a}
ev = [m(1, "Python"), m(2, "CANN"), m(3, "Ascend Hardware"), m(4, "HCCL"),
      {"ph": "M", "name": "thread_name", "pid": 4, "tid": 0,
       "args": {"name": "Group 0 Communication"}},
      {"ph": "M", "name": "thread_name", "pid": 4, "tid": 1,
       "args": {"name": "Plane 0"}},
      x(1, 10, "ProfilerStep#1", 0, 1000),
      x(3, 2, "MatMul", 10, 500, **{"Task Type": "AI_CORE"}),
      x(4, 0, "hcom_allReduce__1_0_1", c, 100)]
if notify:
    ev += [x(4, 1, "Notify_Wait", c, 80, **{"task type": "Notify_Wait",
                                            "stream id": 4}),
           x(3, 4, "Notify Wait", c, 80, **{"Task Type": "Notify Wait"})]
json.dump(ev, open(sys.argv[1], "w"))
PY
}

# parts DIR: "<replay error> <kernel> <communication> <idle> <named wait>"
parts() {
    "$PR_BIN" -q --input "$1/r_ascend_pt" --json "$1/s.json" &&
        python3 - "$1/s.json" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))["runs"][0]["critical_path"]["steps"][0]
k = s["by_kind_us"]
w = [t["us"] for t in s["top"]
     if t["name"] == "(collective wait, its tasks not read)"]
print(s["replay_error_pct"], round(k["kernel"]), round(k["communication"]),
      round(k["idle"]), round(w[0]) if w else 0)
PY
}

mk "$T_DIR/a" 513 1
set -- $(parts "$T_DIR/a")
check "tasks read, 3 us after MatMul: the replay is exact ($1%)" test "$1" = 0
check "tasks read, 3 us after MatMul: MatMul is on the path ($2 us)" \
    test "$2" -ge 490
check "tasks read, 3 us after MatMul: communication is the operator ($3 us)" \
    test "$3" -le 110

mk "$T_DIR/b" 700 1
set -- $(parts "$T_DIR/b")
check "tasks read, 190 us after MatMul: the replay is exact ($1%)" test "$1" = 0
check "tasks read, 190 us after MatMul: the wait is not communication ($3 us)" \
    test "$3" -le 110
check "tasks read, 190 us after MatMul: the wait is idle ($4 us)" \
    test "$4" -ge 600

mk "$T_DIR/c" 700 0
set -- $(parts "$T_DIR/c")
check "no tasks: the replay is exact ($1%)" test "$1" = 0
check "no tasks: the wait is named as unread ($5 us)" test "$5" -ge 600
check "no tasks: the wait stays communication ($3 us)" test "$3" -ge 700
echo "1..$T_N"
