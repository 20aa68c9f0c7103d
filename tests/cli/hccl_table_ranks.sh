#!/bin/sh
# hccl_table_ranks.sh - issue #30 (second review, old2023): the HCCL
# table of a job of several ranks.
#  #1 its rows in one order, by Elapse across the ranks: the PDF's
#     "Top 8 of 20, by Elapse per rank" held rank 0's eight rows and left
#     out rank 1's 103 ms hcom_allReduce_;
#  #2 its Transit-0 note lists the calls of 1 MiB or more, "1 of its 2
#     calls" where the row holds others, and counts the tiny ones: it
#     listed rank 1's allReduce_ 483 row whole (Transit 18.5 us from its
#     other call) and a 12 B row, and left out a 40 B broadcast;
#  #3 a communication note the ranks share says its counts are each
#     rank's: "rank0, rank1: 2 call(s) whose operation sent under 1 MiB"
#     were 2 on each rank (here: 2 on each, 4 in all).
# Two hand-made torch_npu ranks:
#  rank 0: broadcast @77 Elapse 2 ms, allGather @77 1 ms (Transit 0,
#     12 B), reduceScatter @77 1 ms (Transit 0.5 ms, 4 B);
#  rank 1: allReduce @88 two calls: 30 ms (Transit 0, 8 MB over HCCS)
#     and 10 ms (Transit 1 ms, 2 MB); broadcast @88 (Transit 0, 40 B);
#     reduceScatter @77 1 ms (Transit 0.5 ms, 4 B).
#  #4 (the CANN 8.3 job's "Transit 0.0 ms (moving data)" beside 1.77 GB a
#     step over HCCS) the communication finding's Transit says what it
#     leaves out: rank 1's 8 MB sent in a call of Transit Time 0.
. "$PR_SRCDIR/tests/lib.sh"
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1; then
    skip "HCCL table of two ranks" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR/job" << 'PY'
import json, os, sys
from hccl_trace import A, proc, task, thread  # tests/cli/lib
out = sys.argv[1]
def hop(name, ts, dur, count):
    return A(name, 950, 0, ts, dur, **{"data_type": "FP32", "count": count,
                                       "alg_type": "MESH-RING"})
def link(mb, ms):
    return {"Transit Size(MB)": mb, "Transit Time(ms)": ms,
            "Bandwidth(GB/s)": round(mb / ms, 4) if ms else 0,
            "Large Packet Ratio": 0, "Size Distribution": {}}
def op(start, elapse, transit, mb, ms):
    return {"Communication Time Info": {
                "Start Timestamp(us)": 1000000.0 + start,
                "Elapse Time(ms)": elapse, "Transit Time(ms)": transit,
                "Wait Time(ms)": 0.0, "Synchronization Time(ms)": 0.0,
                "Idle Time(ms)": max(elapse - transit, 0),
                "Wait Time Ratio": 0.0, "Synchronization Time Ratio": 0.0},
            "Communication Bandwidth Info": {
                "HCCS": link(mb, ms), "SDMA": link(mb, ms)}}
# name, ts us, elapse ms, transit ms, MB, link ms, count of FP32
ranks = {
    0: [("hcom_broadcast__77_0_1@77", 100, 2.0, 0.5, 2.0, 0.5, 500000),
        ("hcom_allGather__77_1_1@77", 2200, 1.0, 0, 12e-6, 0.01, 3),
        ("hcom_reduceScatter__77_2_1@77", 3300, 1.0, 0.5, 4e-6, 0.5, 1)],
    1: [("hcom_allReduce__88_0_1@88", 100, 30.0, 0, 8.0, 40.0, 2000000),
        ("hcom_allReduce__88_1_1@88", 30200, 10.0, 1.0, 2.0, 1.0, 500000),
        ("hcom_broadcast__88_2_1@88", 40300, 1.0, 0, 40e-6, 0.01, 10),
        ("hcom_reduceScatter__77_3_1@77", 41400, 1.0, 0.5, 4e-6, 0.5, 1)],
}
for rank, ops in ranks.items():
    ev = [A("ProfilerStep#1", 100, 100, 0, 60000, "cpu_op"),
          task("Conv2D1", 10, 50, 11),
          proc(100, "Python"), proc(900, "Ascend Hardware"),
          proc(950, "HCCL"), thread(950, 0, "Group 0 Communication"),
          {"ph": "M", "name": "process_labels", "pid": 900, "tid": 0,
           "args": {"labels": "NPU %d" % rank}}]
    comm = {}
    for name, ts, el, tr, mb, ms, count in ops:
        ev.append(hop(name.split("@")[0], ts, el * 1000, count))
        comm[name] = op(ts, el, tr, mb, ms)
    d = os.path.join(out, "rank%d_ascend_pt" % rank)
    os.makedirs(d + "/ASCEND_PROFILER_OUTPUT", exist_ok=True)
    json.dump(ev, open(d + "/ASCEND_PROFILER_OUTPUT/trace_view.json", "w"))
    json.dump({"rank_id": rank}, open(d + "/profiler_info_%d.json" % rank, "w"))
    json.dump({"step1": {"collective": comm, "p2p": {}}},
              open(d + "/ASCEND_PROFILER_OUTPUT/communication.json", "w"))
PY

"$PR_BIN" -q --input "$T_DIR/job" --top 3 --json "$T_DIR/a.json" \
    --html "$T_DIR/a.html" --pdf "$T_DIR/a.pdf"
check "exit 0" [ $? -eq 0 ]
check "hccl rows: Transit-0 calls of 1 MiB or more and the tiny ones counted" \
    python3 - "$T_DIR/a.json" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
h = {(r["rank"], o["name"], o["group_tag"]): o
     for r in s["runs"] for o in r["hccl"]["ops"]}
ar = h[(1, "hcom_allReduce_", "88")]
assert ar["calls"] == 2 and ar["transit_zero_calls"] == 1, ar
assert ar["transit_zero_bytes"] == 8e6 and ar["transit_us"] == 1000, ar
assert ar["transit_zero_small_calls"] == 0, ar
# the 2 MB call alone is rated, over its own Transit Time
assert ar["rated_calls"] == 1 and ar["rated_bytes"] == 2e6, ar
assert abs(ar["transit_bandwidth_gbps"] - 2.0) < 1e-9, ar
assert h[(1, "hcom_broadcast_", "88")]["transit_zero_small_calls"] == 1, h
assert h[(1, "hcom_broadcast_", "88")]["transit_zero_calls"] == 0, h
assert h[(0, "hcom_allGather_", "77")]["transit_zero_small_calls"] == 1, h
assert h[(0, "hcom_broadcast_", "77")]["rated_calls"] == 1, h
PY
check "rank 1's communication finding: Transit leaves out the 8 MB (7.6 MiB, the table's unit) of its Transit-0 call" \
    python3 - "$T_DIR/a.json" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
r1 = [r for r in s["runs"] if r["rank"] == 1][0]
c = [x for x in (r1.get("recommendations") or []) + (r1.get("observations") or [])
     if x["id"] == "communication"][0]
assert "into Transit 1.5 ms (the operations' own Transit Time, which leaves " \
    "out 7.6 MiB a step that their links carried in calls whose Transit " \
    "Time is 0), Wait 0.0 ms" in c["text"], c["text"]
PY

HT="$T_DIR/a.txt"
python3 - "$T_DIR/a.html" "$HT" << 'PY'
import html, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
t = re.sub(r"<(td|th)[^>]*>", " | ", t)
t = html.unescape(re.sub(r"<[^>]+>", "", t))
open(sys.argv[2], "w").write(t)
PY
check "HTML: the table's rows by Elapse across the ranks, caption says so" \
    python3 - "$HT" << 'PY'
import re, sys
t = open(sys.argv[1], encoding="utf-8").read()
i = t.find("HCCL time by operation")
s = t[i:]
assert "Top 3 of 6, by Elapse, all ranks together." in s, s[:3000]
rows = re.findall(r"\|\s*(\d)\s*\|\s*(hcom_\w+)\s*\|\s*(\d+)", s)
# rank 1's 40 ms row first, before rank 0's 2 ms one
assert rows[:2] == [("1", "hcom_allReduce_", "88"),
                    ("0", "hcom_broadcast_", "77")], rows
PY
check "HTML: the Transit-0 note lists the 8 MB call, 1 of its row's 2, counts the tiny ones" \
    python3 - "$HT" << 'PY'
import sys
t = open(sys.argv[1], encoding="utf-8").read()
i = t.find("Operations with 1 MiB or more")
assert i >= 0, t[t.find("HCCL time by operation"):][:3000]
note = t[i:t.find(".", t.find("not listed", i)) + 1]
assert "rank 1 hcom_allReduce_ 88 (1 of its 2 calls; 7.63 MiB; HCCS per-link" in note, note
assert "hcom_broadcast_" not in note and "hcom_allGather_" not in note, note
assert "2 call(s) of Transit Time 0 that sent under 1 MiB (latency, not " \
    "bandwidth) are not listed." in note, note
PY
check "HTML: the ranks' shared note says its counts are each rank's" \
    python3 - "$HT" << 'PY'
import sys
t = open(sys.argv[1], encoding="utf-8").read()
i = t.find("rank0, rank1: ")
assert i >= 0, t
n = t[i:t.find("\n", i)]
assert "2 call(s) on each rank whose operation sent under 1 MiB are not " \
    "rated" in n, n
PY
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -layout "$T_DIR/a.pdf" "$T_DIR/p.txt"
    check "PDF: top 3 across the ranks, rank 1's 40 ms all-reduce first" \
        python3 - "$T_DIR/p.txt" << 'PY'
import re, sys
t = open(sys.argv[1], encoding="utf-8").read()
i = t.find("HCCL time by operation")
s = t[i:i + 6000]
assert "Top 3 of 6, by Elapse, all ranks together." in s, s
rows = re.findall(r"^\s+(\d)\s+(hcom_\w*)\s+(\d+)\s", s, re.M)
assert rows[0] == ("1", "hcom_allReduce_", "88"), rows
assert rows[1] == ("0", "hcom_broadcast_", "77"), rows
PY
else
    skip "PDF: top 3 across the ranks" "no pdftotext"
fi
echo "1..$T_N"
