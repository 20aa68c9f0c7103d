#!/bin/sh
# ascend_pmu.sh - issue #13: the PMU columns of kernel_details.csv
# (aic_metrics=PipeUtilization in text_level1, MemoryL0 in old2023) are
# kept per task and shown per kernel as duration-weighted means, with the
# busiest pipe as a bound hint; a run without counters has no pmu key.
. "$PR_SRCDIR/tests/lib.sh"

S=${PR_SHARED:-}/traces/torch_npu
if ! have_shared || [ ! -d "$S/text_level1" ] ||
    ! command -v python3 > /dev/null 2>&1; then
    skip "Ascend PMU counters" "no $S or no python3"
    echo "1..$T_N"
    exit 0
fi

for in in "$S/text_level1/rank0_ascend_pt" "$S/old2023/test_rank_0" \
    "$S/text_level0/rank0_ascend_pt"; do
    name=$(basename "$(dirname "$in")")
    "$PR_BIN" -q --input "$in" --json "$T_DIR/$name.json"
    check "$name: exit 0" [ $? -eq 0 ]
    check "$name: kernels' pmu are the weighted means of kernel_details.csv" \
        python3 - "$in" "$T_DIR/$name.json" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[2]))["runs"][0]
rows = list(csv.DictReader(open(sys.argv[1] + "/ASCEND_PROFILER_OUTPUT/kernel_details.csv")))
cols = [c for c in rows[0] if c.startswith(("aic_", "aiv_"))]
ks = {k["name"]: k for k in r["kernels"]}
if not cols:  # level0: no counters, no key
    sys.exit(0 if all("pmu" not in k for k in ks.values()) else 1)
bad = 0
for name in {x["Name"] for x in rows if x["Accelerator Core"] != "HCCL"}:
    mine = [x for x in rows if x["Name"] == name]
    k = ks[name]
    for c in cols:
        vals = [(float(x[c]), max(round(float(x["Duration(us)"]) * 1000), 1))
                for x in mine if x.get(c) not in (None, "", "N/A")]
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
print(len(ks), "kernels,", len(pipes), "with a bound hint;", pipes[:1] and pipes[0]["pmu_bound"])
ratios = any(c.endswith("_ratio") for c in cols)
sys.exit(1 if bad or (ratios and not pipes) or (not ratios and pipes) else 0)
PY
done

echo "1..$T_N"
