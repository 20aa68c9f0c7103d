#!/bin/sh
# ascend_db_memcpy.sh - issue #30 #2: the SQLite export (CANN 8.1's
# msprof / torch_npu db) states an RTS copy task's bytes and direction in
# MEMCPY_INFO (globalTaskId, size, memcpyOperation: ENUM_MEMCPY_OPERATION,
# "host to device", ... "host to device ex"), as trace_view.json's
# "data size(Byte)" and "memcpy direction" state them to the text
# export's reader.  The db reader now reads them too, so a db and the
# text export of one run report the same HtoD / DtoD copies and bytes.
# Before, every db copy was "other", without bytes.  A db without the
# table (db_level1: level 1 writes none) keeps its copies as before.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "db copies" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi

# mkdb FILE MODE: one kernel and three MEMCPY_ASYNC tasks; MODE "enum"
# adds MEMCPY_INFO with ENUM_MEMCPY_OPERATION, "ids" MEMCPY_INFO alone
# (its documented ids), "none" neither
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
""")
tasks = [(t0 + 1000, t0 + 11000, 0, 1, 0, 7, sid("AI_VECTOR_CORE"), 0, 2, 1, 4294967295)]
for i in range(3):
    s = t0 + 20000 + 10000 * i
    tasks.append((s, s + 2000, 0, 10 + i, 1 + i, 7, sid("MEMCPY_ASYNC"), 0, 2,
                  2 + i, 4294967295))
db.executemany("INSERT INTO TASK VALUES (?,?,?,?,?,?,?,?,?,?,?)", tasks)
db.execute("INSERT INTO COMPUTE_TASK_INFO VALUES (?,0,8,0,?,?,NULL,NULL,NULL,NULL,NULL,NULL)",
           (sid("aclnnAdd_AddAiCore_Add"), sid("AI_VECTOR_CORE"), sid("Add")))
if mode != "none":
    db.execute("CREATE TABLE MEMCPY_INFO (globalTaskId NUMERIC, size NUMERIC, memcpyOperation NUMERIC)")
    db.executemany("INSERT INTO MEMCPY_INFO VALUES (?,?,?)",
                   [(1, 1048576, 1), (2, 4096, 3), (3, 2048, 6)])
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

for mode in enum ids none; do
    mkdb "$T_DIR/msprof_$mode.db" $mode
    "$PR_BIN" -q --input "$T_DIR/msprof_$mode.db" --json "$T_DIR/$mode.json" \
        2> "$T_DIR/$mode.err"
    check "db ($mode): read" test $? -eq 0
done
for mode in enum ids; do
    check "db ($mode): 2 HtoD copies of 1,050,624 bytes, 1 DtoD of 4,096" \
        python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['runs'][0]['copies']
k = {r['direction']: r for r in c['by_kind']}
assert c['count'] == 3 and c['bytes'] == 1048576 + 4096 + 2048, c
assert k['HtoD']['count'] == 2 and k['HtoD']['bytes'] == 1050624, k
assert k['DtoD']['count'] == 1 and k['DtoD']['bytes'] == 4096, k
assert 'other' not in k, k
" "$T_DIR/$mode.json"
done
check "db without MEMCPY_INFO: its 3 copies stay of no stated direction" \
    python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['runs'][0]['copies']
assert c['count'] == 3 and [r['direction'] for r in c['by_kind']] == ['other'], c
" "$T_DIR/none.json"
echo "1..$T_N"
