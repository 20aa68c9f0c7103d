#!/bin/sh
# host_ops_capture.sh - review 30g #7: the host_ops finding of a capture
# without steps speaks of the capture, not "a step", and a program that is
# not PyTorch's (an MPI C code under Nsight Systems) is told to sample its
# host with nsys or perf, never with_stack=True or py-spy; "no operator
# named" where none is.  Hand-made: an nsys export of four 40 ms NVTX
# ranges (MPI_Send/MPI_Recv) each followed by one 2 ms kernel.
. "$PR_SRCDIR/tests/lib.sh"
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "host_ops capture words" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR/h.sqlite" << 'PY'
import sys
import nsys_db
db = nsys_db.export(sys.argv[1], ['cudaLaunchKernel_v7000', 'saxpy'],
                    'saxpy_mpi')
db.execute("CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, "
           "eventType INTEGER, globalTid INTEGER, text TEXT)")
M = 1000000
t = M
for i in range(4):
    db.execute("INSERT INTO NVTX_EVENTS VALUES (?, ?, 59, ?, ?)",
               (t, t + 40 * M, nsys_db.GPID | 100,
                "MPI_Send" if i % 2 == 0 else "MPI_Recv"))
    t += 40 * M + 100000
    nsys_db.runtime(db, t, t + 10000, i + 1, 1)
    nsys_db.kernel(db, t + 20000, t + 2 * M, i + 1, 2)
    t += 2 * M + 100000
db.commit()
PY
"$PR_BIN" -q --input "$T_DIR/h.sqlite" --json "$T_DIR/h.json" 2> "$T_DIR/err" ||
    sed 's/^/# /' "$T_DIR/err"
python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
for x in (r.get('recommendations') or []) + (r.get('observations') or []):
    if x['id'] == 'host_ops':
        print(x['text'])" "$T_DIR/h.json" > "$T_DIR/t.txt"
check "host_ops fires on the capture" grep -q "Host work is" "$T_DIR/t.txt"
check "in the capture's words, never 'a step'" \
    sh -c "grep -q 'in the capture' '$T_DIR/t.txt' && ! grep -q 'a step' '$T_DIR/t.txt'"
check "no operator named, said so" grep -q "no operator named" "$T_DIR/t.txt"
check "a C program: nsys/perf sampling, no with_stack or py-spy" \
    sh -c "grep -q 'nsys profile --sample=process-tree' '$T_DIR/t.txt' && ! grep -q 'with_stack\|py-spy' '$T_DIR/t.txt'"
# the held-out B200 trace (no ProfilerStep) titled it "Host operators
# bound the step" and its gain note said "at most 973 us a step"
check "its title and gain note speak of the capture too" python3 -c "
import json, re, sys
r = json.load(open(sys.argv[1]))['runs'][0]
xs = [x for x in (r.get('recommendations') or []) + (r.get('observations') or [])
      if x['id'] == 'host_ops']
fs = [f for f in r['verdict']['findings'] if f['id'] == 'host_ops']
print([(x.get('title'), x.get('gain_note')) for x in xs], [f['title'] for f in fs])
ok = xs and fs and all(f['title'] == 'Host operators bound the capture' for f in fs)
ok = ok and all(x.get('title') in (None, 'Host operators bound the capture') and
                not re.search(r'\bsteps?\b', x.get('gain_note') or '') for x in xs)
sys.exit(0 if ok else 1)" "$T_DIR/h.json"
echo "1..$T_N"
