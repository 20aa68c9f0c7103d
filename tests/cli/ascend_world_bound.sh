#!/bin/sh
# ascend_world_bound.sh - a rank's world size from its communication
# groups is a lower bound, and says so (issue #30, "world sizes come from
# the groups"): runs[].world_size_bound "at_least" and world_size_note
# (what the files hold of the groups), and a report of that one rank says
# "at least N" in the JSON, the terminal, the HTML and the PDF, never
# "1 of N".  Where the producer lists the world group's members
# (parallel_group_info), the size is exact.
#  - a hand-made torch_npu database of rank 2 whose HCCL tasks name ranks
#    3 and 5 of one group: at least 6; META_DATA holds SCHEMA_VERSION and
#    ENV_VARIABLES, which the note lists, and no parallel_group_info.  The
#    same with parallel_group_info's default_group of 8 ranks: exactly 8.
#  - tests/data/ascend/hccl_members, rank 3 of a ring whose links name 2
#    and 4 (its metadata lists a "dp" group, not the world's): at least 5.
#  - ../shared: old2023's ranks see 9 and 10, each "at_least", as the
#    job's "at least 10"; npu_db1's databases hold no parallel_group_info.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v sqlite3 > /dev/null 2>&1 ||
    ! command -v python3 > /dev/null 2>&1; then
    skip "world size bounds" "the sqlite3 command and python3 are needed"
    echo "1..$T_N"
    exit 0
fi

# run NAME.json: "rank world_size source bound"
run() {
    python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["runs"]:
    print(r["rank"], r["world_size"], r["world_size_source"],
          r["world_size_bound"])
' "$1"
}
# dist NAME.json: "world_size world_size_at_least ranks_complete"
dist() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["distributed"]
print(d["world_size"], d["world_size_at_least"], d["ranks_complete"])
' "$1"
}

D=$T_DIR/db/rank2_ascend_pt/ASCEND_PROFILER_OUTPUT
mkdir -p "$D"
sqlite3 "$D/ascend_pytorch_profiler_2.db" << 'SQL'
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
INSERT INTO STRING_IDS VALUES (1, 'grpA'), (2, 'hcom_allReduce__1_0_1'),
  (5, 'Reduce_Inline');
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,
  connectionId INTEGER, globalTaskId INTEGER, globalPid INTEGER,
  taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER,
  modelId INTEGER);
INSERT INTO TASK VALUES (1000000, 2000000, 0, 1, 1, 7, 5, 0, 3, 1, 0),
  (2000000, 3000000, 0, 1, 2, 7, 5, 0, 3, 2, 0);
CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER, globalTaskId INTEGER,
  taskType INTEGER, planeId INTEGER, groupName INTEGER, notifyId INTEGER,
  rdmaType INTEGER, srcRank INTEGER, dstRank INTEGER,
  transportType INTEGER, size INTEGER, dataType INTEGER, linkType INTEGER,
  opId INTEGER);
INSERT INTO COMMUNICATION_TASK_INFO VALUES
  (5, 1, 5, 0, 1, 0, 0, 2, 3, 0, 1024, 0, 0, 1),
  (5, 2, 5, 0, 1, 0, 0, 2, 5, 0, 1024, 0, 0, 1);
CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER,
  endNs INTEGER, connectionId INTEGER, groupName INTEGER,
  opId INTEGER PRIMARY KEY, relay INTEGER, retry INTEGER, dataType INTEGER,
  algType INTEGER, count NUMERIC, opType INTEGER);
INSERT INTO COMMUNICATION_OP VALUES
  (2, 1000000, 3000000, 1, 1, 1, 0, 0, 0, 0, 256, 0);
CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);
INSERT INTO RANK_DEVICE_MAP VALUES (2, 0);
CREATE TABLE META_DATA (name TEXT, value TEXT);
INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', '1.0.0'),
  ('ENV_VARIABLES', '{}');
SQL
"$PR_BIN" -q --input "$T_DIR/db" --json "$T_DIR/db.json" \
    --html "$T_DIR/db.html" --pdf "$T_DIR/db.pdf"
check "db without parallel_group_info: exit 0" [ $? -eq 0 ]
"$PR_BIN" --input "$T_DIR/db" > "$T_DIR/db.term" 2> /dev/null
check "db: rank 2's world is at least 6, from its groups" \
    [ "$(run "$T_DIR/db.json")" = "2 6 communication groups at_least" ]
check "db: the note says what the database holds and lacks" \
    python3 - "$T_DIR/db.json" << 'PY'
import json, sys
n = json.load(open(sys.argv[1]))["runs"][0]["world_size_note"]
assert n.startswith("at least 6: "), n
assert "(COMMUNICATION_TASK_INFO) name ranks up to 5" in n, n
assert "its META_DATA holds SCHEMA_VERSION, ENV_VARIABLES" in n, n
assert "no parallel_group_info" in n, n
PY
check "db: the job is at least 6, not 6" \
    [ "$(dist "$T_DIR/db.json")" = "None 6 False" ]
check "db: the terminal never says 1 of 6" \
    sh -c '[ -s "$1" ] && ! grep -q "of 6 ranks" "$1"' sh "$T_DIR/db.term"
check "db: the HTML says at least 6, never World size 6" \
    python3 - "$T_DIR/db.html" << 'PY'
import html, sys
t = html.unescape(open(sys.argv[1]).read())
assert "The trace does not say the world size: at least 6, the ranks its " \
    "communication links name." in t
assert "World size 6" not in t and "1 of 6 ranks" not in t
PY
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext "$T_DIR/db.pdf" "$T_DIR/db.txt"
    check "db: the PDF cover says at least 6" \
        sh -c "grep -A2 -x 'World size' '$T_DIR/db.txt' | grep -qx 'at least 6'"
else
    skip "db: the PDF's world size" "no pdftotext"
fi

# the same database with the world group's members: exact
sqlite3 "$D/ascend_pytorch_profiler_2.db" "INSERT INTO META_DATA VALUES
  ('parallel_group_info', '{\"grpA\": {\"group_name\": \"default_group\",
   \"group_rank\": 2, \"global_ranks\": [0, 1, 2, 3, 4, 5, 6, 7]}}')"
"$PR_BIN" -q --input "$T_DIR/db" --json "$T_DIR/pgi.json"
check "db with parallel_group_info: exit 0" [ $? -eq 0 ]
check "db with parallel_group_info: exactly 8, no note" \
    python3 - "$T_DIR/pgi.json" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
r = s["runs"][0]
assert (r["world_size"], r["world_size_source"], r["world_size_bound"],
        r["world_size_note"]) == (8, "parallel_group_info", "exact", None), r
d = s["distributed"]
assert d["world_size"] == 8 and d["world_size_at_least"] is None, d
assert d["coverage_note"].startswith("1 of 8 ranks"), d
PY

# the text export: links only
M=$PR_SRCDIR/tests/data/ascend/hccl_members
"$PR_BIN" -q --input "$M" --json "$T_DIR/m.json" --html "$T_DIR/m.html"
check "hccl_members: exit 0" [ $? -eq 0 ]
check "hccl_members: rank 3's world is at least 5, from its links" \
    [ "$(run "$T_DIR/m.json")" = "3 5 communication groups at_least" ]
check "hccl_members: the note names the file and what it lacks" \
    python3 - "$T_DIR/m.json" << 'PY'
import json, sys
n = json.load(open(sys.argv[1]))["runs"][0]["world_size_note"]
assert n.startswith("at least 5: this rank's communication links "
                    "(communication_matrix.json) name ranks up to 4"), n
assert "no world group in profiler_metadata.json" in n, n
PY
check "hccl_members: the job is at least 5" \
    [ "$(dist "$T_DIR/m.json")" = "None 5 False" ]
check "hccl_members: the HTML never says World size 5" \
    python3 - "$T_DIR/m.html" << 'PY'
import html, sys
t = html.unescape(open(sys.argv[1]).read())
assert "at least 5" in t and "World size 5" not in t
PY

S=${PR_SHARED:-}/traces/torch_npu
if have_shared && [ -d "$S/old2023" ] && [ -d "$S/db_level1" ]; then
    "$PR_BIN" -q --input "$S/old2023" --json "$T_DIR/old.json"
    check "old2023: each rank's view is at_least (9, 10), the job's at least 10" \
        python3 - "$T_DIR/old.json" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
got = [(r["rank"], r["world_size"], r["world_size_bound"]) for r in s["runs"]]
assert got == [(0, 9, "at_least"), (1, 10, "at_least")], got
d = s["distributed"]
assert d["world_size"] is None and d["world_size_at_least"] == 10, d
PY
    "$PR_BIN" -q --input "$S/old2023/test_rank_0" --json "$T_DIR/old0.json"
    "$PR_BIN" --input "$S/old2023/test_rank_0" > "$T_DIR/old0.term" \
        2> /dev/null
    check "old2023 rank 0 alone: the job is at least 9" \
        [ "$(dist "$T_DIR/old0.json")" = "None 9 False" ]
    check "old2023 rank 0 alone: the terminal never says 1 of 9" \
        sh -c '! grep -q "1 of 9" "$1"' sh "$T_DIR/old0.term"
    "$PR_BIN" -q --input "$S/db_level1" --json "$T_DIR/npudb.json"
    check "npu_db1: the note lists META_DATA's names, no parallel_group_info" \
        python3 - "$T_DIR/npudb.json" << 'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["runs"]:
    n = r["world_size_note"]
    assert r["world_size_bound"] == "at_least" and r["world_size"] == 8, r
    assert "its META_DATA holds SCHEMA_VERSION_MICRO, SCHEMA_VERSION_MINOR, " \
           "SCHEMA_VERSION_MAJOR, SCHEMA_VERSION, ENV_VARIABLES (no " \
           "parallel_group_info" in n, n
PY
else
    skip "world size bounds on ../shared's old2023 and npu_db1" "no $S"
fi

# msprof's database of a rank it does not name, of which no collective is
# read (COMMUNICATION_OP is empty; 9 HCCL tasks to ranks up to 7): no
# view, its world at least 8, and no claim of an older profreport
F=${PR_SHARED:-}/traces/msprof/extra/msinsight_full_db
if have_shared && [ -d "$F" ]; then
    "$PR_BIN" -q --input "$F" --json "$T_DIR/full.json" \
        --html "$T_DIR/full.html"
    check "msprof_full_db: the run's world is at least 8, the note says the run's" \
        python3 - "$T_DIR/full.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
assert (r["world_size"], r["world_size_bound"]) == (8, "at_least"), r
assert r["world_size_note"].startswith("at least 8: the run's HCCL tasks"), r
assert "it has no META_DATA table" in r["world_size_note"], r
PY
    check "msprof_full_db: the HTML says at least 8 and no older profreport" \
        python3 - "$T_DIR/full.html" << 'PY'
import html, sys
t = html.unescape(open(sys.argv[1]).read())
assert "No distributed view: no collective call was read from the trace " \
    "(a producer's step table may give a communication total, not split " \
    "by collective), though its runs are ranks of a job (world size at " \
    "least 8)." in t
assert "older profreport" not in t and "world size 8)" not in t
PY
else
    skip "msprof_full_db's world size" "no $F"
fi
# MindSpore's rank 1 of 2 (its cluster file's name), no collective read:
# the world is exact, and no older profreport is named either
R=${PR_SHARED:-}/traces/mindspore/extra/run_3_profiler
if have_shared && [ -d "$R" ]; then
    "$PR_BIN" -q --input "$R" --html "$T_DIR/ms3.html"
    check "ms_run3: world size 2, no view, no claim of an older profreport" \
        python3 - "$T_DIR/ms3.html" << 'PY'
import html, sys
t = html.unescape(open(sys.argv[1]).read())
assert "though its runs are ranks of a job (world size 2)." in t
assert "older profreport" not in t
PY
else
    skip "ms_run3's world size" "no $R"
fi

echo "1..$T_N"
