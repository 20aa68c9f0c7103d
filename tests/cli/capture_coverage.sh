#!/bin/sh
# capture_coverage.sh - host coverage of a run without steps (hostcov.c,
# review 22g item 2): the capture is the window; time before the first
# recorded call and after the last is as unrecorded as a gap between two
# calls, and a trace with runtime calls but no operator is judged against
# those calls alone.  Before, such runs had host_coverage null, and the
# verdict said "Bound by the host ... host work 83%" (nsys/mock.sqlite) with
# no caveat.  Hand-made traces, then nsys_mock, cuda_event_sync_multi_stream
# and inference_rank_1 when ../shared is there.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "capture coverage" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi

# field FILE EXPR: a Python expression over the first run (r) of a summary
field() {
    python3 - "$1" "$2" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(eval(sys.argv[2]))
PY
}

# An Nsight Systems export of one process: two cudaLaunchKernel calls
# 100 ms apart (1 ms each), a 10 us kernel after each; no NVTX, no
# operator.  The capture is 101 ms; 99 ms of it lie between the calls.
python3 - "$T_DIR/two.sqlite" << 'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
g = (1 << 48) | (100 << 24)
ms = 1000000
db.executescript("""
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'my_kernel');
CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
INSERT INTO META_DATA_EXPORT VALUES
  ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
  ('EXPORT_SCHEMA_VERSION', '3.25.0');
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
  start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
  correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL,
  shortName INTEGER NOT NULL, registersPerThread INTEGER NOT NULL,
  gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
  blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
  staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
  graphNodeId INTEGER, graphId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
  start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL,
  returnValue INTEGER NOT NULL, callchainId INTEGER);
""")
db.execute("INSERT INTO PROCESSES VALUES (?, 100, 'python3')", (g,))
for i, t in enumerate((0, 100 * ms)):
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES "
               "(?, ?, 0, ?, ?, 1, 0, NULL)", (t, t + ms, g | 100, i + 1))
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, 0, 1, 7, "
               "?, ?, 2, 2, 32, 1, 1, 1, 128, 1, 1, 0, 0, NULL, NULL)",
               (t + ms // 2, t + ms // 2 + 10000, i + 1, g))
db.commit()
PY
"$PR_BIN" -q --input "$T_DIR/two.sqlite" --json "$T_DIR/two.json" \
    --html "$T_DIR/two.html"
check "nsys-like: summary written" [ -s "$T_DIR/two.json" ]
p=$(field "$T_DIR/two.json" "round(r['host_coverage']['unrecorded_pct'], 1)")
check "nsys-like: 99 of 101 ms between the two calls unrecorded ($p%)" \
    test "$p" = "$(python3 -c 'print(round(100 * 99 / 101, 1))')"
check "nsys-like: the note is worded over the capture" \
    test "$(field "$T_DIR/two.json" "r['host_coverage']['note'].startswith(\"98% of the capture's host time (99.0 ms of 101.0 ms, no steps)\")")" = True
check "nsys-like: a Data quality row" \
    test "$(field "$T_DIR/two.json" "[d['kind'] for d in r['diagnostics']].count('host_unrecorded')")" = 1
check "nsys-like: the host-bound verdict carries the caveat" \
    test "$(field "$T_DIR/two.json" "r['verdict']['bound'] == 'host' and \"of the capture's host time is inside no recorded\" in r['verdict']['text']")" = True
check "nsys-like: the Critical path section says its host parts are unexplained" \
    grep -q 'The host parts of this path' "$T_DIR/two.html"
check "nsys-like: no operator table to qualify, no note on it" \
    test "$(grep -c 'Host times rest on what the trace recorded' "$T_DIR/two.html")" = 0

# A Kineto trace whose profiler window (the "PyTorch Profiler (0)" Trace
# event) opens 60 ms before its first recorded event: two aten::mm of
# 10 ms at 60 and 75 ms, each with a launch; the window ends at 100 ms.
# Unrecorded: 60 ms before, 5 ms between, 15 ms after = 80%.
python3 - "$T_DIR/lead.json" << 'PY'
import json, sys
ms = 1000.0
ev = [{"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": 7,
       "tid": 1, "ts": 0, "dur": 100 * ms, "args": {}}]
for i, t in enumerate((60, 75)):
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7,
               "tid": 1, "ts": t * ms, "dur": 10 * ms,
               "args": {"External id": i + 1}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
               "pid": 7, "tid": 1, "ts": t * ms + 1000, "dur": 10,
               "args": {"External id": i + 1, "correlation": i + 1}})
    ev.append({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0,
               "tid": 7, "ts": t * ms + 1020, "dur": 50,
               "args": {"External id": i + 1, "correlation": i + 1,
                        "device": 0, "stream": 7}})
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q --input "$T_DIR/lead.json" --json "$T_DIR/lead.s.json"
p=$(field "$T_DIR/lead.s.json" "float(round(r['host_coverage']['unrecorded_pct'], 1))")
check "lead-in: 60 + 5 + 15 of 100 ms unrecorded ($p%)" test "$p" = "80.0"
check "lead-in: the note names the time before the first call and after the last" \
    test "$(field "$T_DIR/lead.s.json" "'(60.0 ms before the first recorded call, 15.0 ms after the last)' in r['host_coverage']['note']")" = True

if ! have_shared; then
    skip "shared captures" "no ../shared/traces"
    echo "1..$T_N"
    exit 0
fi
if shared_report mock nsys/mock.sqlite; then
    # 9 runtime calls, 40.7 ms; the capture 235.8 ms
    check "nsys_mock: 83% of the capture unrecorded" \
        test "$(field "$T_DIR/mock.json" "round(r['host_coverage']['unrecorded_pct'])")" = 83
    check "nsys_mock: the host-bound verdict carries the caveat" \
        grep -q "Bound by the host over the capture.*But 83% of the capture's host time is inside no recorded" "$T_DIR/mock.term"
else
    skip "nsys_mock" "no nsys/mock.sqlite"
fi
if shared_summary esm hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz; then
    # the critical path leaves that lead-in out (critpath_lead.sh): the
    # 19.9 ms path covers 32% of the capture, so no bound is named
    check "event_sync_multi: the 42.5 ms before the first recorded event are unrecorded" \
        test "$(field "$T_DIR/esm.json" "'(42.5 ms before the first recorded call' in r['host_coverage']['note'] and r['verdict']['text'].startswith(\"What bounds the capture is not known: the trace's critical path covers only 32% of it\")")" = True
else
    skip "event_sync_multi" "no hta/critical_path/cuda_event_sync_multi_stream"
fi
if shared_summary inf hta/trace_file_list/inference_rank_1.json.gz; then
    check "inference: the lead-in and the tail are both unrecorded" \
        test "$(field "$T_DIR/inf.json" "'(71.2 ms before the first recorded call, 973.3 ms after the last)' in r['host_coverage']['note']")" = True
else
    skip "inference" "no hta/trace_file_list"
fi
echo "1..$T_N"
