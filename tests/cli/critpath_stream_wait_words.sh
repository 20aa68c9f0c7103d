#!/bin/sh
# critpath_stream_wait_words.sh - issue #30 #2 (msprof_tv run 0,
# kernel_details_910B_v1.csv): the critical path's "Stream wait 0.57 ms"
# is inferred (a collective waiting for its input from another stream, a
# hand-off of 100 us or less: the CSV has no wait, event or notify task)
# while its idle note said "no stream wait or event recorded", and the
# column's tooltip called it "an event wait on the device".  The idle
# note now says its tasks' waits are not among the stream waits, the
# tooltip names the inferred hand-offs (critpath_call_own.sh checks the
# host's blocking calls' column now reads "Host sync").
# Hand-made kernel_details.csv (Add0 on stream 17 overlaps MatMul0, so
# the streams are not one serial queue): MatMul0 [0, 1000) us on stream
# 16, hcom_allReduce__1_0 [1050, 1100) (its input 50 us after MatMul0),
# MatMul1 [1200, 3000) (its result 100 us after), hcom_allReduce__1_1
# [3050, 3550) (50 us after MatMul1): 200 us of inferred stream waits;
# MatMul2 [5000, 6000), 1450 us after the collective: idle.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "stream wait words" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import sys
H = ("Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,"
     "Start Time(us),Duration(us),Wait Time(us),Block Dim\n")
def row(n, ty, core, ts, dur, st="16"):
    na = core == "HCCL"
    return "1,4294967295,%s,%s,%s,%s,%s,%.1f,%.2f,0,8\n" % (
        "N/A" if na else "1", "N/A" if na else st, n, ty, core,
        1699529622000000 + ts, dur)
s = H + row("MatMul0", "MatMul", "AI_CORE", 0, 1000)
s += row("Add0", "Add", "AI_VECTOR_CORE", 100, 800, "17")
s += row("hcom_allReduce__1_0", "hcom_allReduce_", "HCCL", 1050, 50)
s += row("MatMul1", "MatMul", "AI_CORE", 1200, 1800)
s += row("hcom_allReduce__1_1", "hcom_allReduce_", "HCCL", 3050, 500)
s += row("MatMul2", "MatMul", "AI_CORE", 5000, 1000)
open(sys.argv[1] + "/kernel_details.csv", "w").write(s)
PY
"$PR_BIN" -q --input "$T_DIR/kernel_details.csv" --json "$T_DIR/s.json" \
    --html "$T_DIR/s.html" 2> "$T_DIR/err"
check "report written (exit $?; $(head -c 200 "$T_DIR/err"))" \
    [ -s "$T_DIR/s.json" ] && [ -s "$T_DIR/s.html" ]
python3 - "$T_DIR/s.json" > "$T_DIR/r.txt" 2> "$T_DIR/err" << 'PY'
import json, sys
cp = json.load(open(sys.argv[1]))['runs'][0]['critical_path']
print('stream_wait %.0f' % cp['by_kind_us']['stream_wait'])
print('idle_note %s' % cp['idle_note'])
PY
check "the hand-offs to and from the collectives are 200 us of stream wait ($(head -1 "$T_DIR/r.txt"))" \
    grep -q "^stream_wait 200$" "$T_DIR/r.txt"
check "the idle note says its task's wait is none of the path's stream waits ($(tail -1 "$T_DIR/r.txt" | head -c 300))" \
    grep -q "no stream wait or event recorded before it, nor a hand-off from another stream's task inferred (the path's stream waits are other tasks')" \
    "$T_DIR/r.txt"
check "the Stream wait tooltip names the inferred hand-offs, not only event waits" \
    grep -q "recorded event waits, or inferred ones, where a task starts just after another stream&#39;s task ends (a collective waiting for its input from another stream, a task for a collective&#39;s result; a hand-off of" \
    "$T_DIR/s.html"
check "no tooltip calls it an event wait on the device alone" \
    sh -c '! grep -q "(an event wait on the device)" "$1"' _ "$T_DIR/s.html"
echo "1..$T_N"
