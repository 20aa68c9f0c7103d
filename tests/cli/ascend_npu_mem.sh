#!/bin/sh
# ascend_npu_mem.sh - the NPU memory tables of the Ascend SQLite exports
# end to end (issue #30): an msprof .db holding only NPU_OP_MEM gives the
# device's curve (one component's totals), its peak and the operator
# table by operatorName; torch_npu's db gives the components beside PTA
# (MEMORY_RECORD's, and NPU_MEM's app rows as APP) as the text export's
# memory_record.csv does.  A hand-made database whose answers are worked
# out below, then the ../shared samples against their own tables.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v sqlite3 >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1
then
    skip "NPU memory tables" "the sqlite3 command and python3 are needed"
    echo "1..$T_N"
    exit 0
fi

# msprof-like: no framework tables; NPU_OP_MEM types of ENUM_MEMORY,
# components of STRING_IDS.  APP (4 rows in the session) makes the curve:
# totals 1000, 4000, 3000, 1000; PTA+GE's 2 rows count without totals; the
# row at 999999 is of no session (0..5000) and is left out.
# Operators: MatMul 2 allocations (1000 APP + 500 PTA+GE), both freed;
# hcom_allReduce_ 1 of 3000, freed.
D=$T_DIR/out/msprof_0.db
mkdir -p "$T_DIR/out"
sqlite3 "$D" <<'SQL'
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
INSERT INTO STRING_IDS VALUES (1,'AI_CORE'),(60,'APP'),(61,'PTA+GE'),
 (62,'MatMul'),(63,'hcom_allReduce_');
CREATE TABLE NPU_INFO (id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO NPU_INFO VALUES (2,'Ascend910B');
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,
 connectionId INTEGER, globalPid INTEGER, taskType INTEGER,
 contextId INTEGER, streamId INTEGER, taskId INTEGER, modelId INTEGER,
 globalTaskId INTEGER PRIMARY KEY);
INSERT INTO TASK VALUES (50,700,2,7,100,1,0,3,1,0,0);
CREATE TABLE ENUM_MEMORY (id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO ENUM_MEMORY VALUES (0,'app'),(1,'device'),(5,'allocate'),
 (6,'release');
CREATE TABLE NPU_OP_MEM (operatorName INTEGER, addr INTEGER, type INTEGER,
 size INTEGER, timestampNs INTEGER, globalTid INTEGER, totalAllocate
 NUMERIC, totalReserve NUMERIC, component INTEGER, deviceId INTEGER);
INSERT INTO NPU_OP_MEM VALUES (62,4096,5,1000,100,1,1000,8000,60,2),
 (63,8192,5,3000,150,1,4000,8000,60,2),
 (62,4096,6,1000,200,1,3000,8000,60,2),
 (62,4096,6,500,250,1,64,9000,61,2),
 (62,4096,5,500,250,1,564,9000,61,2),
 (63,8192,6,3000,300,1,1000,8000,60,2),
 (62,1,5,7,999999,1,7,7,60,2);
CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER, endTimeNs INTEGER);
INSERT INTO SESSION_TIME_INFO VALUES (0,5000);
SQL

if "$PR_BIN" -q --input "$D" --json "$T_DIR/m.json" --html "$T_DIR/m.html" \
    > "$T_DIR/m.term" 2> "$T_DIR/m.err"
then ok "NPU_OP_MEM database: read"
else not_ok "NPU_OP_MEM database: exit $? ($(head -c 300 "$T_DIR/m.err"))"; fi

if python3 - "$T_DIR/m.json" > "$T_DIR/why" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
bad = []
d = r["memory"]["devices"]
want = {"device": "NPU2", "peak_allocated_bytes": 4000,
        "peak_reserved_bytes": 8000, "allocations": 3, "frees": 3,
        "unattributed_allocations": 0, "unmatched_frees": 0}
if len(d) != 1 or any(d[0].get(k) != v for k, v in want.items()):
    bad.append("device %s, want %s" % ({k: d[0].get(k) for k in want}, want))
elif d[0]["curve"]["allocated_bytes"] != [1000, 4000, 3000, 1000] or \
        d[0]["curve"]["reserved_bytes"] != [8000] * 4:
    bad.append("curve %s" % d[0]["curve"])
# live at the peak (4000 at t=150): MatMul's 1000 and hcom's 3000, each
# under its operator's name, none "outside any operator"
tops = [(x["name"], x["live_bytes"]) for x in d[0]["top_allocators_at_peak"]]
if tops != [("hcom_allReduce_", 3000), ("MatMul", 1000)] or \
        d[0]["live_at_peak_outside_operators_bytes"] != 0:
    bad.append("live at the peak %s, outside %s"
               % (tops, d[0]["live_at_peak_outside_operators_bytes"]))
ops = {o["name"]: (o["calls"], o["allocation_count"],
                   o["allocation_size_bytes"], o["size_increase_bytes"])
       for o in r["memory"]["operators"]}
if ops != {"MatMul": (2, 2, 1500, 0), "hcom_allReduce_": (1, 1, 3000, 0)}:
    bad.append("operators %s" % ops)
n = r["npu_memory"]
comps = [(c["component"], c["device"], c["samples"],
          c["peak_allocated_bytes"], c["peak_reserved_bytes"])
         for c in n["components"]]
if n["source"] != "NPU_OP_MEM" or \
        comps != [("APP", 2, 4, 4000, 8000), ("PTA+GE", 2, 2, 564, 9000)]:
    bad.append("npu_memory %s %s" % (n["source"], comps))
kinds = {g["kind"]: g["count"] for g in r["diagnostics"]}
if kinds.get("npu_op_mem_curve") != 4 or \
        kinds.get("npu_op_mem_outside_session") != 1 or "no_memory" in kinds:
    bad.append("data quality %s" % kinds)
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "NPU_OP_MEM database: curve, peak, operators and components"
else not_ok "NPU_OP_MEM database: $(cat "$T_DIR/why")"; fi

# the memory section reads as an NPU's: its words and the component named
if grep -q 'id="memory"' "$T_DIR/m.html" &&
   grep -q "component APP" "$T_DIR/m.html" &&
   ! sed -n '/id="memory"/,/<\/section>/p' "$T_DIR/m.html" |
       grep -Eq 'GPU|CUDA|cuda'
then ok "NPU_OP_MEM database: the memory section names the NPU and APP"
else not_ok "NPU_OP_MEM database: memory section or words"; fi

if ! have_shared; then
    skip "NPU memory on the samples" "no $PR_SHARED/traces (../shared is absent)"
    echo "1..$T_N"
    exit 0
fi

# msinsight_full_db: NPU_OP_MEM's rows are of another capture than its
# tasks (SESSION_TIME_INFO): left out, counted, no curve of them
M=msprof/extra/msinsight_full_db/msprof_0.db
if shared_report full "$M" && python3 - "$PR_SHARED/traces/$M" \
    "$T_DIR/full.json" > "$T_DIR/why" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect("file:%s?immutable=1" % sys.argv[1], uri=True)
out = db.execute("SELECT count(*) FROM NPU_OP_MEM, SESSION_TIME_INFO WHERE "
                 "timestampNs NOT BETWEEN startTimeNs AND endTimeNs").fetchone()[0]
r = json.load(open(sys.argv[2]))["runs"][0]
kinds = {g["kind"]: g["count"] for g in r["diagnostics"]}
bad = []
if out == 0 or kinds.get("npu_op_mem_outside_session") != out:
    bad.append("outside the session %s, want %d" % (kinds, out))
if r["memory"] is not None or r["npu_memory"] is not None:
    bad.append("memory of another capture shown")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "msinsight_full_db: NPU_OP_MEM rows of another capture left out"
else not_ok "msinsight_full_db: $(cat "$T_DIR/why" "$T_DIR/full.err" 2>/dev/null | head -c 300)"; fi
# ... and the memory section says why, not that the trace has none
if sed -n '/<section id="memory">/,/<\/section>/p' "$T_DIR/full.html" |
       grep -q "outside the profiling session" &&
   ! grep -q "No memory events in this trace" "$T_DIR/full.html"
then ok "msinsight_full_db: the memory section says why it is empty"
else not_ok "msinsight_full_db: the memory section does not say why"; fi

# db_level1: the components beside PTA, each from its own table, in the
# same form as text_level1's memory_record.csv gives them (another run of
# the same script: the component names and PTA/GE sample counts agree)
S=torch_npu/db_level1
if shared_summary db "$S" && shared_summary text torch_npu/text_level1 &&
   python3 - "$PR_SHARED/traces/$S" "$T_DIR/db.json" "$T_DIR/text.json" \
       > "$T_DIR/why" <<'PY'
import json, sqlite3, sys
root = sys.argv[1]
db_runs = json.load(open(sys.argv[2]))["runs"]
text_runs = json.load(open(sys.argv[3]))["runs"]
bad = []
for rank, run in enumerate(db_runs):
    db = sqlite3.connect("file:%s/rank%d_ascend_pt/ASCEND_PROFILER_OUTPUT/"
                         "ascend_pytorch_profiler_%d.db?immutable=1"
                         % (root, rank, rank), uri=True)
    q = lambda s: db.execute(s).fetchall()
    want = [("APP",) + tuple(q("SELECT deviceId, count(*), NULL, "
             "max(hbm + ddr) FROM NPU_MEM WHERE type IN (SELECT id FROM "
             "STRING_IDS WHERE value = 'app')")[0])]
    want += [tuple(x) for x in q(
        "SELECT s.value, m.deviceId, count(*), max(totalAllocated), "
        "max(totalReserved) FROM MEMORY_RECORD m JOIN STRING_IDS s ON "
        "s.id = m.component GROUP BY m.component ORDER BY min(timestamp)")]
    n = run["npu_memory"]
    got = [(c["component"], c["device"], c["samples"],
            c["peak_allocated_bytes"], c["peak_reserved_bytes"])
           for c in n["components"]]
    if n["source"] != "MEMORY_RECORD, NPU_MEM" or got != want:
        bad.append("rank %d: %s, want %s" % (rank, got, want))
    text = {c["component"]: c["samples"]
            for c in text_runs[rank]["npu_memory"]["components"]}
    if set(text) != set(c[0] for c in got) or \
            any(text[c[0]] != c[2] for c in got if c[0] != "APP"):
        bad.append("rank %d: text export %s, db %s" % (rank, text, got))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "db_level1: GE, PTA+GE and APP beside PTA, as the text export has them"
else not_ok "db_level1: $(cat "$T_DIR/why" | head -c 400)"; fi

echo "1..$T_N"
