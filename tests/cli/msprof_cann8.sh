#!/bin/sh
# msprof_cann8.sh - CANN >= 7's msprof export (hunt31 defects 1, 5): an
# msprof_*.json of mindstudio_profiler_output/ given alone, or that
# folder, is msprof's timeline (its "Ascend Hardware" tasks, its
# AscendCL@/Runtime@/Node@ host calls), not a MegEngine profile, though
# its Runtime@KernelLaunch calls carry "Mode": "KernelLaunch"; the
# folder is its PROF_ run, one run.  The runtime's own tasks
# (PROFILING_ENABLE/DISABLE, TASK_TIMEOUT_SET; EVENT_RECORD a stream's
# sync) are not kernels: the workload launched one kernel here.  Its
# HostToDevice flow links the task to the host call that launched it
# (hunt31 defect 6).
. "$PR_SRCDIR/tests/lib.sh"

P=$T_DIR/PROF_000001_20260605210244379_ABCDEFGHIJKLMNOP
O=$P/mindstudio_profiler_output
mkdir -p "$O"
J=$O/msprof_20260605210309.json
# the shape of CANN 8.x's msprof timeline: the device tasks first, then
# the flows, the metadata, the host layers (times in us, as strings)
cat > "$J" <<'JSON'
[
  {"args": {"Model Id": 4294967295, "Physic Stream Id": 1356, "Task Id": 4,
    "Task Type": "PROFILING_ENABLE", "connection_id": 84},
   "dur": 0.02, "name": "PROFILING_ENABLE", "ph": "X", "pid": 2735154592,
   "tid": 1356, "ts": "1780693364893812.120"},
  {"args": {"Model Id": 4294967295, "Physic Stream Id": 1356, "Task Id": 5,
    "Task Type": "TASK_TIMEOUT_SET", "connection_id": 6},
   "dur": 83.46, "name": "TASK_TIMEOUT_SET", "ph": "X", "pid": 2735154592,
   "tid": 1356, "ts": "1780693364904725.440"},
  {"args": {"Model Id": 4294967295, "Physic Stream Id": 1356, "Task Id": 6,
    "Task Type": "EVENT_RECORD", "connection_id": 6},
   "dur": 0.0, "name": "EVENT_RECORD", "ph": "X", "pid": 2735154592,
   "tid": 1356, "ts": "1780693364904808.920"},
  {"args": {"Model Id": 4294967295, "Physic Stream Id": 1358, "Task Id": 0,
    "Task Type": "MIX_AIC", "connection_id": 33},
   "dur": 71233.88, "name": "main_kernel", "ph": "X", "pid": 2735154592,
   "tid": 1358, "ts": "1780693380125805.120"},
  {"bp": "e", "cat": "HostToDevice", "id": "141733920768",
   "name": "HostToDevice141733920768", "ph": "f", "pid": 2735154592,
   "tid": 1358, "ts": "1780693380125805.120"},
  {"args": {"Model Id": 4294967295, "Physic Stream Id": 1356, "Task Id": 7,
    "Task Type": "PROFILING_DISABLE", "connection_id": 85},
   "dur": 0.02, "name": "PROFILING_DISABLE", "ph": "X", "pid": 2735154592,
   "tid": 1356, "ts": "1780693380779465.400"},
  {"args": {"name": "Ascend Hardware"}, "name": "process_name", "ph": "M",
   "pid": 2735154592, "tid": 0},
  {"args": {"name": "CANN"}, "name": "process_name", "ph": "M",
   "pid": 2735154560, "tid": 0},
  {"args": {"name": "Stream 1358"}, "name": "thread_name", "ph": "M",
   "pid": 2735154592, "tid": 1358},
  {"args": {"name": "Thread 2991"}, "name": "thread_name", "ph": "M",
   "pid": 2735154560, "tid": 2991},
  {"args": {"Thread Id": 2991, "Mode": "ACL_RTS", "level": "acl",
    "id": "aclrtSetDevice", "item_id": "0", "connection_id": 1},
   "dur": 120.5, "name": "AscendCL@aclrtSetDevice", "ph": "X",
   "pid": 2735154560, "tid": 2991, "ts": "1780693364800000.000"},
  {"args": {"Thread Id": 2991, "Mode": "launch", "level": "node",
    "id": "launch", "item_id": "main_kernel", "connection_id": 33},
   "dur": 162.9, "name": "Node@launch", "ph": "X", "pid": 2735154560,
   "tid": 2991, "ts": "1780693380125427.870"},
  {"args": {"Thread Id": 2991, "Mode": "KernelLaunch", "level": "runtime",
    "id": "KernelLaunch", "item_id": "0", "connection_id": 34},
   "dur": 40.1, "name": "Runtime@KernelLaunch", "ph": "X",
   "pid": 2735154560, "tid": 2991, "ts": "1780693380125500.000"},
  {"cat": "HostToDevice", "id": "141733920768",
   "name": "HostToDevice141733920768", "ph": "s", "pid": 2735154560,
   "tid": 2991, "ts": "1780693380125427.870"},
  {"args": {"Thread Id": 2991, "Mode": "ACL_RTS", "level": "acl",
    "id": "aclrtSynchronizeStream", "item_id": "0", "connection_id": 40},
   "dur": 71400.0, "name": "AscendCL@aclrtSynchronizeStream", "ph": "X",
   "pid": 2735154560, "tid": 2991, "ts": "1780693380125700.000"}
]
JSON

kernels() { # kernels() SUMMARY: "name:count" of runs[0].kernels, one a line
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in d['runs'][0].get('kernels') or []:
    print('%s:%s' % (k['name'], k['calls']))
PY
}

if ! command -v python3 >/dev/null 2>&1; then
    skip "CANN 8 msprof json" "no python3"
    echo "1..$T_N"
    exit 0
fi

# 1. the json alone: msprof's timeline, one kernel
"$PR_BIN" -q --input "$J" --json "$T_DIR/alone.json" 2> "$T_DIR/alone.err"
rc=$?
check "the msprof_*.json alone is read (rc $rc)" test "$rc" -eq 0
check "read as msprof, not MegEngine" python3 -c "
import json, sys
d = json.load(open('$T_DIR/alone.json'))
sys.exit(d['inputs'][0]['format'] != 'msprof')"
check "no MegEngine words" sh -c "! grep -qi megengine '$T_DIR/alone.json'"
check "the one kernel is main_kernel (bookkeeping tasks are not kernels)" \
    test "$(kernels "$T_DIR/alone.json")" = "main_kernel:1"

# 2. the mindstudio_profiler_output/ folder: its PROF_ run, one run
"$PR_BIN" -q --input "$O" --json "$T_DIR/mso.json" 2> "$T_DIR/mso.err"
rc=$?
check "mindstudio_profiler_output/ is read (rc $rc)" test "$rc" -eq 0
check "one run, msprof's" python3 -c "
import json, sys
d = json.load(open('$T_DIR/mso.json'))
sys.exit(not (len(d['runs']) == 1 and d['inputs'][0]['format'] == 'msprof'))"
check "the folder gives the same kernels" \
    test "$(kernels "$T_DIR/mso.json")" = "main_kernel:1"
"$PR_BIN" --input "$O" > "$T_DIR/mso.term" 2> /dev/null
check "no job line of a fake second rank, no nan%" \
    sh -c "! grep -q 'nan%\|ranks, no steps' '$T_DIR/mso.term'"

# 3. the PROF_ folder: the same run
"$PR_BIN" -q --input "$P" --json "$T_DIR/prof.json" 2> "$T_DIR/prof.err"
check "the PROF_ folder gives the same kernels" \
    test "$(kernels "$T_DIR/prof.json")" = "main_kernel:1"

# 4. the HostToDevice flow (s on the launching thread at Node@launch's
#    start, f on the task) links the launch, which is Node@launch (162.9
#    us): launch delay, from the call's end to the task's start (HTA's),
#    = 125805.120 - (125427.870 + 162.9) = 214.35 us; the note no longer
#    says the export records no launch calls
check "the launch is linked, its delay 214.35 us" python3 -c "
import json, sys
l = json.load(open('$T_DIR/alone.json'))['runs'][0]['launches']
sys.exit(not (l['kernels_with_launch'] == 1 and
              abs(l['launch_delay_us']['max'] - 214.35) < 0.005 and
              'no launch calls' not in (l.get('note') or '')))"

# 5. the kernel table: the workload's kernel only
"$PR_BIN" table --kind kernels --input "$J" > "$T_DIR/table.txt" 2> /dev/null
check "the kernel table has main_kernel" grep -q main_kernel "$T_DIR/table.txt"
check "the kernel table has no PROFILING_ENABLE, TASK_TIMEOUT_SET" \
    sh -c "! grep -q 'PROFILING_\|TASK_TIMEOUT_SET' '$T_DIR/table.txt'"

# 6. a text export of the summaries only (hunt31 defect 3): task_time's
#    rows are the device's tasks, msprof's TAB after each time cut; the
#    bookkeeping rows are no kernels.  Σ task_time(us) of main_kernel:
#    71236.660 + 70912.100 + 70944.400 = 213093.160 us
S=$T_DIR/bl_PROF_000001_20260605155111872_ABCDEFGHIJKLMNOP/mindstudio_profiler_output
mkdir -p "$S"
TAB=$(printf '\t')
cat > "$S/task_time_20260605155140.csv" <<CSV
Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)
0,N/A,PROFILING_ENABLE,1356,4,0.020,1780693364893812.120$TAB,1780693364893812.140$TAB
0,N/A,TASK_TIMEOUT_SET,1356,5,83.460,1780693364904725.440$TAB,1780693364904808.900$TAB
0,N/A,EVENT_RECORD,1356,6,0.000,1780693364904808.920$TAB,1780693364904808.920$TAB
0,main_kernel,MIX_AIC,1358,0,71236.660,1780693380125803.540$TAB,1780693380197040.200$TAB
0,main_kernel,MIX_AIC,1358,1,70912.100,1780693380203903.380$TAB,1780693380274815.480$TAB
0,main_kernel,MIX_AIC,1358,2,70944.400,1780693380281594.280$TAB,1780693380352538.680$TAB
0,N/A,PROFILING_DISABLE,1356,7,0.020,1780693380779465.400$TAB,1780693380779465.420$TAB
CSV
printf 'OP Type,Core Type,Count,Total Time(us)\nmain_kernel,MIX_AIC,3,213093.16\n' \
    > "$S/op_statistic_20260605155140.csv"
"$PR_BIN" -v --input "${S%/*}" --json "$T_DIR/tt.json" 2> "$T_DIR/tt.err"
rc=$?
check "a PROF_ folder of task_time_*.csv is read (rc $rc)" test "$rc" -eq 0
check "its kernels: main_kernel x3, 213093.16 us" python3 -c "
import json, sys
d = json.load(open('$T_DIR/tt.json'))
k = d['runs'][0]['kernels']
sys.exit(not (len(k) == 1 and k[0]['name'] == 'main_kernel' and
              k[0]['calls'] == 3 and abs(k[0]['total_us'] - 213093.16) < 0.005))"
check "the report says only task_time gave the tasks" \
    grep -q task_time_only "$T_DIR/tt.json"
check "op_statistic is skipped with a word" \
    grep -q 'op_statistic_20260605155140.csv: an msprof summary' "$T_DIR/tt.err"

# 7. the task_time CSV given alone: the same device tasks
"$PR_BIN" -q --input "$S/task_time_20260605155140.csv" --json "$T_DIR/tt1.json" \
    2> "$T_DIR/tt1.err"
rc=$?
check "task_time_*.csv alone is read (rc $rc)" test "$rc" -eq 0
check "task_time_*.csv alone: main_kernel x3" \
    test "$(kernels "$T_DIR/tt1.json")" = "main_kernel:3"

echo "1..$T_N"
