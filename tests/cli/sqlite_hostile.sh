#!/bin/sh
# sqlite_hostile.sh - a database is data, never code (issue #35): an
# Nsight Systems export whose StringIds.value is a generated column (its
# SQL would run on every row: 50 s, or gigabytes) and a torch_npu-shaped
# database with a STORED one are refused at once with exit 2, naming the
# table and column; a view standing in for a table is never evaluated; an
# export in WAL mode is read whole (its "-wal" counted, also through a
# symlink and under --max-input) without a "-shm" or anything else made
# beside it.  Built from tests/data/nsys/basic.sql: runs without ../shared.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1 ||
   ! python3 -c 'import sqlite3; assert sqlite3.sqlite_version_info >= (3, 31)' \
        2>/dev/null; then
    skip "hostile databases" "python3 with sqlite3 3.31 or later is needed"
    echo "1..$T_N"
    exit 0
fi

BASIC=$PR_SRCDIR/tests/data/nsys/basic.sql
# make NAME SQL...: basic.sql, then the statements given
make_db() {
    out=$1
    shift
    python3 - "$BASIC" "$T_DIR/$out" "$@" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1]).read())
for s in sys.argv[3:]:
    db.executescript(s)
db.commit()
PY
}

# refused NAME SAYS: exit 2 within 10 s, the message says SAYS, no output
refused() {
    rm -f "$T_DIR/o.json"
    timeout 10 "$PR_BIN" -q --input "$T_DIR/$1" --json "$T_DIR/o.json" \
        2> "$T_DIR/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q "$2" "$T_DIR/err" && [ ! -e "$T_DIR/o.json" ]
    then ok "$1: refused with exit 2: $2"
    else not_ok "$1: exit $rc ($(head -c 300 "$T_DIR/err"))"; fi
}

# the reported case: a 12 KiB export whose names are computed
make_db gen_virtual.sqlite \
    "ALTER TABLE StringIds RENAME TO S0;
     CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT
         GENERATED ALWAYS AS (printf('%.*c', 400000000, 'x')) VIRTUAL);
     INSERT INTO StringIds (id) SELECT id FROM S0; DROP TABLE S0;"
refused gen_virtual.sqlite "column StringIds.value is a generated column"
make_db gen_stored.sqlite \
    "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN twice INTEGER
         GENERATED ALWAYS AS (2 * start) VIRTUAL;"
refused gen_stored.sqlite \
    "column CUPTI_ACTIVITY_KIND_KERNEL.twice is a generated column"
make_db vtab.sqlite "CREATE VIRTUAL TABLE boxes USING rtree(id, a, b);"
refused vtab.sqlite "table boxes is a virtual table"
# a torch_npu-shaped database: the same rule, the other reader
python3 - "$T_DIR/npu.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
INSERT INTO STRING_IDS VALUES (1, 'MatMul');
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,
    connectionId INTEGER, globalTaskId INTEGER, globalPid INTEGER,
    taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER,
    modelId INTEGER, dur AS (zeroblob(endNs - startNs)) STORED);
INSERT INTO TASK (startNs, endNs, deviceId) VALUES (1000, 2000, 0);
""")
db.commit()
PY
refused npu.db "column TASK.dur is a generated column"

# values are range- and type-checked as they are read: a time past
# +-2^62 ns (whose sums would pass int64) and text where an integer
# belongs are bad input, named by table, row and column
make_db big_time.sqlite \
    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = 9000000000000000000
         WHERE rowid = 2;"
refused big_time.sqlite \
    "CUPTI_ACTIVITY_KIND_KERNEL row 2: end is 9000000000000000000 ns, beyond"
make_db text_int.sqlite \
    "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET correlationId = 'eleven'
         WHERE rowid = 2;"
refused text_int.sqlite \
    "CUPTI_ACTIVITY_KIND_RUNTIME row 2: correlationId is text where an integer"
python3 - "$T_DIR/npu_time.db" "$PR_SRCDIR/tests/data/hostile/npu_task.sql" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript(open(sys.argv[2]).read())
db.executescript("""
INSERT INTO TASK VALUES (1000, 2000, 0, 1, 1, 1, 2, 0, 1, 1, 0),
    (-9000000000000000000, 9000000000000000000, 0, 2, 2, 1, 2, 0, 1, 2, 0);
""")
db.commit()
PY
refused npu_time.db "TASK row 2: startNs is -9000000000000000000 ns, beyond"

# a view by a table's name is not that table, and is never evaluated: a
# view that would take minutes leaves the run without runtime calls
make_db view.sqlite \
    "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME RENAME TO R0;
     CREATE VIEW CUPTI_ACTIVITY_KIND_RUNTIME AS
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
                                 WHERE i < 1000000000)
         SELECT r.* FROM R0 r, n;
     CREATE TRIGGER t AFTER INSERT ON R0 BEGIN DELETE FROM StringIds; END;"
sum_before=$(cksum < "$T_DIR/view.sqlite")
timeout 20 "$PR_BIN" -q --input "$T_DIR/view.sqlite" --json "$T_DIR/v.json" \
    2> "$T_DIR/err"
rc=$?
check "view.sqlite: read without evaluating the view (exit $rc: $(head -c 200 "$T_DIR/err"))" \
    [ $rc -eq 0 ]
check "view.sqlite: unchanged by the read" \
    [ "$(cksum < "$T_DIR/view.sqlite")" = "$sum_before" ]

# WAL: rows that only the log holds.  The writer leaves without a
# checkpoint (as a crashed or still-running profiler does), and the -shm
# is removed (as a copy of the run folder has it).
mkdir "$T_DIR/wal" "$T_DIR/elsewhere"
python3 - "$BASIC" "$T_DIR/wal/w.sqlite" <<'PY'
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1]).read())
db.commit()
db.execute("PRAGMA journal_mode = WAL")
db.execute("PRAGMA wal_autocheckpoint = 0")
db.execute("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = 1")
db.commit()
os._exit(0)
PY
rm -f "$T_DIR/wal/w.sqlite-shm"
ln -s ../wal/w.sqlite "$T_DIR/elsewhere/l.sqlite"
# what SQLite itself reads from the pair, on a copy (it writes a -shm)
cp "$T_DIR/wal/w.sqlite" "$T_DIR/copy.sqlite"
cp "$T_DIR/wal/w.sqlite-wal" "$T_DIR/copy.sqlite-wal"
want=$(python3 -c "
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute('SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL').fetchone()[0])
" "$T_DIR/copy.sqlite")
ls "$T_DIR/wal" > "$T_DIR/before"
for in in wal/w.sqlite elsewhere/l.sqlite; do
    rm -f "$T_DIR/w.json"
    "$PR_BIN" -q --input "$T_DIR/$in" --json "$T_DIR/w.json" 2> "$T_DIR/err"
    rc=$?
    got=$(python3 -c "
import json, sys
runs = json.load(open(sys.argv[1]))['runs']
print(sum(k['calls'] for r in runs for k in r['kernels']))
" "$T_DIR/w.json" 2>/dev/null)
    check "$in: the log's rows are read ($got kernels, SQLite reads $want; exit $rc)" \
        [ $rc -eq 0 -a "$got" = "$want" ]
    ls "$T_DIR/wal" > "$T_DIR/after"
    check "$in: nothing made beside the database ($(tr '\n' ' ' < "$T_DIR/after"))" \
        cmp -s "$T_DIR/before" "$T_DIR/after"
    check "$in: nothing made beside the symlink" \
        [ "$(ls "$T_DIR/elsewhere")" = "l.sqlite" ]
done
db_bytes=$(wc -c < "$T_DIR/wal/w.sqlite")
wal_bytes=$(wc -c < "$T_DIR/wal/w.sqlite-wal")
"$PR_BIN" -q --input "$T_DIR/elsewhere/l.sqlite" --max-input "$((db_bytes + 1))" \
    --json "$T_DIR/m.json" 2> "$T_DIR/err"
rc=$?
check "--max-input counts the -wal (exit $rc: $(head -c 200 "$T_DIR/err"))" \
    sh -c "[ $rc -eq 2 ] && grep -q 'write-ahead log' '$T_DIR/err' && [ ! -e '$T_DIR/m.json' ]"
"$PR_BIN" -q --input "$T_DIR/elsewhere/l.sqlite" \
    --max-input "$((db_bytes + wal_bytes))" --json "$T_DIR/m.json" 2> "$T_DIR/err"
check "--max-input of the database and its -wal together is enough" [ $? -eq 0 ]

echo "1..$T_N"
