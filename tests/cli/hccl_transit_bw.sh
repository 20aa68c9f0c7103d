#!/bin/sh
# hccl_transit_bw.sh - review32a #3 and #7: HCCL bandwidths of torch_npu
# and msprof exports are rated over each operation's Transit Time
# (communication.json, analysis.db CommAnalyzerTime), as msprof-analyze's
# Communication Bandwidth Info rates them, never over its Elapse, which
# also holds the wait for a late peer (npu_text2: 99.97 ms Elapse, 93.2
# ms of it Idle, read 4.3 GB/s busbw beside 15 GB/s a link).  An
# operation whose Transit Time is 0 (torch_npu writes 0 for some ops
# whose links carried bytes, old2023) is left unrated, and its bytes are
# not divided by another operation's transit (old2023 rank1: 7,961.7
# GB/s).
# Hand-made torch_npu folder: two hcom_allReduce tasks,
#  op 0: Elapse 10 ms, Transit 1 ms, 10 MB (count 2,500,000 FP32), 10 MB
#        over HCCS;
#  op 1: Elapse 1 ms, Transit 0, 2 MB (count 500,000 FP32), 2 MB over
#        HCCS (over 1 MiB: not left unrated as latency, issue #30).
. "$PR_SRCDIR/tests/lib.sh"
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1; then
    skip "HCCL transit bandwidth" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR/a" << 'PY'
import json, os, sys
from hccl_trace import A, proc, task, thread  # tests/cli/lib
out = sys.argv[1]
ev = [A("ProfilerStep#1", 100, 100, 0, 12000, "cpu_op"),
      task("Conv2D1", 10, 50, 11),
      A("hcom_allReduce__1_0_1", 950, 0, 100, 10000,
        **{"data_type": "FP32", "count": 2500000, "alg_type": "MESH-RING"}),
      A("hcom_allReduce__1_1_1", 950, 0, 10200, 1000,
        **{"data_type": "FP32", "count": 500000, "alg_type": "MESH-RING"}),
      proc(100, "Python"), proc(900, "Ascend Hardware"), proc(950, "HCCL"),
      thread(950, 0, "Group 0 Communication"),
      {"ph": "M", "name": "process_labels", "pid": 900, "tid": 0,
       "args": {"labels": "NPU 0"}}]
d = os.path.join(out, "rank0_ascend_pt")
os.makedirs(d + "/ASCEND_PROFILER_OUTPUT", exist_ok=True)
json.dump(ev, open(d + "/ASCEND_PROFILER_OUTPUT/trace_view.json", "w"))
json.dump({"rank_id": 0}, open(d + "/profiler_info_0.json", "w"))
def op(start, elapse, transit, mb):
    return {"Communication Time Info": {
                "Start Timestamp(us)": 1000000.0 + start,
                "Elapse Time(ms)": elapse, "Transit Time(ms)": transit,
                "Wait Time(ms)": 0.0, "Synchronization Time(ms)": 0.0,
                "Idle Time(ms)": elapse - transit, "Wait Time Ratio": 0.0,
                "Synchronization Time Ratio": 0.0},
            "Communication Bandwidth Info": {"HCCS": {
                "Transit Size(MB)": mb, "Transit Time(ms)": transit,
                "Bandwidth(GB/s)": mb / transit if transit else 0,
                "Large Packet Ratio": 0, "Size Distribution": {}}}}
json.dump({"step1": {"collective": {
    "hcom_allReduce__1_0_1@77": op(100, 10.0, 1.0, 10.0),
    "hcom_allReduce__1_1_1@77": op(10200, 1.0, 0.0, 2.0)}, "p2p": {}}},
    open(d + "/ASCEND_PROFILER_OUTPUT/communication.json", "w"))
PY

"$PR_BIN" -q --input "$T_DIR/a" --json "$T_DIR/a.json" --html "$T_DIR/a.html"
check "exit 0" [ $? -eq 0 ]
check "all_reduce: rated over op 0's 1 ms Transit, op 1 (Transit 0) unrated" \
    python3 - "$T_DIR/a.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
c = r["communication"]
o = [x for x in c["ops"] if x["name"].endswith("all_reduce")]
assert len(o) == 1 and o[0]["calls"] == 2, c["ops"]
o = o[0]
# before: bw_us 11,000 (both Elapses), algbw 1.0 GB/s
assert abs(o["bw_us"] - 1000) < 1e-6, o
assert abs(o["algbw_gbps"] - 10.0) < 1e-6, o
n = c["note"] or ""
assert "over each HCCL operation's Transit Time (communication.json)" in n, n
assert "1 call(s) whose operation has a Transit Time of 0" in n, n
PY
check "hccl.ops: transit_bandwidth_gbps rates op 0's bytes over its transit only" \
    python3 - "$T_DIR/a.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
o = [x for x in r["hccl"]["ops"] if x["name"] == "hcom_allReduce_"]
assert len(o) == 1, r["hccl"]
o = o[0]
assert o["calls"] == 2 and abs(o["transit_us"] - 1000) < 1e-6, o
# before: (10 + 2) MB / 1 ms = 12 GB/s
assert abs(o["transit_bandwidth_gbps"] - 10.0) < 1e-6, o
PY

# op 0 with Transit 0 too: nothing is rated, no 2 MB / 0 and no Elapse
sed 's/"Transit Time(ms)": 1.0/"Transit Time(ms)": 0.0/g' \
    "$T_DIR/a/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json" > "$T_DIR/c.json"
mv "$T_DIR/c.json" "$T_DIR/a/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json"
"$PR_BIN" -q --input "$T_DIR/a" --json "$T_DIR/b.json" --html "$T_DIR/b.html"
check "no Transit: no bandwidth, both calls unrated" python3 - "$T_DIR/b.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
o = [x for x in r["communication"]["ops"] if x["name"].endswith("all_reduce")][0]
assert o["algbw_gbps"] is None and o["busbw_gbps"] is None, o
assert "2 call(s) whose operation has a Transit Time of 0" in r["communication"]["note"]
h = [x for x in r["hccl"]["ops"] if x["name"] == "hcom_allReduce_"][0]
assert h["transit_bandwidth_gbps"] is None, h
PY
check "no Transit: the HCCL table's note names the row whose links carried bytes" \
    python3 - "$T_DIR/b.html" "$T_DIR/a.html" << 'PY'
import html, sys
b, a = (html.unescape(open(f, encoding="utf-8").read()) for f in sys.argv[1:])
w = ("Operations with 1 MiB or more on their links but a Transit Time "
     "of 0: rank 0 hcom_allReduce_ 1 (11.4 MiB). communication.json's "
     "Bandwidth Info gives these bytes moved, yet these operations' "
     "op-level Transit Time is 0")
assert w in b, b[b.find("HCCL time by operation"):][:3000]
# its row has 1 ms Transit, from op 0: op 1's 2 MB is 1 of its 2 calls
# (issue #30 #2: one listing rule, the row's merge said)
w = "rank 0 hcom_allReduce_ 1 (1 of its 2 calls; 1.91 MiB)"
assert w in a, a[a.find("HCCL time by operation"):][:3000]
PY

# two ranks alike (review32a #8): the clauses their notes share are said
# once under both names, each rank's own count under its name
R="$T_DIR/j/rank1_ascend_pt"
mkdir -p "$T_DIR/j"
cp -r "$T_DIR/a/rank0_ascend_pt" "$T_DIR/j/"
cp -r "$T_DIR/a/rank0_ascend_pt" "$R"
rm "$R/profiler_info_0.json"
printf '{"rank_id": 1}' > "$R/profiler_info_1.json"
sed 's/"Transit Time(ms)": 0.0, "Wait/"Transit Time(ms)": 0.5, "Wait/' \
    "$R/ASCEND_PROFILER_OUTPUT/communication.json" > "$T_DIR/c.json"
mv "$T_DIR/c.json" "$R/ASCEND_PROFILER_OUTPUT/communication.json"
"$PR_BIN" -q --input "$T_DIR/j" --html "$T_DIR/j.html"
check "job: exit 0" [ $? -eq 0 ]
check "job: the shared note once, under both ranks" python3 - "$T_DIR/j.html" << 'PY'
import html, re, sys
h = html.unescape(open(sys.argv[1], encoding="utf-8").read())
n = h.count("over each HCCL operation's Transit Time")
assert n == 1, n
assert "rank0, rank1: Algbw and busbw are over each HCCL operation's Transit Time" in h
assert "rank0: 2 call(s) whose operation has a Transit Time of 0" in h
assert "rank1: 1 call(s) whose operation has a Transit Time of 0" in h
PY

# a real sample: npu_text2's all_reduce, 93% of its Elapse Idle, is rated
# over the 4.04 ms its communication.json gives as Transit
D=${PR_SHARED:-}/traces/torch_npu/text_level2
if have_shared && [ -d "$D" ]; then
    "$PR_BIN" -q --input "$D" --json "$T_DIR/t2.json"
    check "npu_text2: all_reduce over its 4.04 ms Transit (busbw ~106 GB/s)" \
        python3 - "$T_DIR/t2.json" "$D" << 'PY'
import glob, json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
o = [x for x in r["communication"]["ops"] if x["name"] == "hccl:all_reduce"][0]
f = glob.glob(sys.argv[2] + "/*/ASCEND_PROFILER_OUTPUT/communication.json")[0]
tr = sum(op["Communication Time Info"]["Transit Time(ms)"]
         for st in json.load(open(f)).values()
         for k, op in st["collective"].items() if k != "Total Op Info")
assert abs(o["bw_us"] - tr * 1000) < 0.01, (o, tr)
assert 100 < o["busbw_gbps"] < 110, o
PY
else
    skip "npu_text2: all_reduce over its Transit" "no ../shared"
fi

echo "1..$T_N"
