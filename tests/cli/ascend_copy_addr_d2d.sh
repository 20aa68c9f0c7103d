#!/bin/sh
# ascend_copy_addr_d2d.sh - issue #30 #4: CANN's copy kind
# RT_MEMCPY_ADDR_DEVICE_TO_DEVICE (ENUM_MEMCPY_OPERATION id 5, "addr
# device to device") is a device-to-device copy whose source and
# destination addresses are read from device memory (rtMemcpyAsyncPtr,
# GE's zero-copy tasks, which GE itself issues as DEVICE_TO_DEVICE).  It
# read as a copy of no stated direction ("other") in the db's MEMCPY_INFO
# (by the enum's name and by its id alone) and in trace_view.json's
# "memcpy direction".  Now DtoD; "managed memory" stays "other".
. "$PR_SRCDIR/tests/lib.sh"
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "addr device to device copies" "python3 with sqlite3 is needed"
    echo "1..$T_N"
    exit 0
fi

# mkdb FILE MODE: a kernel and three MEMCPY_ASYNC tasks: addr device to
# device (id 5) of 4096 and 1024 bytes, managed memory (id 4) of 512;
# MODE "enum" adds ENUM_MEMCPY_OPERATION, "ids" leaves it out
mkdb() {
    python3 - "$1" "$2" << 'PY'
import sqlite3, sys
out, mode = sys.argv[1], sys.argv[2]
db = sqlite3.connect(out)
t0 = 1000000000000  # ns
strs = {}
def sid(v):
    if v not in strs:
        strs[v] = len(strs) + 1
    return strs[v]
db.executescript("""
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER);
CREATE TABLE NPU_INFO (id INTEGER,name TEXT);
CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER,endTimeNs INTEGER);
CREATE TABLE MEMCPY_INFO (globalTaskId NUMERIC, size NUMERIC, memcpyOperation NUMERIC);
""")
tasks = [(t0 + 1000, t0 + 11000, 0, 1, 0, 7, sid("AI_VECTOR_CORE"), 0, 2, 1, 4294967295)]
for i in range(3):
    s = t0 + 20000 + 10000 * i
    tasks.append((s, s + 2000, 0, 10 + i, 1 + i, 7, sid("MEMCPY_ASYNC"), 0, 2,
                  2 + i, 4294967295))
db.executemany("INSERT INTO TASK VALUES (?,?,?,?,?,?,?,?,?,?,?)", tasks)
db.execute("INSERT INTO COMPUTE_TASK_INFO VALUES (?,0,8,0,?,?,NULL,NULL,NULL,NULL,NULL,NULL)",
           (sid("aclnnAdd_AddAiCore_Add"), sid("AI_VECTOR_CORE"), sid("Add")))
db.executemany("INSERT INTO MEMCPY_INFO VALUES (?,?,?)",
               [(1, 4096, 5), (2, 1024, 5), (3, 512, 4)])
if mode == "enum":
    db.execute("CREATE TABLE ENUM_MEMCPY_OPERATION (id INTEGER PRIMARY KEY, name TEXT)")
    db.executemany("INSERT INTO ENUM_MEMCPY_OPERATION VALUES (?,?)",
                   [(0, "host to host"), (1, "host to device"), (2, "device to host"),
                    (3, "device to device"), (4, "managed memory"),
                    (5, "addr device to device"), (6, "host to device ex"),
                    (7, "device to host ex"), (65535, "other")])
db.execute("INSERT INTO NPU_INFO VALUES (0, 'Ascend910B')")
db.execute("INSERT INTO SESSION_TIME_INFO VALUES (?, ?)", (t0, t0 + 100000))
db.executemany("INSERT INTO STRING_IDS VALUES (?,?)", [(v, k) for k, v in strs.items()])
db.commit()
PY
}

# expect FILE WHAT: 2 DtoD copies of 5,120 bytes, the managed one other
expect() {
    check "$2: addr device to device is DtoD, managed memory other" \
        python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['runs'][0]['copies']
k = {r['direction']: (r['count'], r['bytes']) for r in c['by_kind']}
assert c['count'] == 3, c
assert k.get('DtoD') == (2, 5120), k
assert k.get('other', (0,))[0] == 1, k
" "$1"
}

for mode in enum ids; do
    mkdb "$T_DIR/msprof_$mode.db" $mode
    "$PR_BIN" -q --input "$T_DIR/msprof_$mode.db" --json "$T_DIR/$mode.json" \
        2> "$T_DIR/$mode.err"
    check "db ($mode): read" test $? -eq 0
    expect "$T_DIR/$mode.json" "db ($mode)"
done

python3 - "$T_DIR" << 'PY'
import json, os, sys
from hccl_trace import A, proc, task
ev = [proc(100, "Python"), proc(800, "CANN"), proc(900, "Ascend Hardware"),
      {"ph": "M", "name": "process_labels", "pid": 900, "tid": 0,
       "args": {"labels": "NPU 0"}},
      A("ProfilerStep#1", 100, 100, 0, 2000, "cpu_op"),
      task("MatMul1", 100, 300, 1)]
copies = (("addr device to device", 4096), ("addr device to device", 1024),
          ("managed memory", 512))
for i, c in enumerate(copies):
    e = task("MEMCPY_ASYNC", 500 + 100 * i, 40, 10 + i, "Other")
    e["args"].update({"memcpy direction": c[0], "data size(Byte)": c[1]})
    ev.append(e)
d = os.path.join(sys.argv[1], "r_ascend_pt", "ASCEND_PROFILER_OUTPUT")
os.makedirs(d)
json.dump(ev, open(os.path.join(d, "trace_view.json"), "w"))
PY
"$PR_BIN" -q --input "$T_DIR/r_ascend_pt" --json "$T_DIR/tv.json" \
    2> "$T_DIR/tv.err"
check "trace_view: read" [ $? -eq 0 ]
expect "$T_DIR/tv.json" "trace_view"
echo "1..$T_N"
