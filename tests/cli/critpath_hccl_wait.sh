#!/bin/sh
# critpath_hccl_wait.sh - review 6 finding 1 on Ascend: an HCCL operator
# waits for its peers in Notify Wait tasks of its own, inside its span
# (torch_npu/text_level1: hcom_allReduce__586_0_1's Notify Wait waits
# 78.8 ms of its 79.1 ms inside it).  Where the trace holds those tasks, the
# operator's gap before it starts is no peer wait: it waited for a task
# that ended just before it on another stream (the path runs through
# it), else it is idle, never communication (critpath.c peers_inside,
# as NCCL's kernels).  Where the trace holds none (an operator-level
# export: torch_npu 2023's kernel_details.csv, an op_summary, MindSpore's
# step trace), what the gap waited for is not in the trace: it stays
# communication, named "(collective wait, its tasks not read)", only where
# no task of another stream ended inside it (review 22a #5: where one did,
# the operator waited for that task, its input, and the rest is idle) and
# only up to the time some collective ran (critpath_hccl_groups.sh).
# Hand-made torch_npu trace_view.json: MatMul on stream 2 [10, 510) us,
# hcom_allReduce on HCCL's group row [513, 613) or [700, 800), with or
# without its Notify Wait tasks (40 us: under half the operator, so it
# is no wait for another rank, which would take the path from the peer:
# critpath_peer_entry.sh).  The replay stays exact.
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
    ev += [x(4, 1, "Notify_Wait", c, 40, **{"task type": "Notify_Wait",
                                            "stream id": 4}),
           x(3, 4, "Notify Wait", c, 40, **{"Task Type": "Notify Wait"})]
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
check "no tasks, MatMul ends in the gap: no wait named as unread ($5 us)" \
    test "$5" = 0
check "no tasks, MatMul ends in the gap: communication is the operator ($3 us)" \
    test "$3" -le 110
check "no tasks, MatMul ends in the gap: the operator waited for it ($2 us)" \
    test "$2" -ge 490
check "no tasks, MatMul ends in the gap: the 190 us after it is idle ($4 us)" \
    test "$4" -ge 180 -a "$4" -le 200

# crit4: torch_npu's launches.  A task's launch is a torch_to_npu flow
# from the operator that launched it (its start on the Python thread);
# the reader makes it a zero-length launch, a host instant, and the task
# links to it as a CUDA kernel to its cudaLaunchKernel.  Only MindSpore's
# readers draw their launches at the operators' device starts (no host
# time), and a torch_npu trace without CANN's calls (level 0) records
# none of the host's blocking calls: those stay unlinked.  Hand-made:
# step [0, 800) us from step_trace_time.csv (device steps), HcclAllreduce
# on the Python thread at 400 with the flow to hcom_allReduce__1_0_1
# [700, 800) (its 40 us Notify Wait inside it), AscendCL@hcom_allReduce_ on
# CANN's thread [410, 700), MatMul on stream 2 [10, 110).  Linked: host
# 0-400, the launch-to-start delay 400-700 (300 us), the operator 100;
# unlinked: 700 us idle.
# mk2 DIR FLOW(0|1) CANN(0|1)
mk2() {
    mkdir -p "$1/r_ascend_pt/ASCEND_PROFILER_OUTPUT"
    python3 - "$1/r_ascend_pt/ASCEND_PROFILER_OUTPUT" "$2" "$3" << 'PY'
import json, sys
o, flow, cann = sys.argv[1], sys.argv[2] == "1", sys.argv[3] == "1"
t0, c = 1000000.0, 700.0
fid = "%d" % int((t0 + c) * 1000)  # torch_to_npu ids: the task's ts in ns
def m(pid, name):
    return {"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
            "args": {"name": name}}
def x(pid, tid, name, ts, dur, cat=None, **a):
    e = {"ph": "X", "name": name, "pid": pid, "tid": tid,
         "ts": "%.3f" % (t0 + ts), "dur": dur, "args": a}
    if cat:
        e["cat"] = cat
    return e
def fl(ph, pid, tid, ts):
    return {"ph": ph, "name": "torch_to_npu", "cat": "async_npu", "pid": pid,
            "tid": tid, "ts": "%.3f" % (t0 + ts), "id": fid, "bp": "e"}
ev = [m(1, "Python"), m(2, "CANN"), m(3, "Ascend Hardware"), m(4, "HCCL"),
      {"ph": "M", "name": "thread_name", "pid": 4, "tid": 0,
       "args": {"name": "Group 0 Communication"}},
      {"ph": "M", "name": "thread_name", "pid": 4, "tid": 1,
       "args": {"name": "Plane 0"}},
      x(1, 10, "ProfilerStep#1", 0, 800, "cpu_op"),
      x(1, 10, "HcclAllreduce", 400, 5, "cpu_op"),
      x(3, 2, "MatMul", 10, 100, **{"Task Type": "AI_CORE"}),
      x(4, 0, "hcom_allReduce__1_0_1", c, 100),
      x(4, 1, "Notify_Wait", c, 40, **{"task type": "Notify_Wait",
                                       "stream id": 4}),
      x(3, 4, "Notify Wait", c, 40, **{"Task Type": "Notify Wait"})]
if cann:
    ev.append(x(2, 20, "AscendCL@hcom_allReduce_", 410, 290, level="acl"))
if flow:
    ev += [fl("s", 1, 10, 400), fl("f", 4, 0, c)]
json.dump(ev, open(o + "/trace_view.json", "w"))
open(o + "/step_trace_time.csv", "w").write(
    "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,"
    "Free,Stage,Bubble,Communication(Not Overlapped and Exclude Receive),"
    "Preparing\n1,100,100,0,100,600,800,0,100,0\n")
PY
}

# parts2 DIR: "<replay error> <host_op> <launch> <communication> <idle>"
parts2() {
    "$PR_BIN" -q --input "$1/r_ascend_pt" --json "$1/s.json" &&
        python3 - "$1/s.json" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))["runs"][0]["critical_path"]["steps"][0]
k = s["by_kind_us"]
print(s["replay_error_pct"], round(k["host_op"]), round(k["launch"]),
      round(k["communication"]), round(k["idle"]))
PY
}

mk2 "$T_DIR/d" 1 1
set -- $(parts2 "$T_DIR/d")
check "launch linked: the replay is exact ($1%)" test "$1" = 0
check "launch linked: the host until it is on the path ($2 us)" test "$2" = 400
check "launch linked: the wait after it is its launch ($3 us)" test "$3" = 300
check "launch linked: communication is the operator ($4 us)" test "$4" = 100
check "launch linked: no idle ($5 us)" test "$5" = 0

mk2 "$T_DIR/e" 0 1
set -- $(parts2 "$T_DIR/e")
check "no flow: the replay is exact ($1%)" test "$1" = 0
check "no flow: the wait is idle ($5 us)" test "$5" = 700

mk2 "$T_DIR/f" 1 0
set -- $(parts2 "$T_DIR/f")
check "no CANN calls (level 0): the replay is exact ($1%)" test "$1" = 0
check "no CANN calls (level 0): the launch is not linked ($2 us host)" \
    test "$2" = 0
check "no CANN calls (level 0): the wait is idle ($5 us)" test "$5" = 700

# The shared traces: text_level1 rank0's first all-reduce
# (hcom_allReduce__586_0_1, 45.5 ms into the step) waited 752 us after
# its launch (HcclAllreduce's torch_to_npu flow; CANN's
# AscendCL@hcom_allReduce_ on the task queue's thread ran 840 us of it),
# not idle; before it ran the Python thread's work (22.8 ms).  Since
# review 8 #3 all of that is off the path, which enters from the peer at
# hcom_allReduce__586_3_1 (critpath_peer_entry.sh): the replay stays
# exact, no idle is left on the path, and the launch's wait is off it
# with the rest (no launch_wait_note).  text_level0 records no CANN
# call: no host work or launch on its path either.
L1=torch_npu/text_level1/rank0_ascend_pt
if shared_summary l1 "$L1"; then
    check "text_level1 rank0: exact, little idle, the launch's wait off the path" \
        python3 -c "
import json, sys
cp = json.load(open(sys.argv[1]))['runs'][0]['critical_path']
s = cp['steps'][0]
k = s['by_kind_us']
assert s['replay_error_pct'] < 0.01, s
assert k['idle'] < 1000 and k['peer_wait'] > 100000, k
assert cp['launch_wait_note'] is None, cp['launch_wait_note']
" "$T_DIR/l1.json"
else
    skip "text_level1 launches" "no $L1"
fi
L0=torch_npu/text_level0
if shared_summary l0 "$L0"; then
    check "text_level0 (no CANN calls): no host work or launch on its path" \
        python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['runs'][0]['critical_path']['steps'][0]
k = s['by_kind_us']
assert k['host_op'] == 0 and k['launch'] == 0 and k['peer_wait'] > 0, k
" "$T_DIR/l0.json"
else
    skip "text_level0 launches" "no $L0"
fi
echo "1..$T_N"
