#!/bin/sh
# ascend_p2p_table_only.sh - issue #30: a rank folder of step_trace_time.csv
# and communication.json alone (no task to replay), bound by HCCL
# communication that is mostly point-to-point waiting, says so in its
# verdict and communication finding, with that wait as the evidence, as a
# rank with tasks does (ascend_pp_wait.sh).  The CANN 8.3 PP2 DP2 job's
# rank 1 (hcom_batchSendRecv_ Wait 164.1 ms, Idle 158.9 ms of HCCL's
# 441.7 ms a step) named HCCL's Idle and Wait alone.
# tests/data/ascend/pp4 with rank 1 made communication-bound: Computing
# 150, Communication(Not Overlapped) 250, Free 20 ms a step, its two
# batchSendRecv a step waiting 40 ms and idling 39 ms each.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "table-only p2p wait" "no python3"
    echo "1..$T_N"
    exit 0
fi
cp -R "$PR_SRCDIR/tests/data/ascend/pp4" "$T_DIR/pp4"
chmod -R u+w "$T_DIR/pp4"
python3 - "$T_DIR/pp4/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT" << 'PY'
import json, os, sys
d = sys.argv[1]
rows = open(os.path.join(d, "step_trace_time.csv")).read().splitlines()
out = [rows[0]]
for r in rows[1:]:
    f = r.split(",")
    f[2], f[3], f[6] = "150000", "250000", "20000"
    out.append(",".join(f))
open(os.path.join(d, "step_trace_time.csv"), "w").write("\n".join(out) + "\n")
cj = json.load(open(os.path.join(d, "communication.json")))
for st in cj.values():
    for op in st["p2p"].values():
        ti = op["Communication Time Info"]
        ti["Wait Time(ms)"], ti["Idle Time(ms)"] = 40.0, 39.0
        ti["Synchronization Time(ms)"] = 39.9
json.dump(cj, open(os.path.join(d, "communication.json"), "w"))
PY
"$PR_BIN" -q --input "$T_DIR/pp4" --json "$T_DIR/s.json" 2> "$T_DIR/err"
check "exit 0 ($(head -c 200 "$T_DIR/err"))" [ -s "$T_DIR/s.json" ]
python3 - "$T_DIR/s.json" > "$T_DIR/r.txt" 2> "$T_DIR/err" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for run in s["runs"]:
    v = run["verdict"]
    f = [x for x in v["findings"] if x["id"] == "communication"]
    print("rank%d|%s|%s|%s|%s" % (run["rank"], v["bound"], v["text"],
          f[0].get("reason") if f else "-", f[0].get("evidence") if f else "-"))
PY
check "summary read ($(head -c 200 "$T_DIR/err"))" [ -s "$T_DIR/r.txt" ]
r1=$(grep "^rank1|" "$T_DIR/r.txt")
check "rank 1 is bound by communication by its step table" \
    sh -c 'echo "$1" | grep -q "^rank1|communication|"' _ "$r1"
# 2 x 40 ms Wait and 2 x 39 ms Idle a step in hcom_batchSendRecv_
check "rank 1's verdict says its HCCL time is point-to-point waiting (${r1%%No device*})" \
    sh -c 'echo "$1" | grep -q "point-to-point waiting: hcom_batchSendRecv_[^ ]* Wait 80.0 ms and Idle 78.0 ms a step"' _ "$r1"
# the job's stages name the stage it waits for (pr_stages_apply): the
# verdict's hedge becomes that stage, the finding a pipeline bubble
check "rank 1's verdict names the stage it waits for" \
    sh -c 'echo "$1" | grep -q "waiting for its peer (the slower pipeline stage, ranks 2, 3: Computing 402.5 ms a step against 231.0 ms for this stage, the largest of each stage.s ranks)"' _ "$r1"
check "rank 1's evidence is that Wait and Idle" \
    sh -c 'echo "$1" | grep -q "hcom_batchSendRecv_ Wait, 2 calls a step (communication.json) 80.0 ms; hcom_batchSendRecv_ Idle, 2 calls a step (communication.json) 78.0 ms"' _ "$r1"
# the pipeline view gives the fast stage's p2p Wait and Idle, the stage's
# mean (rank 0: 158.0 Wait, 0.4 Idle a step; rank 1: 80.0 and 78.0)
python3 -c "
import json, sys
print(json.load(open(sys.argv[1]))['distributed']['pipeline']['finding'])
" "$T_DIR/s.json" > "$T_DIR/pipe.txt" 2> "$T_DIR/err"
check "the pipeline view counts the fast stage's p2p Idle too ($(head -c 300 "$T_DIR/pipe.txt"))" \
    grep -q "119.0 ms a step in the Wait Time and 39.2 ms in the Idle Time of their point-to-point operations" "$T_DIR/pipe.txt"
# rank 3, the slower stage, computes: no such words
check "rank 3 (the stage the others wait for) says no p2p wait" \
    sh -c '! grep "^rank3|" "$1" | grep -q "point-to-point waiting"' _ "$T_DIR/r.txt"
echo "1..$T_N"
