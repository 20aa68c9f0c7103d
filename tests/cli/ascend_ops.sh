#!/bin/sh
# ascend_ops.sh - issue #13: an ASCEND_PROFILER_OUTPUT folder without
# trace_view.json still has an operator table, from operator_details.csv
# (or op_statistic.csv), summary-level: operators_source names the file,
# the diagnostics say there are no timestamps, a column the file lacks is
# null (never 0), and the HTML, PDF and `table` show it.  On the real
# CSV-only folders (old2023, and text_level1 without its trace_view.json)
# the operators' calls and times add up to the CSV rows they came from.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "Ascend operator tables" "no python3"
    echo "1..$T_N"
    exit 0
fi

# ---- fixtures: op_statistic.csv alone; operator_details.csv without the
# AI Core columns
mkdir -p "$T_DIR/types/ASCEND_PROFILER_OUTPUT" \
    "$T_DIR/details/ASCEND_PROFILER_OUTPUT"
cat > "$T_DIR/types/ASCEND_PROFILER_OUTPUT/op_statistic.csv" <<'CSV'
OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)
ForeachAddList,AI_VECTOR_CORE,3,1959.079,624.152,653.026,706.614,22.077
MatMulV2,AI_CORE,8,921.498,16.54,115.187,346.567,10.385
MatMulV2,AI_VECTOR_CORE,2,4,1,2,3,0.1
CSV
cat > "$T_DIR/details/ASCEND_PROFILER_OUTPUT/operator_details.csv" <<'CSV'
Name,Input Shapes,Call Stack,Host Self Duration(us),Host Total Duration(us),Device Self Duration(us),Device Total Duration(us)
aten::mm,"64,512;
512,1000;
","a.py(1): f",10,12,30.5,31
aten::mm,"64,512;
512,1000;
",,11,13,29.5,30
aten::relu,,,5,5,2,2
CSV

"$PR_BIN" --input "$T_DIR/types" --json "$T_DIR/t.json" \
    --html "$T_DIR/t.html" --pdf "$T_DIR/t.pdf" 2> "$T_DIR/err"
check "op_statistic.csv alone: exit 0" [ $? -eq 0 ]
check "op_statistic.csv alone: types as operators, host times null" \
    python3 - "$T_DIR/t.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
ops = {o["name"]: o for o in r["operators"]}
mm = ops["MatMulV2"]
types = r["operator_types"]
ok = (r["operators_source"] == "op_statistic.csv" and len(ops) == 2
      and mm["calls"] == 10 and abs(mm["device_self_us"] - 925.498) < 1e-6
      and mm["host_self_us"] is None and mm["host_total_us"] is None
      and mm["tc_self_pct"] is None
      and [t["name"] for t in types] == ["ForeachAddList", "MatMulV2", "MatMulV2"]
      and types[1]["core_type"] == "AI_CORE" and types[1]["min_us"] == 16.54
      and any(d["kind"] == "operators_summary_only" for d in r["diagnostics"]))
print(json.dumps(mm), json.dumps(types[1]))
sys.exit(0 if ok else 1)
PY
check "op_statistic.csv alone: the HTML says where the rows come from" \
    grep -q "From the producer&#39;s op_statistic.csv\|From the producer's op_statistic.csv" \
    "$T_DIR/t.html"
check "op_statistic.csv alone: the HTML has the table by operator type" \
    grep -q "By operator type (op_statistic.csv)" "$T_DIR/t.html"
check "op_statistic.csv alone: a PDF" [ -s "$T_DIR/t.pdf" ]
"$PR_BIN" table --input "$T_DIR/t.json" --kind operators > "$T_DIR/tab" \
    2> "$T_DIR/err"
check "op_statistic.csv alone: table operators (exit $?)" \
    grep -q "MatMulV2" "$T_DIR/tab"

"$PR_BIN" --input "$T_DIR/details" --json "$T_DIR/d.json" 2> "$T_DIR/err"
check "operator_details.csv without AI Core columns: exit 0" [ $? -eq 0 ]
check "operator_details.csv: calls are rows; unknown Cube share is null" \
    python3 - "$T_DIR/d.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
ops = {o["name"]: o for o in r["operators"]}
mm = ops["aten::mm"]
shape = [o for o in r["operators_by_shape"] if o["name"] == "aten::mm"]
tc = r["tensor_cores"]
ok = (r["operators_source"] == "operator_details.csv"
      and "operator_types" not in r
      and mm["calls"] == 2 and mm["device_self_us"] == 60 and mm["host_self_us"] == 21
      and mm["device_total_us"] == 61 and mm["host_total_us"] == 25
      and mm["tc_self_pct"] is None and mm["tc_total_pct"] is None
      and mm["tc_eligible"] is True
      and len(shape) == 1 and shape[0]["input_shapes"] == "[[64, 512], [512, 1000], []]"
      and tc["eligible_on_tc_pct"] is None)
print(json.dumps(mm), json.dumps(tc))
sys.exit(0 if ok else 1)
PY

# ---- the real CSV-only folders
S=${PR_SHARED:-}/traces/torch_npu
if ! have_shared || [ ! -d "$S/old2023" ] || [ ! -d "$S/text_level1" ]; then
    skip "real CSV-only folders" "no $S"
    echo "1..$T_N"
    exit 0
fi
# text_level1 without trace_view.json: the same files, linked
for r in 0 1; do
    src=$S/text_level1/rank${r}_ascend_pt
    dst=$T_DIR/l1/rank${r}_ascend_pt
    mkdir -p "$dst/ASCEND_PROFILER_OUTPUT"
    for f in "$src"/*; do
        [ -f "$f" ] && ln -s "$f" "$dst/"
    done
    for f in "$src"/ASCEND_PROFILER_OUTPUT/*; do
        case $f in */trace_view.json) ;; *) ln -s "$f" "$dst/ASCEND_PROFILER_OUTPUT/" ;; esac
    done
done

for in in "$S/old2023" "$T_DIR/l1"; do
    name=$(basename "$in")
    "$PR_BIN" --follow-links --input "$in" --json "$T_DIR/$name.json" \
        --html "$T_DIR/$name.html" 2> "$T_DIR/err"
    check "$name: exit 0" [ $? -eq 0 ]
    check "$name: operators add up to operator_details.csv and op_statistic.csv" \
        python3 - "$in" "$T_DIR/$name.json" <<'PY'
import csv, glob, json, os, sys
s = json.load(open(sys.argv[2]))
runs = {r["worker"]: r for r in s["runs"]}
bad = 0
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*", "ASCEND_PROFILER_OUTPUT"))):
    info = glob.glob(os.path.join(os.path.dirname(f), "profiler_info_*.json"))
    worker = ("rank%s" % json.load(open(info[0]))["rank_id"]) if info \
        else os.path.basename(os.path.dirname(f))
    r = runs[worker]
    rows = list(csv.DictReader(open(os.path.join(f, "operator_details.csv"))))
    tol = 0.001 * len(rows) + 1e-6
    for arr in ("operators", "operators_by_shape"):
        ops = r[arr]
        got = (sum(o["calls"] for o in ops),
               sum(o["device_self_us"] for o in ops),
               sum(o["device_total_us"] for o in ops),
               sum(o["host_self_us"] for o in ops),
               sum(o["host_total_us"] for o in ops))
        want = (len(rows),
                sum(float(x["Device Self Duration(us)"]) for x in rows),
                sum(float(x["Device Total Duration(us)"]) for x in rows),
                sum(float(x["Host Self Duration(us)"]) for x in rows),
                sum(float(x["Host Total Duration(us)"]) for x in rows))
        print(worker, arr, got, want)
        if got[0] != want[0] or any(abs(a - b) > tol for a, b in zip(got[1:], want[1:])):
            bad += 1
    if r["operators_source"] != "operator_details.csv":
        bad += 1
    if not any(d["kind"] == "operators_summary_only" for d in r["diagnostics"]):
        bad += 1
    stat = os.path.join(f, "op_statistic.csv")
    if os.path.exists(stat):
        rows = list(csv.DictReader(open(stat)))
        types = r["operator_types"]
        got = (len(types), sum(t["calls"] for t in types),
               sum(t["total_us"] for t in types))
        want = (len(rows), sum(int(x["Count"]) for x in rows),
                sum(float(x["Total Time(us)"]) for x in rows))
        print(worker, "operator_types", got, want)
        if got[:2] != want[:2] or abs(got[2] - want[2]) > 0.001 * len(rows):
            bad += 1
    elif "operator_types" in r:
        bad += 1
sys.exit(1 if bad else 0)
PY
    check "$name: the report shows the operator table" \
        grep -q "From the producer" "$T_DIR/$name.html"
done

echo "1..$T_N"
