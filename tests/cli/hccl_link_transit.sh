#!/bin/sh
# hccl_link_transit.sh - issue #30: an HCCL operation whose op-level
# Transit Time is 0 in communication.json (torch_npu's 2023 export) while its Communication Bandwidth Info gives each link type a
# Transit Time above 0 is rated over those: SDMA + RDMA (SDMA already sums
# HCCS, PCIE and SIO, msprof's combine_sdma_info: never added on top), the
# parts only where no SDMA entry is written.  old2023's rank 0
# hcom_allReduce__483_2: Transit 0, 146.8 MB over HCCS in 7.65 ms, which
# the file's own HCCS Bandwidth(GB/s) gives as 19.1799.
# Hand-made torch_npu folder, three HCCL tasks of op-level Transit 0:
#  all_reduce (count 2,500,000 FP32 = 10 MB): SDMA 10 MB / 2 ms, HCCS
#     10 MB / 2 ms (part of SDMA), RDMA 6 MB / 1 ms: 16 MB over 3 ms
#     (with HCCS added on top: 26 MB over 5 ms);
#  all_gather (count 1,000,000 FP32 = 4 MB): no SDMA entry, HCCS 4 MB /
#     1 ms, PCIE 2 MB / 1 ms: 6 MB over 2 ms;
#  reduce_scatter (count 250,000 FP32): every link entry 0 MB in 0 ms:
#     still unrated.
. "$PR_SRCDIR/tests/lib.sh"
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1; then
    skip "HCCL link transit" "no python3"
    # the db export: analysis.db's CommAnalyzerTime with one operation's
# transit_time set to 0 is rated over its CommAnalyzerBandwidth SDMA +
# RDMA transit_time (db_level1 rank 0, copied to the temporary folder)
S=${PR_SHARED:-}/traces/torch_npu/db_level1/rank0_ascend_pt
if have_shared && [ -d "$S" ] && python3 -c "import sqlite3" 2> /dev/null; then
    mkdir -p "$T_DIR/db"
    cp -r "$S" "$T_DIR/db/"
    A="$T_DIR/db/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db"
    chmod -R u+w "$T_DIR/db"
    python3 - "$A" << 'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE CommAnalyzerTime SET transit_time = 0 "
          "WHERE hccl_op_name = 'hcom_allReduce__210_1_1'")
c.commit()
PY
    "$PR_BIN" -q --input "$T_DIR/db" --json "$T_DIR/db.json"
    check "analysis.db: an operation of transit_time 0 is rated over its links'" \
        python3 - "$T_DIR/db.json" "$A" << 'PY'
import json, sqlite3, sys
r = json.load(open(sys.argv[1]))["runs"][0]
assert r["hccl"]["source"] == "analysis.db CommAnalyzerTime", r["hccl"]
c = sqlite3.connect(sys.argv[2])
rows = c.execute("SELECT hccl_op_name, group_name, transit_time FROM "
                 "CommAnalyzerTime WHERE hccl_op_name LIKE 'hcom_allReduce_%' "
                 "AND group_name = '17148521525495523210'").fetchall()
b = t = 0.0
for name, grp, tr in rows:
    link = {}
    for ty, mb, ms in c.execute(
            "SELECT transport_type, transit_size, transit_time FROM "
            "CommAnalyzerBandwidth WHERE hccl_op_name = ? AND group_name = ?",
            (name, grp)):
        link.setdefault(ty, (mb, ms))
    mb = sum(link[k][0] for k in ("SDMA", "RDMA") if k in link)
    ms = sum(link[k][1] for k in ("SDMA", "RDMA") if k in link)
    if tr == 0:
        assert name == "hcom_allReduce__210_1_1" and ms > 0, (name, link)
        tr = ms
    b += mb * 1e6
    t += tr * 1e-3
h = [o for o in r["hccl"]["ops"] if o["name"] == "hcom_allReduce_"
     and o["group"] == "17148521525495523210"][0]
assert abs(h["transit_bandwidth_gbps"] - b / t / 1e9) < 1e-6 * b / t / 1e9, (h, b / t / 1e9)
PY
else
    skip "analysis.db: an operation of transit_time 0" "no $S or no sqlite3"
fi

echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR/a" << 'PY'
import json, os, sys
from hccl_trace import A, proc, task, thread  # tests/cli/lib
out = sys.argv[1]
def hop(name, ts, dur, count):
    return A(name, 950, 0, ts, dur, **{"data_type": "FP32", "count": count,
                                       "alg_type": "MESH-RING"})
ev = [A("ProfilerStep#1", 100, 100, 0, 40000, "cpu_op"),
      task("Conv2D1", 10, 50, 11),
      hop("hcom_allReduce__1_0_1", 100, 10000, 2500000),
      hop("hcom_allGather__1_1_1", 10200, 5000, 1000000),
      hop("hcom_reduceScatter__1_2_1", 15300, 2000, 250000),
      proc(100, "Python"), proc(900, "Ascend Hardware"), proc(950, "HCCL"),
      thread(950, 0, "Group 0 Communication"),
      {"ph": "M", "name": "process_labels", "pid": 900, "tid": 0,
       "args": {"labels": "NPU 0"}}]
d = os.path.join(out, "rank0_ascend_pt")
os.makedirs(d + "/ASCEND_PROFILER_OUTPUT", exist_ok=True)
json.dump(ev, open(d + "/ASCEND_PROFILER_OUTPUT/trace_view.json", "w"))
json.dump({"rank_id": 0}, open(d + "/profiler_info_0.json", "w"))
def link(mb, ms):
    return {"Transit Size(MB)": mb, "Transit Time(ms)": ms,
            "Bandwidth(GB/s)": round(mb / ms, 4) if ms else 0,
            "Large Packet Ratio": 0, "Size Distribution": {}}
def op(start, elapse, links):
    return {"Communication Time Info": {
                "Start Timestamp(us)": 1000000.0 + start,
                "Elapse Time(ms)": elapse, "Transit Time(ms)": 0,
                "Wait Time(ms)": 0.0, "Synchronization Time(ms)": 0.0,
                "Idle Time(ms)": elapse, "Wait Time Ratio": 0.0,
                "Synchronization Time Ratio": 0.0},
            "Communication Bandwidth Info": links}
json.dump({"step1": {"collective": {
    "hcom_allReduce__1_0_1@77": op(100, 10.0, {
        "RDMA": link(6.0, 1.0), "HCCS": link(10.0, 2.0),
        "PCIE": link(0, 0), "SDMA": link(10.0, 2.0)}),
    "hcom_allGather__1_1_1@77": op(10200, 5.0, {
        "HCCS": link(4.0, 1.0), "PCIE": link(2.0, 1.0)}),
    "hcom_reduceScatter__1_2_1@77": op(15300, 2.0, {
        "RDMA": link(0, 0), "HCCS": link(0, 0), "SDMA": link(0, 0)})},
    "p2p": {}}},
    open(d + "/ASCEND_PROFILER_OUTPUT/communication.json", "w"))
PY

"$PR_BIN" -q --input "$T_DIR/a" --json "$T_DIR/a.json" --html "$T_DIR/a.html"
check "exit 0" [ $? -eq 0 ]
check "collectives: rated over SDMA + RDMA (HCCS not added), parts without SDMA" \
    python3 - "$T_DIR/a.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
c = r["communication"]
o = {x["name"]: x for x in c["ops"]}
ar, ag, rs = o["hccl:all_reduce"], o["hccl:all_gather"], o["hccl:reduce_scatter"]
# before: all three unrated (op-level Transit 0)
assert ar["bw_calls"] == 1 and abs(ar["bw_us"] - 3000) < 1e-6, ar
assert abs(ar["algbw_gbps"] - 10e6 / 3e6) < 1e-9, ar
assert ag["bw_calls"] == 1 and abs(ag["bw_us"] - 2000) < 1e-6, ag
assert abs(ag["algbw_gbps"] - 4e6 / 2e6) < 1e-9, ag
assert rs["bw_calls"] == 0 and rs["algbw_gbps"] is None, rs
n = c["note"] or ""
assert ("2 call(s) whose operation has a Transit Time of 0 (an older "
        "torch_npu gives 0 to operations whose links carried bytes) are "
        "rated over the Transit Time its Communication Bandwidth Info gives "
        "per link type, SDMA + RDMA, as that entry's own Bandwidth(GB/s) "
        "is") in n, n
assert ("1 call(s) whose operation has a Transit Time of 0 and no link "
        "type's Transit Time above 0 are not rated") in n, n
PY
check "hccl.ops: transit_bandwidth_gbps over the link types' Transit Time" \
    python3 - "$T_DIR/a.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
h = {x["name"]: x for x in r["hccl"]["ops"]}
ar, ag = h["hcom_allReduce_"], h["hcom_allGather_"]
assert ar["transit_us"] == 0 and ar["bytes"] == 16e6, ar
assert abs(ar["transit_bandwidth_gbps"] - 16e6 / 3e6) < 1e-9, ar
assert ag["bytes"] == 6e6, ag
assert abs(ag["transit_bandwidth_gbps"] - 6e6 / 2e6) < 1e-9, ag
assert h["hcom_reduceScatter_"]["transit_bandwidth_gbps"] is None, h
PY
check "HTML: the Transit-0 note says the rows are rated over their links" \
    python3 - "$T_DIR/a.html" << 'PY'
import html, sys
t = html.unescape(open(sys.argv[1], encoding="utf-8").read())
w = ("op-level Transit Time is 0: the transfer is counted in Idle here, not "
     "Transit, and the bandwidth is rated over the Transit Time the "
     "Bandwidth Info gives per link type, SDMA + RDMA (as its own "
     "Bandwidth(GB/s) is).")
assert w in t, t[t.find("HCCL time by operation"):][:3000]
PY

# old2023's rank 0 all-reduce: 146.8 MB over HCCS in 7.65 ms, Transit 0
S=${PR_SHARED:-}/traces/torch_npu/old2023
if have_shared && [ -d "$S" ]; then
    "$PR_BIN" -q --input "$S" --json "$T_DIR/old.json"
    check "old2023: rank 0 all_reduce busbw is the file's own HCCS Bandwidth(GB/s), 19.18" \
        python3 - "$T_DIR/old.json" "$S" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
r = [r for r in s["runs"] if r["rank"] == 0][0]
o = {o["name"]: o for o in r["communication"]["ops"]}["hccl:all_reduce"]
f = sys.argv[2] + "/test_rank_0/ASCEND_PROFILER_OUTPUT/communication.json"
op = json.load(open(f))["step2"]["collective"][
    "hcom_allReduce__483_2@9350434047717501483"]
assert op["Communication Time Info"]["Transit Time(ms)"] == 0, op
bw = op["Communication Bandwidth Info"]["HCCS"]["Bandwidth(GB/s)"]
assert abs(o["busbw_gbps"] - bw) < 1e-3, (o, bw)
assert abs(o["busbw_gbps"] - 19.18) < 0.01, o
PY
else
    skip "old2023: rank 0 all_reduce busbw" "no $S"
fi

# the db export: analysis.db's CommAnalyzerTime with one operation's
# transit_time set to 0 is rated over its CommAnalyzerBandwidth SDMA +
# RDMA transit_time (db_level1 rank 0, copied to the temporary folder)
S=${PR_SHARED:-}/traces/torch_npu/db_level1/rank0_ascend_pt
if have_shared && [ -d "$S" ] && python3 -c "import sqlite3" 2> /dev/null; then
    mkdir -p "$T_DIR/db"
    cp -r "$S" "$T_DIR/db/"
    A="$T_DIR/db/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db"
    chmod -R u+w "$T_DIR/db"
    python3 - "$A" << 'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE CommAnalyzerTime SET transit_time = 0 "
          "WHERE hccl_op_name = 'hcom_allReduce__210_1_1'")
c.commit()
PY
    "$PR_BIN" -q --input "$T_DIR/db" --json "$T_DIR/db.json"
    check "analysis.db: an operation of transit_time 0 is rated over its links'" \
        python3 - "$T_DIR/db.json" "$A" << 'PY'
import json, sqlite3, sys
r = json.load(open(sys.argv[1]))["runs"][0]
assert r["hccl"]["source"] == "analysis.db CommAnalyzerTime", r["hccl"]
c = sqlite3.connect(sys.argv[2])
rows = c.execute("SELECT hccl_op_name, group_name, transit_time FROM "
                 "CommAnalyzerTime WHERE hccl_op_name LIKE 'hcom_allReduce_%' "
                 "AND group_name = '17148521525495523210'").fetchall()
b = t = 0.0
for name, grp, tr in rows:
    link = {}
    for ty, mb, ms in c.execute(
            "SELECT transport_type, transit_size, transit_time FROM "
            "CommAnalyzerBandwidth WHERE hccl_op_name = ? AND group_name = ?",
            (name, grp)):
        link.setdefault(ty, (mb, ms))
    mb = sum(link[k][0] for k in ("SDMA", "RDMA") if k in link)
    ms = sum(link[k][1] for k in ("SDMA", "RDMA") if k in link)
    if tr == 0:
        assert name == "hcom_allReduce__210_1_1" and ms > 0, (name, link)
        tr = ms
    b += mb * 1e6
    t += tr * 1e-3
h = [o for o in r["hccl"]["ops"] if o["name"] == "hcom_allReduce_"
     and o["group"] == "17148521525495523210"][0]
assert abs(h["transit_bandwidth_gbps"] - b / t / 1e9) < 1e-6 * b / t / 1e9, (h, b / t / 1e9)
PY
else
    skip "analysis.db: an operation of transit_time 0" "no $S or no sqlite3"
fi

echo "1..$T_N"
