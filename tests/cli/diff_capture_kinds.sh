#!/bin/sh
# diff_capture_kinds.sh - two runs that record different things are told
# apart from a change of the program (review 30a #3, #4):
#  - captured at different torch_npu profiler levels (profiler_level, from
#    profiler_info): a warning, and the runtime/CPU/other breakdown rows and
#    the Cube share not compared (Level0 records no AscendCL calls);
#  - a side whose task list is an extract (data quality task_list_extract
#    or tasks_incomplete): tc.share not compared, with a note (review 30a
#    #2: kd_910B_v1 vs kd_910B_v2's PMU extract read "+70.3 pp");
#  - one side with no device tasks (a MindSpore step trace alone): a
#    warning, the breakdown/device rows not compared and nothing listed as
#    new or vanished, while the step times still are.
# Hand-made: one summary of a small Kineto trace, edited into each case;
# real: text_level0 vs text_level2, ascend_run2 vs extra/run_3_profiler.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "diff capture kinds" "python3 is needed"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR/t.json" << 'PY'
import json, sys
ev = []
for s in range(3):
    b = s * 10000
    ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % s,
               "pid": 1, "tid": 1, "ts": b, "dur": 9000})
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
               "ts": b + 10, "dur": 100, "args": {"External id": s + 1}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
               "pid": 1, "tid": 1, "ts": b + 20, "dur": 10,
               "args": {"correlation": s + 1, "External id": s + 1}})
    ev.append({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7,
               "ts": b + 40, "dur": 500,
               "args": {"correlation": s + 1, "device": 0, "stream": 7,
                        "External id": s + 1}})
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q --input "$T_DIR/t.json" --json "$T_DIR/base.json" 2> "$T_DIR/err" ||
    sed 's/^/# /' "$T_DIR/err"
python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/base.json"))
for lv in ("Level0", "Level2"):
    for r in s["runs"]:
        r["profiler_level"] = lv
    json.dump(s, open("%s/%s.json" % (d, lv), "w"))
s = json.load(open(d + "/base.json"))
for r in s["runs"]:
    r["kernels"] = []
json.dump(s, open(d + "/notasks.json", "w"))
s = json.load(open(d + "/base.json"))
for r in s["runs"]:
    r["diagnostics"].append({"kind": "task_list_extract", "count": 1,
                             "text": "the task list is an extract"})
json.dump(s, open(d + "/extract.json", "w"))
PY

"$PR_BIN" diff "$T_DIR/Level0.json" "$T_DIR/Level2.json" --json "$T_DIR/lv.json" \
    > "$T_DIR/lv.txt" 2>&1
check "levels: the warning names both levels" \
    grep -q "captured at different torch_npu profiler levels (Level0 baseline, Level2 current)" "$T_DIR/lv.txt"
check "levels: breakdown.runtime not compared, breakdown.kernel compared" \
    test "$(python3 -c "
import json, sys
m = {r['metric']: r for r in json.load(open(sys.argv[1]))['runs'][0]['metrics']}
print(m['breakdown.runtime'].get('comparable'), m['breakdown.kernel'].get('comparable'))" "$T_DIR/lv.json")" = "False None"
"$PR_BIN" diff "$T_DIR/Level2.json" "$T_DIR/Level2.json" > "$T_DIR/same.txt" 2>&1
check "one level: no such warning" \
    sh -c "! grep -q 'profiler levels' '$T_DIR/same.txt'"

"$PR_BIN" diff "$T_DIR/base.json" "$T_DIR/notasks.json" --json "$T_DIR/nt.json" \
    > "$T_DIR/nt.txt" 2>&1
check "no tasks: the warning says the current records none" \
    grep -q "the current records no device tasks" "$T_DIR/nt.txt"
check "no tasks: nothing listed as vanished" \
    sh -c "! grep -q ' vanished' '$T_DIR/nt.txt'"
check "no tasks: step.mean compared, breakdown.kernel not" \
    test "$(python3 -c "
import json, sys
m = {r['metric']: r for r in json.load(open(sys.argv[1]))['runs'][0]['metrics']}
print(m['step.mean'].get('comparable'), m['breakdown.kernel'].get('comparable'))" "$T_DIR/nt.json")" = "None False"

"$PR_BIN" diff "$T_DIR/base.json" "$T_DIR/extract.json" --json "$T_DIR/ex.json" \
    > "$T_DIR/ex.txt" 2>&1
check "extract: tc.share not compared, step.mean compared, a note says why" \
    test "$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
m = {r['metric']: r for r in d['runs'][0]['metrics']}
print(m['tc.share'].get('comparable'), m['step.mean'].get('comparable'),
      any('task list is a part' in n for n in d['comparability']['notes']))" "$T_DIR/ex.json")" = "False None True"

if ! have_shared; then
    skip "shared Ascend pairs" "no ../shared/traces"
    echo "1..$T_N"
    exit 0
fi
"$PR_BIN" diff "$PR_SHARED/traces/torch_npu/text_level0" \
    "$PR_SHARED/traces/torch_npu/text_level2" > "$T_DIR/r1.txt" 2>&1
check "text_level0 vs text_level2: the levels' warning" \
    grep -q "profiler levels (Level0 baseline, Level2 current)" "$T_DIR/r1.txt"
"$PR_BIN" diff "$PR_SHARED/traces/mindspore/ascend_run2" \
    "$PR_SHARED/traces/mindspore/extra/run_3_profiler" > "$T_DIR/r2.txt" 2>&1
check "ascend_run2 vs run_3_profiler: no task side named, no -100%" \
    sh -c "grep -q 'records no device tasks' '$T_DIR/r2.txt' && ! grep -q -- '-100.0%' '$T_DIR/r2.txt'"
K=$PR_SHARED/traces/msprof/torch_npu_ascend_profiler_output
"$PR_BIN" diff "$K/kernel_details_910B_v1.csv" "$K/kernel_details_910B_v2_pmu.csv" \
    > "$T_DIR/r3.txt" 2>&1
check "kd_910B_v1 vs v2 (an extract): tc.share not compared" \
    grep -q "tc.share (Cube share) .*not compared" "$T_DIR/r3.txt"
"$PR_BIN" diff "$PR_SHARED/traces/mindspore/ascend_run1" \
    "$PR_SHARED/traces/mindspore/ascend_run1" > "$T_DIR/r4.txt" 2>&1
check "MindSpore: the dataloader row is named the step interval (review 30a #11)" \
    grep -q "^breakdown.dataloader (step interval)" "$T_DIR/r4.txt"
echo "1..$T_N"
