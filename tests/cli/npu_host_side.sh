#!/bin/sh
# npu_host_side.sh - review 25a #1, #8 and #15b: torch_npu's host side.
#
# #1: behind torch_npu's task queue (TASK_QUEUE_ENABLE) an operator is
# enqueued on the Python thread (its torch_to_npu flow leaves there) and a
# dequeue thread makes the CANN launch call (its HostToDevice flow leaves
# inside that call).  The launch delay, the device queue and the slowest
# launch are the dequeue thread's launch; the enqueue-to-launch time is
# the task queue's wait, reported apart (launches.task_queue_wait_us).
# #8: where the steps are the producer's (step_trace_time.csv, the .db's
# device steps), a step's host interval is still the host's ProfilerStep.
# #15b: operator_memory.csv names no thread: a row goes on the thread of
# the operator running then (the backward's own thread), not the step's.
#
# Hand-made trace_view.json, times in us: ProfilerStep#1 [0, 720) on the
# Python thread 10; aten::add [100, 110) (torch_to_npu at 103), aten::mul
# [120, 130) (at 123); the dequeue thread 20 calls AscendCL@aclnnAdd [280,
# 300) (HostToDevice at 290) and AscendCL@aclnnMul [580, 600) (at 590);
# on stream 2 add runs [305, 405), mul [610, 710).  So the launch delays
# (task start - call end) are 5 and 10 us, the task-queue waits (torch_to_
# npu to HostToDevice) 187 and 467 us, the device queue never holds more
# than 1, and the device's gap [405, 610) waits for mul's launch at 590
# (before: 202/487 us delays from the enqueue, a queue of 2 and that gap
# "other", as mul was enqueued at 123).  The backward thread 30 runs AddmmBackward0 [400, 500) > aten::mm
# [405, 450) > empty_tensor [410, 420), which allocates 1 MiB at 415.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "torch_npu's host side" "no python3"
    echo "1..$T_N"
    exit 0
fi

# mk DIR [level1|level0|notq] [stt]: level0 records no CANN call (the
# HostToDevice flow leaves from an unnamed process, text_level0); notq has
# no HostToDevice flow (no task queue to tell apart); stt adds
# step_trace_time.csv (the producer's device step, 405 us from 305) and
# operator_memory.csv
mk() {
    mkdir -p "$1/r_ascend_pt/ASCEND_PROFILER_OUTPUT"
    python3 - "$1/r_ascend_pt/ASCEND_PROFILER_OUTPUT" "${2:-level1}" \
        "${3:-}" << 'PY'
import json, sys
out, mode, stt = sys.argv[1], sys.argv[2], sys.argv[3] == "stt"
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
def ns(us):
    return "%d" % int(round((t0 + us) * 1000))
PY_, CANN, HW = 1, 2, 3
ev = [m(PY_, "Python"), m(CANN, "CANN"), m(HW, "Ascend Hardware"),
      x(PY_, 10, "ProfilerStep#1", 0, 720, "cpu_op"),
      x(PY_, 30, "AddmmBackward0", 400, 100, "cpu_op"),
      x(PY_, 30, "aten::mm", 405, 45, "cpu_op"),
      x(PY_, 30, "empty_tensor", 410, 10, "cpu_op")]
# op, enqueue, dequeue [a, b), launch call start, task start
for i, (op, q, a, b, ls, ts) in enumerate([("add", 100, 110, 300, 280, 305),
                                           ("mul", 120, 300, 600, 580, 610)]):
    Op = op.capitalize()
    hid = str(40065429664266452991 + (i << 40))
    ev += [x(PY_, 10, "aten::" + op, q, 10, "cpu_op"),
           fl("s", "async_npu", "torch_to_npu", PY_, 10, q + 3, ns(ts)),
           x(PY_, 20, "Dequeue@aclnn" + Op, a, b - a, "dequeue"),
           x(HW, 2, "aclnn%s_%sAiCore_%s" % (Op, Op, Op), ts, 100, None,
             **{"Task Type": "AI_CORE"}),
           fl("f", "async_npu", "torch_to_npu", HW, 2, ts, ns(ts))]
    if mode != "notq":
        ev += [fl("s", "HostToDevice", "HostToDevice" + hid,
                  4 if mode == "level0" else CANN, 20, ls + 10, hid),
               fl("f", "HostToDevice", "HostToDevice" + hid, HW, 2, ts, hid)]
    if mode != "level0":
        ev.append(x(CANN, 20, "AscendCL@aclnn" + Op, ls, 20, None,
                    **{"Thread Id": 20, "Mode": "ACL_OP", "level": "acl"}))
json.dump(ev, open(out + "/trace_view.json", "w"))
if stt:
    open(out + "/step_trace_time.csv", "w").write(
        "Step,Computing,Communication(Not Overlapped),Overlapped,"
        "Communication,Free,Stage,Bubble,Communication(Not Overlapped and "
        "Exclude Receive),Preparing\n1,200,0,0,0,205,405,0,0,305\n")
    hdr = ("Name,Size(KB),Allocation Time(us),Release Time(us),Active Release "
           "Time(us),Duration(us),Active Duration(us),Allocation Total "
           "Allocated(MB),Allocation Total Reserved(MB),Allocation Total "
           "Active(MB),Release Total Allocated(MB),Release Total "
           "Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type\n")
    rows = [("aten::add", 512, 105, 700, 0.5, 0.0),
            ("aten::mm", 1024, 415, None, 1.5, None)]
    with open(out + "/operator_memory.csv", "w") as f:
        f.write(hdr)
        for n, kb, a, r, ta, tr in rows:
            f.write("%s,%s,%.3f\t,%s,,,,%s,4.0,%s,%s,%s,%s,1,NPU:0\n" % (
                n, kb, t0 + a, "" if r is None else "%.3f\t" % (t0 + r),
                ta, ta, "" if tr is None else tr,
                "" if r is None else "4.0", "" if tr is None else tr))
PY
}

# field JSON PYEXPR: the value of PYEXPR over run r
field() {
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
v = eval(sys.argv[2])
print('null' if v is None else (round(v, 3) if isinstance(v, float) else v))
" "$1" "$2"
}

mk "$T_DIR/l1"
"$PR_BIN" -q --input "$T_DIR/l1/r_ascend_pt" --json "$T_DIR/l1/s.json" \
    --html "$T_DIR/l1/r.html"
j=$T_DIR/l1/s.json
check "launch delay from the dequeue thread's CANN call: median 10 us" \
    test "$(field "$j" "r['launches']['launch_delay_us']['median']")" = 10
check "launch delay: max 10 us, not 487 from the enqueue" \
    test "$(field "$j" "r['launches']['launch_delay_us']['max']")" = 10
check "task-queue wait: enqueue to launch, median 467 us" \
    test "$(field "$j" "r['launches']['task_queue_wait_us']['median']")" = 467
check "task-queue wait: mean of 187 and 467 us" \
    test "$(field "$j" "r['launches']['task_queue_wait_us']['mean']")" = 327
check "device queue from the launch: at most 1, not 2" \
    test "$(field "$j" "r['launches']['queue_length'][0]['max']")" = 1
check "slowest launch is the CANN call, 20 us" \
    test "$(field "$j" "r['launches']['slowest_launch']['name'] + ' ' + \
str(r['launches']['slowest_launch']['duration_us'])")" = \
    "AscendCL@aclnnAdd 20"
check "the gap before mul waits for its launch at 590: none is 'other'" \
    test "$(field "$j" "r['temporal_breakdown'][0]['idle_other_us']")" = 0
check "the step's idle (305 + 205 + 10 us) all waits for the host" \
    test "$(field "$j" "r['temporal_breakdown'][0]['idle_host_wait_us']")" \
    = 520
check "HTML: the task-queue wait is told apart, 467 µs" \
    grep -q 'Operators waited a median 467 µs in it' "$T_DIR/l1/r.html"

mk "$T_DIR/l0" level0
"$PR_BIN" -q --input "$T_DIR/l0/r_ascend_pt" --json "$T_DIR/l0/s.json"
j=$T_DIR/l0/s.json
check "level 0 (no CANN call): launch delay from the flow, median 20 us" \
    test "$(field "$j" "r['launches']['launch_delay_us']['median']")" = 20
check "level 0: task-queue wait median 467 us" \
    test "$(field "$j" "r['launches']['task_queue_wait_us']['median']")" = 467
check "level 0: no launch call to name as the slowest" \
    test "$(field "$j" "r['launches']['slowest_launch']")" = null

mk "$T_DIR/nq" notq
"$PR_BIN" -q --input "$T_DIR/nq/r_ascend_pt" --json "$T_DIR/nq/s.json" \
    --html "$T_DIR/nq/r.html"
j=$T_DIR/nq/s.json
check "no HostToDevice flow: no task-queue wait" \
    test "$(field "$j" "r['launches']['task_queue_wait_us']")" = null
check "no HostToDevice flow: the delay is from the operator's launch" \
    test "$(field "$j" "r['launches']['launch_delay_us']['median']")" = 487
check "no HostToDevice flow: no task-queue figure in the HTML" \
    sh -c "! grep -q 'Operators waited a median' '$T_DIR/nq/r.html'"

# #8 and #15b: the producer's steps and its operator_memory.csv
mk "$T_DIR/st" level1 stt
"$PR_BIN" -q --input "$T_DIR/st/r_ascend_pt" --json "$T_DIR/st/s.json"
j=$T_DIR/st/s.json
check "producer steps: the step is the device's, 405 us" \
    test "$(field "$j" "r['steps'][0]['duration_us']")" = 405
check "producer steps: its host time is ProfilerStep#1's 720 us, not 405" \
    test "$(field "$j" "r['steps'][0]['host_duration_us']")" = 720
check "producer steps: host mean 720 us" \
    test "$(field "$j" "r['step_summary']['host_mean_us']")" = 720
check "memory: the backward thread's allocation is inside an operator" \
    test "$(field "$j" "r['memory']['devices'][0][\
'live_at_peak_outside_operators_bytes']")" = 0
check "memory: named by the operator that called empty_tensor" \
    test "$(field "$j" "r['memory']['devices'][0][\
'top_allocators_at_peak'][0]['name']")" = "aten::mm (empty_tensor)"

# the shared torch_npu exports: AlexNet's backward allocations (234 MiB of
# weight-gradient-sized tensors made under AddmmBackward0's aten::mm) are
# inside operators; the host step is the ProfilerStep (151,888.75 us in
# ascend_pytorch_profiler_0.db; 155,985.8 in text_level1's trace_view)
if shared_summary db1 torch_npu/db_level1 &&
    shared_summary t1 torch_npu/text_level1 &&
    shared_summary tv msprof/torch_npu_ascend_profiler_output/trace_view.json
then
    check "npu_db1: host step 151888.75 us" \
        test "$(field "$T_DIR/db1.json" \
            "r['steps'][0]['host_duration_us']")" = 151888.75
    check "npu_text1: host step 155985.8 us" \
        test "$(field "$T_DIR/t1.json" \
            "r['steps'][0]['host_duration_us']")" = 155985.8
    check "npu_db1: nothing live at the peak outside operators" \
        test "$(field "$T_DIR/db1.json" "r['memory']['devices'][0][\
'live_at_peak_outside_operators_bytes']")" = 0
    check "npu_text1: nothing live at the peak outside operators" \
        test "$(field "$T_DIR/t1.json" "r['memory']['devices'][0][\
'live_at_peak_outside_operators_bytes']")" = 0
    check "trace_view: the device queue from the ACL launch is at most 4" \
        test "$(field "$T_DIR/tv.json" \
            "r['launches']['queue_length'][0]['max']")" -le 4
    check "trace_view: task-queue wait median 2327 us" \
        test "$(field "$T_DIR/tv.json" \
            "int(r['launches']['task_queue_wait_us']['median'])")" = 2327
    check "trace_view: 87% of the device's idle waits for the host" \
        test "$(field "$T_DIR/tv.json" \
            "int(r['launches']['gpu_idle_host_wait_pct'])")" = 86
else
    skip "the shared torch_npu traces" "no $PR_SHARED/traces"
fi

echo "1..$T_N"
