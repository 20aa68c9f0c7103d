#!/bin/sh
# ascend_db_copy_call.sh - issue #28/#29/#30 leftover: a host call's time
# counts once in copies.by_kind[].host_call_us however many copies it
# launched.  In an Ascend db (CANN_API and TASK share a connectionId) one
# aclopCompileAndExecute launches two MEMCPY_ASYNC tasks (db_level1: its
# 2,471 us call was counted twice, 5,681 us for 2,937 us of calls).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "db copy calls" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi

# one kernel; aclopCompileAndExecute (1,000 us) launches two copies,
# aclrtMemcpyAsync (30 us) one: 1,030 us of host calls for 3 copies
python3 - "$T_DIR/msprof_0.db" << 'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
t0 = 1000000000000  # ns
strs = {}
def sid(v):
    if v not in strs:
        strs[v] = len(strs) + 1
    return strs[v]
db.executescript("""
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId INTEGER,depth INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER);
CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,connectionId INTEGER,name INTEGER,depth INTEGER);
CREATE TABLE NPU_INFO (id INTEGER,name TEXT);
CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER,endTimeNs INTEGER);
""")
db.executemany("INSERT INTO ENUM_API_TYPE VALUES (?,?)",
               [(5000, "runtime"), (10000, "node"), (20000, "acl")])
tid = (1 << 32) * 7 + 10
db.executemany("INSERT INTO CANN_API VALUES (?,?,?,?,?,?,?)", [
    (t0 + 1000, t0 + 11000, 10000, tid, 1, sid("launch"), 0),
    (t0 + 20000, t0 + 1020000, 20000, tid, 50, sid("aclopCompileAndExecute"), 0),
    (t0 + 1100000, t0 + 1130000, 20000, tid, 51, sid("aclrtMemcpyAsync"), 0)])
mc = sid("MEMCPY_ASYNC")
db.executemany("INSERT INTO TASK VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", [
    (t0 + 12000, t0 + 15000, 0, 1, 0, 7, sid("AI_VECTOR_CORE"), 0, 2, 1, 4294967295, 0),
    (t0 + 1010000, t0 + 1012000, 0, 50, 1, 7, mc, 0, 2, 2, 4294967295, 0),
    (t0 + 1015000, t0 + 1017000, 0, 50, 2, 7, mc, 0, 2, 3, 4294967295, 0),
    (t0 + 1125000, t0 + 1127000, 0, 51, 3, 7, mc, 0, 2, 4, 4294967295, 0)])
db.execute("INSERT INTO COMPUTE_TASK_INFO VALUES (?,0,8,0,?,?,NULL,NULL,NULL,NULL,NULL,NULL)",
           (sid("aclnnAdd_AddAiCore_Add"), sid("AI_VECTOR_CORE"), sid("Add")))
db.execute("INSERT INTO NPU_INFO VALUES (0, 'Ascend910B')")
db.execute("INSERT INTO SESSION_TIME_INFO VALUES (?, ?)", (t0, t0 + 1200000))
db.executemany("INSERT INTO STRING_IDS VALUES (?,?)", [(v, k) for k, v in strs.items()])
db.commit()
PY
"$PR_BIN" -q --input "$T_DIR/msprof_0.db" --json "$T_DIR/s.json" \
    2> "$T_DIR/s.err"
check "db: read" test $? -eq 0
check "db: 3 copies, 1,030 us of host calls (the call launching two counted once)" \
    python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['runs'][0]['copies']
assert c['count'] == 3, c
h = sum(r['host_call_us'] for r in c['by_kind'])
assert abs(h - 1030.0) < 0.01, (h, c)
" "$T_DIR/s.json"

D=torch_npu/db_level1
if have_shared && [ -d "$PR_SHARED/traces/$D" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$D" --json "$T_DIR/npu.json" \
        2> /dev/null
    check "db_level1 rank 0: 2,936.59 us of copy launch calls, each call once" \
        python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['runs'][0]['copies']
h = sum(r['host_call_us'] for r in c['by_kind'])
assert abs(h - 2936.59) < 0.01, (h, c)
" "$T_DIR/npu.json"
else
    skip "db_level1" "no $PR_SHARED/traces/$D"
fi
echo "1..$T_N"
