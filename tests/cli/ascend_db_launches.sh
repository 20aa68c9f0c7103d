#!/bin/sh
# ascend_db_launches.sh - review23a #12 (closing's "Left": msprof_full_db's
# host note): a database that holds the device's tasks but none of the host
# calls that launched them (CANN_API: a device query, a sync and two
# copies, all AscendCL; no node-level row, which is an operator's launch
# and shares its connectionId with its TASK rows; no PYTORCH_API) says so
# in Data quality, in the export's own table and level names: its host
# time outside those calls is what the export left out.  The same
# database with the node-level launches has no such row.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "a database without launches" "no python3"
    echo "1..$T_N"
    exit 0
fi

# mkdb FILE NODE: three AI Core tasks; NODE 1 adds their launches
mkdb() {
    python3 - "$1" "$2" << 'PY'
import sqlite3, sys, os
out, node = sys.argv[1], sys.argv[2] == "1"
db = sqlite3.connect(out)
t0 = 1000000000000  # ns
strs = {}
def sid(v):
    if v not in strs:
        strs[v] = len(strs) + 1
    return strs[v]
db.executescript("""
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId INTEGER,globalTaskId INTEGER,depth INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER,waitNs INTEGER);
CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,name INTEGER,depth INTEGER,connectionId INTEGER);
CREATE TABLE NPU_INFO (id INTEGER,name TEXT);
CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER,endTimeNs INTEGER,baseTimeNs INTEGER);
""")
db.executemany("INSERT INTO ENUM_API_TYPE VALUES (?,?)",
               [(5000, "runtime"), (10000, "node"), (20000, "acl")])
tid = (1 << 32) * 7 + 10
cann = [(t0 + 1000, t0 + 3560, 20000, tid, sid("aclrtGetDeviceCount"), 0, 0),
        (t0 + 5000, t0 + 5440, 20000, tid, sid("aclrtSynchronizeStream"), 0, 1),
        (t0 + 6000, t0 + 6380, 20000, tid, sid("aclrtMemcpy"), 0, 2),
        (t0 + 6001, t0 + 6380, 20000, tid, sid("aclrtMemcpy"), 1, 2)]
tasks, cti = [], []
for i, op in enumerate(("Add", "Mul", "Cast")):
    start = t0 + 100000 * (i + 1)
    conn = 40 + i
    if node:
        cann.append((start - 20000, start - 15000, 10000, tid, sid("launch"), 1, conn))
    tasks.append((start, start + 10000, 0, conn, 7, sid("AI_VECTOR_CORE"),
                  4294967295, 2, 10 + i, 4294967295, i, None))
    cti.append((sid("aclnn%s_%sAiCore_%s" % (op, op, op)), i, 8, 0,
                sid("AI_VECTOR_CORE"), sid(op), None, None, None, None, None,
                None, 0))
db.executemany("INSERT INTO CANN_API VALUES (?,?,?,?,?,?,?)", cann)
db.executemany("INSERT INTO TASK VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", tasks)
db.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", cti)
db.execute("INSERT INTO NPU_INFO VALUES (0, 'Ascend910B')")
db.execute("INSERT INTO SESSION_TIME_INFO VALUES (?, ?, 0)", (t0, t0 + 400000))
db.executemany("INSERT INTO STRING_IDS VALUES (?,?)",
               [(v, k) for k, v in strs.items()])
db.commit()
PY
}

mkdb "$T_DIR/msprof_0.db" 0
mkdb "$T_DIR/msprof_1.db" 1
for n in 0 1; do
    "$PR_BIN" -q --input "$T_DIR/msprof_$n.db" --json "$T_DIR/$n.json" \
        2> "$T_DIR/$n.err"
    check "db $n: read" test $? -eq 0
done
check "no launches: Data quality says the export holds none, in its own table and level names" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
d = [x for x in r['diagnostics'] if x['kind'] == 'no_launch_records']
assert len(d) == 1 and d[0]['count'] == 3, r['diagnostics']
t = d[0]['text']
for want in ('holds 3 device tasks (TASK) but none of the host calls that launched them',
             'CANN_API has 4 rows (aclrtGetDeviceCount, aclrtSynchronizeStream, aclrtMemcpy x2; 3.8 \u00b5s in all) and none of the node level',
             'PYTORCH_API', 'is absent', 'what the export left out'):
    assert want in t, (want, t)
" "$T_DIR/0.json"
check "with node-level launches: no such row" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert not [x for x in r['diagnostics'] if x['kind'] == 'no_launch_records'], r['diagnostics']
" "$T_DIR/1.json"

M=msprof/extra/msinsight_full_db/msprof_0.db
if have_shared && [ -f "$PR_SHARED/traces/$M" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$M" --json "$T_DIR/full.json" \
        2> /dev/null
    check "msinsight_full_db: 24 tasks, CANN_API's 4 AscendCL calls, no launch" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
t = [x['text'] for x in r['diagnostics'] if x['kind'] == 'no_launch_records'][0]
assert 'holds 24 device tasks' in t and 'CANN_API has 4 rows (aclrtGetDeviceCount, aclrtSynchronizeStream, aclrtMemcpy x2;' in t, t
" "$T_DIR/full.json"
    check "msinsight_full_db: the unrecorded host time is what the export left out, not Python or the GIL" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
t = [x['text'] for x in r['diagnostics'] if x['kind'] == 'host_unrecorded'][0]
assert 'the export keeps none of the calls that launched its tasks' in t and 'GIL' not in t, t
" "$T_DIR/full.json"
else
    skip "msinsight_full_db" "no $PR_SHARED/traces/$M"
fi
D=torch_npu/db_level1
if have_shared && [ -d "$PR_SHARED/traces/$D" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$D" --json "$T_DIR/npu.json" \
        2> /dev/null
    check "db_level1 (191 node-level launches a rank): no such row" \
        python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    assert not [x for x in r['diagnostics'] if x['kind'] == 'no_launch_records'], r['worker']
" "$T_DIR/npu.json"
else
    skip "db_level1" "no $PR_SHARED/traces/$D"
fi
echo "1..$T_N"
