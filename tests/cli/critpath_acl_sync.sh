#!/bin/sh
# critpath_acl_sync.sh - the critical path of a CANN 8 msprof timeline
# (hunt31 #2; critpath.c waited_for, bookkeeping).
#
# Hand-made PROF_ folder (mindstudio_profiler_output/msprof_*.json, as
# CANN 8's msprof writes it): a bookkeeping stream (PROFILING_ENABLE at
# 0, TASK_TIMEOUT_SET, EVENT_RECORD, PROFILING_DISABLE at 1 s), three
# 70 ms MIX_AIC kernels on another stream, each launched (Node@launch +
# Runtime@KernelLaunch, linked by connection_id) and waited for by one
# aclrtSynchronizeDeviceWithTimeout that returns 200 us before the
# kernel's recorded end (the device clock read against the host's, as in
# CANN 8's exports), msprof's Overlap Analysis rows (Computing, Free) for
# the same spans, and stream management around them
# (aclrtSetOpExecuteTimeOut 1.2 ms, aclrtCreateStreamWithConfig 3 ms,
# aclrtDestroyStreamForce 2.5 ms).
#
# 1. Each sync call hands the path to its kernel: kernel >= 209 ms on the
#    path (210 ms less the 3 x 200 us skew), sync_wait under 1 ms.
# 2. The bookkeeping tasks never anchor the path: none of them is on it.
# 3. The same export without the bookkeeping stream (its path runs
#    through the host's calls): the sync calls still hand the path to the
#    kernels (main read sync_wait 209.7 ms, kernel 0 there).
# 4. Sync calls that end after their kernels (no skew) give the same.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "acl sync path" "no python3"
    echo "1..$T_N"
    exit 0
fi

# export_cann8 DIR SKEW_US BOOK: the PROF_ folder under DIR (BOOK 0:
# without the bookkeeping stream)
export_cann8() {
    python3 - "$@" << 'PY'
import json, os, sys
d = os.path.join(sys.argv[1], "PROF_000001_20260101000000000_TESTAAAAAAAAAAAA",
                 "mindstudio_profiler_output")
os.makedirs(d)
skew, book = float(sys.argv[2]), sys.argv[3] == "1"
HOST, DEV, OVL, T0 = 100, 200, 300, 1700000000000000.0
ev = [{"ph": "M", "name": "process_name", "pid": HOST, "tid": 0,
       "args": {"name": "CANN"}},
      {"ph": "M", "name": "thread_name", "pid": HOST, "tid": 7,
       "args": {"name": "Thread 7"}},
      {"ph": "M", "name": "process_name", "pid": DEV, "tid": 0,
       "args": {"name": "Ascend Hardware"}},
      {"ph": "M", "name": "thread_name", "pid": DEV, "tid": 1,
       "args": {"name": "Stream 1"}},
      {"ph": "M", "name": "thread_name", "pid": DEV, "tid": 2,
       "args": {"name": "Stream 2"}},
      {"ph": "M", "name": "process_name", "pid": OVL, "tid": 0,
       "args": {"name": "Overlap Analysis"}},
      {"ph": "M", "name": "thread_name", "pid": OVL, "tid": 2,
       "args": {"name": "Computing"}},
      {"ph": "M", "name": "thread_name", "pid": OVL, "tid": 3,
       "args": {"name": "Free"}}]
cid = [0]
def x(pid, tid, ts, dur, name, **a):
    cid[0] += 1
    a.setdefault("connection_id", cid[0])
    ev.append({"ph": "X", "pid": pid, "tid": tid, "ts": "%.3f" % (T0 + ts),
               "dur": dur, "name": name, "args": a})
def task(tid, ts, dur, name, tt, conn):
    if tid == 1 and not book:
        return
    x(DEV, tid, ts, dur, name, **{"Task Type": tt, "Stream Id": tid,
                                  "Physic Stream Id": tid, "Task Id": conn,
                                  "Batch Id": 0, "Subtask Id": 4294967295,
                                  "connection_id": conn})
task(1, 0, 0.02, "PROFILING_ENABLE", "PROFILING_ENABLE", 900)
x(HOST, 7, 100, 1200, "AscendCL@aclrtSetOpExecuteTimeOut")
task(1, 1200, 80, "TASK_TIMEOUT_SET", "TASK_TIMEOUT_SET", 901)
x(HOST, 7, 1500, 3000, "AscendCL@aclrtCreateStreamWithConfig")
x(HOST, 7, 1510, 2980, "Runtime@StreamCreate")
for i in range(3):
    t = 10000 + 80000 * i
    conn = 50 + i
    x(HOST, 7, t, 150, "Node@launch", item_id="main_kernel",
      connection_id=conn)
    x(HOST, 7, t + 3, 140, "Runtime@KernelLaunch")
    # the call returns `skew` us before the kernel's recorded end
    x(HOST, 7, t + 200, 70100 - skew,
      "AscendCL@aclrtSynchronizeDeviceWithTimeout")
    x(HOST, 7, t + 202, 70096 - skew, "Runtime@DeviceSynchronize")
    task(2, t + 300, 70000, "main_kernel", "MIX_AIC", conn)
    # msprof's Overlap Analysis draws the same spans
    ev.append({"ph": "X", "pid": OVL, "tid": 2, "ts": "%.3f" % (T0 + t + 300),
               "dur": 70000, "name": "Computing", "args": {}})
    ev.append({"ph": "X", "pid": OVL, "tid": 3,
               "ts": "%.3f" % (T0 + t + 70300), "dur": 10000,
               "name": "Free", "args": {}})
x(HOST, 7, 250000, 2500, "AscendCL@aclrtDestroyStreamForce")
x(HOST, 7, 250005, 2490, "Runtime@StreamDestroy")
task(1, 253000, 1.5, "EVENT_RECORD", "EVENT_RECORD", 903)
task(1, 1000000, 0.02, "PROFILING_DISABLE", "PROFILING_DISABLE", 902)
json.dump(ev, open(os.path.join(d, "msprof_20260101000000.json"), "w"))
PY
}

# facts SUMMARY: "<kernel us> <sync us> <launch us> <bookkeeping on the
# path>"
facts() {
    python3 - "$1" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
cp = r["critical_path"]
k = cp["by_kind_us"]
top = [t for s in cp["steps"] for t in s["top"]]
book = any(t["name"] in ("PROFILING_ENABLE", "PROFILING_DISABLE",
                         "TASK_TIMEOUT_SET", "EVENT_RECORD") for t in top)
print(round(k["kernel"]), round(k["sync_wait"]), round(k["launch"]), book)
PY
}

mkdir "$T_DIR/skew" "$T_DIR/nobook" "$T_DIR/even"
export_cann8 "$T_DIR/skew" 200 1
"$PR_BIN" -q --input "$T_DIR"/skew/PROF_* --json "$T_DIR/skew.json" \
    2> "$T_DIR/skew.err"
check "the CANN 8 export is read (rc 0)" test $? -eq 0
set -- $(facts "$T_DIR/skew.json")
check "each sync call hands the path to its kernel: kernel $1 us >= 209000" \
    test "$1" -ge 209000
check "the sync calls' wait is the kernels' time: sync_wait $2 us < 1000" \
    test "$2" -lt 1000
check "no bookkeeping task (PROFILING_*, TASK_TIMEOUT_SET) on the path" \
    test "$4" = False
"$PR_BIN" table --kind critical-path --input "$T_DIR"/skew/PROF_* \
    > "$T_DIR/skew.table" 2> /dev/null
check "table --kind critical-path: the kernels' 210 ms on the path" \
    grep -q ' 210 ms ' "$T_DIR/skew.table"

# without the bookkeeping stream the path runs through the host's calls
export_cann8 "$T_DIR/nobook" 200 0
"$PR_BIN" -q --input "$T_DIR"/nobook/PROF_* --json "$T_DIR/nobook.json" \
    2> "$T_DIR/nobook.err"
set -- $(facts "$T_DIR/nobook.json")
check "no bookkeeping stream: kernel $1 us >= 209000 on the path" \
    test "$1" -ge 209000
check "no bookkeeping stream: sync_wait $2 us < 1000" test "$2" -lt 1000

export_cann8 "$T_DIR/even" -100 1
"$PR_BIN" -q --input "$T_DIR"/even/PROF_* --json "$T_DIR/even.json" \
    2> "$T_DIR/even.err"
set -- $(facts "$T_DIR/even.json")
check "sync calls that end after their kernels: kernel $1 us >= 209000" \
    test "$1" -ge 209000

echo "1..$T_N"
