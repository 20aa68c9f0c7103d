#!/bin/sh
# ascend_db.sh - the SQLite export of torch_npu and msprof end to end: the
# two db_level1 ranks in ../shared/traces/torch_npu are rank 0 and 1 of
# one job, each with the kernel count, kernel time, steps, collectives (and
# the sizes of their groups: 8 ranks, of which the samples hold 2) and
# rank that Python's sqlite3 module reads from the same database, and a
# step breakdown that agrees with torch_npu's own analysis.db; msprof's
# database gives its kernels, and its mstx ranges where they are of the
# capture; analysis.db alone is refused by name.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "Ascend databases" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi
if ! have_shared; then
    skip "Ascend databases" "no $PR_SHARED/traces (../shared is absent)"
    echo "1..$T_N"
    exit 0
fi
S=$PR_SHARED/traces/torch_npu/db_level1
M=$PR_SHARED/traces/msprof/extra/msinsight_full_db/msprof_0.db

if "$PR_BIN" --quiet --input "$S" --json "$T_DIR/job.json" 2> "$T_DIR/err"
then ok "db_level1: read"
else not_ok "db_level1: exit $? ($(head -c 300 "$T_DIR/err"))"; fi

# the numbers, each from the database by a query of its own
if python3 - "$S" "$T_DIR/job.json" > "$T_DIR/why" <<'PY'
import json, sqlite3, sys
root, out = sys.argv[1], sys.argv[2]
s = json.load(open(out))
bad = []
worlds = []
runs = s["runs"]
if [r["rank"] for r in runs] != [0, 1]:
    bad.append("ranks %s" % [r["rank"] for r in runs])
for rank, run in zip((0, 1), runs):
    base = "%s/rank%d_ascend_pt/ASCEND_PROFILER_OUTPUT/" % (root, rank)
    db = sqlite3.connect("file:%sascend_pytorch_profiler_%d.db?immutable=1"
                         % (base, rank), uri=True)
    q = lambda sql: db.execute(sql).fetchall()
    if run["worker"] != "rank%d" % q("SELECT rankId FROM RANK_DEVICE_MAP")[0][0]:
        bad.append("worker %s" % run["worker"])
    # kernels: the tasks COMPUTE_TASK_INFO names, and the collectives
    k = q("SELECT count(*), sum(t.endNs - t.startNs) FROM TASK t JOIN "
          "COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId")[0]
    h = q("SELECT count(*), sum(endNs - startNs) FROM COMMUNICATION_OP")[0]
    n, us = k[0] + h[0], (k[1] + h[1]) / 1000.0
    calls = sum(x["calls"] for x in run["kernels"])
    got = sum(x["total_us"] for x in run["kernels"])
    if calls != n or abs(got - us) > 0.01:
        bad.append("rank %d: %d kernels %.3f us, want %d %.3f"
                   % (rank, calls, got, n, us))
    steps = q("SELECT count(*) FROM PYTORCH_API p JOIN STRING_IDS s ON "
              "s.id = p.name WHERE s.value LIKE 'ProfilerStep#%'")[0][0]
    if len(run["steps"]) != steps:
        bad.append("rank %d: %d steps, want %d" % (rank, len(run["steps"]), steps))
    ops = q("SELECT count(*) FROM COMMUNICATION_OP")[0][0]
    comm = run["communication"]["ops"]
    if sum(o["calls"] for o in comm) != ops:
        bad.append("rank %d: collectives %s, want %d" % (rank, comm, ops))
    # memory: OP_MEMORY's allocations, the PTA peak MEMORY_RECORD samples
    peak = q("SELECT max(totalAllocated) FROM MEMORY_RECORD WHERE component "
             "IN (SELECT id FROM STRING_IDS WHERE value = 'PTA')")[0][0]
    allocs = q("SELECT count(*) FROM OP_MEMORY")[0][0]
    m = run["memory"]["devices"][0]
    if m["peak_allocated_bytes"] != peak or m["allocations"] != allocs:
        bad.append("rank %d: memory peak %s, %s allocations; want %s, %s"
                   % (rank, m["peak_allocated_bytes"], m["allocations"],
                      peak, allocs))
    # torch_npu's own steps and breakdown (analysis.db StepTraceTime, us)
    a = sqlite3.connect("file:%sanalysis.db?immutable=1" % base, uri=True)
    comp, comm_no, over, free, stage, bubble = a.execute(
        "SELECT computing, communication_not_overlapped, overlapped, free, "
        "stage, bubble FROM StepTraceTime").fetchone()
    c = run["communication"]
    mine = (c["computation_us"] + c["overlap_us"], c["communication_us"],
            c["overlap_us"], c["other_us"], run["steps"][0]["duration_us"])
    for got, want, what in zip(mine, (comp, comm_no, over, free,
                                      stage + bubble),
                               ("computing", "communication", "overlap",
                                "free", "step")):
        if abs(got - want) > 0.01 * want:
            bad.append("rank %d: %s %.3f, analysis.db %.3f"
                       % (rank, what, got, want))
    # group sizes: one more than the highest rank a group's tasks name
    sizes = dict(q("SELECT groupName, max(r) + 1 FROM (SELECT groupName, "
                   "srcRank AS r FROM COMMUNICATION_TASK_INFO UNION ALL "
                   "SELECT groupName, dstRank FROM COMMUNICATION_TASK_INFO) "
                   "WHERE r < 4294967295 GROUP BY groupName"))
    want = sorted(set(sizes[g] for (g,) in
                      q("SELECT groupName FROM COMMUNICATION_OP")))
    got = sorted(set(o["group_size"] for o in comm))
    if got != want or run["world_size"] != max(sizes.values()):
        bad.append("rank %d: group sizes %s world %s, want %s world %s"
                   % (rank, got, run["world_size"], want, max(sizes.values())))
    worlds.append(max(sizes.values()))
    # links: torch_npu's own matrix (analysis.db, its "-total" rows, MB
    # and ms) from the same tasks
    want = {}
    for src, dst, tr, mb, ms in a.execute(
            "SELECT src_rank, dst_rank, transport_type, transit_size, "
            "transit_time FROM CommAnalyzerMatrix WHERE hccl_op_name "
            "LIKE '%-total'"):
        b, t = want.get((int(src), int(dst), tr), (0, 0))
        want[(int(src), int(dst), tr)] = (b + mb * 1e6, t + ms * 1e3)
    got = {(l["src_rank"], l["dst_rank"], l["transport"]):
           (l["bytes"], l["time_us"]) for l in c["links"]}
    if set(got) != set(want) or any(
            abs(got[k][0] - want[k][0]) > 1 or abs(got[k][1] - want[k][1]) > 0.01
            for k in want):
        bad.append("rank %d: links %s, analysis.db %s" % (rank, got, want))
d = s["distributed"]
if d["ranks_present"] != 2:
    bad.append("ranks present %s" % d["ranks_present"])
if d["world_size"] != max(worlds) or "2 of %d" % max(worlds) not in \
        (d["coverage_note"] or ""):
    bad.append("distributed world %s (%s)" % (d["world_size"],
                                              d["coverage_note"]))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "db_level1: kernels, collectives, group and world sizes, memory, ranks; steps, breakdown and links as analysis.db"
else not_ok "db_level1: $(cat "$T_DIR/why")"; fi

# msprof's database: its kernels, no crash on a trimmed test export
if "$PR_BIN" --quiet --input "$M" --json "$T_DIR/msprof.json" \
        2> "$T_DIR/err" &&
   python3 - "$M" "$T_DIR/msprof.json" > "$T_DIR/why" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect("file:%s?immutable=1" % sys.argv[1], uri=True)
run = json.load(open(sys.argv[2]))["runs"][0]
n = db.execute("SELECT count(*) FROM TASK t JOIN COMPUTE_TASK_INFO c "
               "ON c.globalTaskId = t.globalTaskId").fetchone()[0]
calls = sum(x["calls"] for x in run["kernels"])
bad = []
if calls != n:
    bad.append("%d kernels, want %d" % (calls, n))
# its mstx ranges (the sample's are from another capture than its tasks):
# those outside SESSION_TIME_INFO are set aside, and the report says so
out = db.execute("SELECT count(*) FROM MSTX_EVENTS m, SESSION_TIME_INFO s "
                 "WHERE m.eventType IN (1, 2) AND m.endNs IS NOT NULL AND "
                 "(m.startNs > s.endTimeNs OR m.endNs < s.startTimeNs)"
                 ).fetchone()[0]
gaps = [d["count"] for d in run["diagnostics"]
        if d["kind"] == "mstx_outside_session"]
if out == 0 or gaps != [out]:
    bad.append("mstx outside the session %s, want [%d]" % (gaps, out))
end = db.execute("SELECT max(endNs) - min(startNs) FROM TASK").fetchone()[0]
if run["steps"][0]["duration_us"] > end / 1000.0 + 0.01:
    bad.append("step %s us, tasks span %s us"
               % (run["steps"][0]["duration_us"], end / 1000.0))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "msprof_0.db: kernels as COMPUTE_TASK_INFO names them; mstx ranges of another capture set aside"
else not_ok "msprof_0.db: $(cat "$T_DIR/why") $(head -c 300 "$T_DIR/err")"; fi

# measured FLOPs: the samples were taken with PipeUtilization (ratios, no
# operation counts), so a copy of rank 0 gets ArithmeticUtilization's
# counters: F operations on each compute task and a ratio that is no
# FLOP count; an operator all of whose tasks have them is measured, with
# F per task
cp "$S/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db" \
    "$T_DIR/pmu.db" && chmod u+w "$T_DIR/pmu.db"
if python3 - "$T_DIR/pmu.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
top = db.execute("SELECT max(id) FROM STRING_IDS").fetchone()[0]
db.execute("INSERT INTO STRING_IDS VALUES (?, 'aic_cube_fops'), "
           "(?, 'aiv_vector_fops')", (top + 1, top + 2))
db.execute("DELETE FROM TASK_PMU_INFO")
db.execute("INSERT INTO TASK_PMU_INFO SELECT globalTaskId, ?, 1000000 FROM "
           "COMPUTE_TASK_INFO", (top + 1,))
db.execute("INSERT INTO TASK_PMU_INFO SELECT globalTaskId, ?, 24 FROM "
           "COMPUTE_TASK_INFO", (top + 2,))
db.commit()
PY
then
    "$PR_BIN" --quiet --input "$T_DIR/pmu.db" --json "$T_DIR/pmu.json" \
        2> "$T_DIR/err"
    if python3 - "$T_DIR/pmu.db" "$T_DIR/pmu.json" > "$T_DIR/why" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
tasks = db.execute("SELECT count(*) FROM COMPUTE_TASK_INFO").fetchone()[0]
F = 1000000 + 24
ops = json.load(open(sys.argv[2]))["runs"][0]["operators"]
m = [o for o in ops if o["flops_source"] == "measured"]
bad = [o["name"] for o in m
       if o["flops"] <= 0 or o["flops"] % F != 0 or o["flops"] > F * tasks]
total = sum(o["flops"] for o in m)
if not m or bad or total > F * tasks:
    print("measured %d operators, %s bad, %s FLOPs of at most %d"
          % (len(m), bad, total, F * tasks))
    sys.exit(1)
PY
    then ok "TASK_PMU_INFO's operation counts are the operators' measured FLOPs"
    else not_ok "TASK_PMU_INFO: $(cat "$T_DIR/why") $(head -c 200 "$T_DIR/err")"; fi
else
    not_ok "TASK_PMU_INFO: cannot make the database"
fi

# torch_npu's summary database alone is not a run
"$PR_BIN" --quiet --input "$S/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db" \
    --json "$T_DIR/no.json" 2> "$T_DIR/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "analysis.db" "$T_DIR/err" &&
   grep -q "ascend_pytorch_profiler" "$T_DIR/err" && [ ! -e "$T_DIR/no.json" ]
then ok "analysis.db alone: refused with exit 2, saying where the run is"
else not_ok "analysis.db alone: exit $rc ($(head -c 200 "$T_DIR/err"))"; fi

# the exports are WAL-mode databases: reading one must leave nothing beside
# it (SQLite creates -wal and -shm files wherever it may write, and the
# next discovery of the folder then warned about them); a name that a
# SQLite URI must escape reads too
mkdir -p "$T_DIR/wal dir"
cp "$S/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db" \
    "$T_DIR/wal dir/ascend_pytorch_profiler_0 a%b?#.db"
chmod -R u+w "$T_DIR/wal dir"
if "$PR_BIN" --quiet --input "$T_DIR/wal dir" --json "$T_DIR/wal.json" \
        2> "$T_DIR/err" &&
   [ "$(ls "$T_DIR/wal dir" | wc -l)" -eq 1 ]
then ok "a WAL-mode export read in a writable folder: nothing left beside it"
else not_ok "WAL export: $(ls "$T_DIR/wal dir") $(head -c 200 "$T_DIR/err")"; fi
# SQLite's own files beside a database are part of it: no warning
: > "$T_DIR/wal dir/ascend_pytorch_profiler_0 a%b?#.db-wal"
: > "$T_DIR/wal dir/ascend_pytorch_profiler_0 a%b?#.db-journal"
head -c 32768 /dev/zero > "$T_DIR/wal dir/ascend_pytorch_profiler_0 a%b?#.db-shm"
"$PR_BIN" --input "$T_DIR/wal dir" --json "$T_DIR/wal2.json" 2> "$T_DIR/err"
check "  its -wal, -shm and -journal files are read with it, not warned about" \
    test ! -s "$T_DIR/err"

# the report names the tables its numbers came from, not files the
# database export does not have (issue #30 review: "HCCL time by
# operation (communication.json)", "from each rank's step_trace_time.csv")
"$PR_BIN" -q --input "$S" --html "$T_DIR/db.html" 2> /dev/null
check "db_level1's report names analysis.db's tables, not communication.json or step_trace_time.csv" \
    python3 - "$T_DIR/db.html" << 'PY'
import html, re, sys
t = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[1], encoding='utf-8').read()))
assert 'HCCL time by operation (analysis.db CommAnalyzerTime)' in t, t
assert 'HCCL time by operation (communication.json)' not in t
assert ("from each rank's step table in its database (analysis.db "
        "StepTraceTime, step_trace_time.csv's columns)") in t
assert "from each rank's step_trace_time.csv" not in t
PY

echo "1..$T_N"
