#!/bin/sh
# ascend_pmu.sh - issue #13: the PMU columns of kernel_details.csv
# (aic_metrics=PipeUtilization in text_level1, MemoryL0 in old2023), of
# msprof's op_summary (msinsight_op_summary, MemoryL0) and the counters of
# the database's TASK_PMU_INFO (db_level1, PipeUtilization; there in ns
# under other names, here under the CSV's names in us) are kept per task
# and shown per kernel as duration-weighted means, with the busiest pipe
# as a bound hint (pmu_bound, and pmu_hint, its short form, which the
# HTML and PDF kernel tables show in a PMU bound column where a kernel has
# one); a run without counters has no pmu key and no such column.
. "$PR_SRCDIR/tests/lib.sh"

S=${PR_SHARED:-}/traces/torch_npu
O=${PR_SHARED:-}/traces/msprof/extra/msinsight_op_summary/op_summary_1.csv
if ! have_shared || [ ! -d "$S/text_level1" ] ||
    ! command -v python3 > /dev/null 2>&1 ||
    ! python3 -c 'import sqlite3' 2> /dev/null; then
    skip "Ascend PMU counters" "no $S or no python3 with sqlite3"
    echo "1..$T_N"
    exit 0
fi

# means NAME.json: kernels' pmu are the weighted means of the rows that
# python3 reads from stdin as JSON [{name, dur_us, counters{}}], and
# pmu_bound is there exactly where the counters have pipe ratios
cat > "$T_DIR/means.py" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
rows = json.load(sys.stdin)
cols = sorted({c for x in rows for c in x["counters"]})
ks = {k["name"]: k for k in r["kernels"]}
if not cols:  # no counters, no key
    sys.exit(0 if all("pmu" not in k for k in ks.values()) else 1)
bad = 0
for name in {x["name"] for x in rows}:
    mine = [x for x in rows if x["name"] == name]
    k = ks[name]
    for c in cols:
        vals = [(x["counters"][c], max(round(x["dur_us"] * 1000), 1))
                for x in mine if x["counters"].get(c) is not None]
        got = (k["pmu"] or {}).get(c)
        if not vals:
            if got is not None:
                bad += 1
            continue
        want = sum(v * w for v, w in vals) / sum(w for v, w in vals)
        if got is None or abs(got - want) > 1e-4 * max(1.0, abs(want)):
            print(name, c, got, want)
            bad += 1
pipes = [k for k in ks.values() if k.get("pmu_bound")]
for k in ks.values():  # the short hint says what pmu_bound says
    b, h = k.get("pmu_bound"), k.get("pmu_hint")
    if (b is None) != (h is None) or (b and (
            b.split("ratio ")[1][:4] != h.split()[-1] or
            ("-bound" in b) != ("-bound" in h))):
        print("hint", k["name"], b, h)
        bad += 1
print(len(ks), "kernels,", len(cols), "counters,", len(pipes),
      "with a bound hint;", pipes[:1] and pipes[0]["pmu_bound"])
ratios = any(c.endswith("_ratio") for c in cols)
sys.exit(1 if bad or (ratios and not pipes) or (not ratios and pipes) else 0)
PY

# csv_rows CSV NAME START DUR CORE: a kernel_details / op_summary table's
# rows as means.py reads them (HCCL's are the collective's, no counters)
csv_rows() {
    python3 - "$@" << 'PY'
import csv, json, sys
path, name, dur, core = sys.argv[1:5]
out = []
def num(s):
    s = (s or "").strip()
    return None if s in ("", "N/A", "NA") else float(s)
for x in csv.DictReader(open(path)):
    if x[core] == "HCCL" or None in x or None in x.values():
        continue  # a record of another field count is not read (review22a #6)
    # a vector-core task's aic_* are 0 by construction: not counted
    # (review26a #5), nor a vector-led mix task's whose AI Core time is 0
    # (review28a #7)
    t = num(x.get("aicore_time(us)", x.get("aic_total_cycles")))
    idle = x[core] == "AI_VECTOR_CORE" or (x[core] == "MIX_AIV" and t == 0)
    cs = {c: num(v) for c, v in x.items()
          if (c.startswith("aiv_") or c == "aicore_time(us)" or
              (c.startswith("aic_") and not idle))}
    out.append({"name": x[name], "dur_us": float(x[dur]), "counters": cs})
json.dump(out, sys.stdout)
PY
}

for in in "$S/text_level1/rank0_ascend_pt" "$S/old2023/test_rank_0" \
    "$S/text_level0/rank0_ascend_pt"; do
    name=$(basename "$(dirname "$in")")
    "$PR_BIN" -q --input "$in" --json "$T_DIR/$name.json"
    check "$name: exit 0" [ $? -eq 0 ]
    csv_rows "$in/ASCEND_PROFILER_OUTPUT/kernel_details.csv" Name \
        "Duration(us)" "Accelerator Core" > "$T_DIR/$name.rows"
    check "$name: kernels' pmu are the weighted means of kernel_details.csv" \
        python3 "$T_DIR/means.py" "$T_DIR/$name.json" < "$T_DIR/$name.rows"
done

# the reports' kernel table: a PMU bound column where a kernel has a hint
# (text_level1), none where no kernel has one (old2023's MemoryL0 set has
# no pipe ratios; level0 no counters)
in=$S/text_level1/rank0_ascend_pt
"$PR_BIN" -q --input "$in" --html "$T_DIR/l1.html" --pdf "$T_DIR/l1.pdf"
check "text_level1: reports written" [ $? -eq 0 ]
check "text_level1: the HTML kernel table has the PMU bound column" \
    grep -q '>PMU bound<' "$T_DIR/l1.html"
check "text_level1: ... with the hints of the summary" \
    grep -q '>MTE2-bound 0.98<' "$T_DIR/l1.html"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext "$T_DIR/l1.pdf" "$T_DIR/l1.txt"
    check "text_level1: the PDF kernel table has the PMU bound column" \
        grep -q 'PMU bound' "$T_DIR/l1.txt"
else
    skip "PMU bound in the PDF" "no pdftotext"
fi
for in in "$S/old2023/test_rank_0" "$S/text_level0/rank0_ascend_pt"; do
    "$PR_BIN" -q --input "$in" --html "$T_DIR/no.html"
    check "$(basename "$(dirname "$in")"): no PMU bound column" \
        sh -c "! grep -q 'PMU bound' '$T_DIR/no.html'"
done

if [ -f "$O" ]; then
    "$PR_BIN" -q --input "$O" --json "$T_DIR/op.json"
    check "op_summary: exit 0" [ $? -eq 0 ]
    csv_rows "$O" "Op Name" "Task Duration(us)" "Task Type" > "$T_DIR/op.rows"
    check "op_summary: kernels' pmu are the weighted means of its rows" \
        python3 "$T_DIR/means.py" "$T_DIR/op.json" < "$T_DIR/op.rows"
else
    skip "op_summary PMU counters" "no $O"
fi

# the database's counters, renamed as the CSV names them (*_time ns ->
# *_time(us), aic/aiv_total_time -> aicore_time(us) / aiv_time(us))
for r in 0 1; do
    in=$S/db_level1/rank${r}_ascend_pt
    "$PR_BIN" -q --input "$in" --json "$T_DIR/db$r.json"
    check "db_level1 rank $r: exit 0" [ $? -eq 0 ]
    python3 - "$in/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_$r.db" \
        > "$T_DIR/db$r.rows" << 'PY'
import json, sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?immutable=1", uri=True)
s = dict(db.execute("SELECT id, value FROM STRING_IDS"))
tasks, aiv, mix = {}, set(), set()
for g, n, a, b, k in db.execute(
        "SELECT t.globalTaskId, c.name, t.startNs, t.endNs, c.taskType "
        "FROM TASK t "
        "JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId"):
    tasks[g] = {"name": s[n], "dur_us": (b - a) / 1000.0, "counters": {}}
    if s.get(k) == "AI_VECTOR_CORE":
        aiv.add(g)
    elif s.get(k) == "MIX_AIV":
        mix.add(g)
ren = {"aic_total_time": "aicore_time", "aiv_total_time": "aiv_time"}
pmu = list(db.execute("SELECT globalTaskId, name, value FROM TASK_PMU_INFO"))
# a vector-led mix task whose AI Core time is 0 (review28a #7)
aiv |= {g for g, n, v in pmu if g in mix and s[n] == "aic_total_time" and v == 0}
for g, n, v in pmu:
    if g not in tasks or v is None:
        continue
    c = ren.get(s[n], s[n])
    if g in aiv and c.startswith("aic_"):
        continue  # 0 by construction on a vector-core task (review26a #5)
    if c.endswith("_time"):
        c, v = c + "(us)", v / 1000.0
    tasks[g]["counters"][c] = v
json.dump(list(tasks.values()), sys.stdout)
PY
    check "db_level1 rank $r: kernels' pmu are the weighted means of TASK_PMU_INFO" \
        python3 "$T_DIR/means.py" "$T_DIR/db$r.json" < "$T_DIR/db$r.rows"
done

echo "1..$T_N"
