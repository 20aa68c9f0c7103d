#!/bin/sh
# diff_gate_detail.sh - a gate's Detail cell keeps its words whole when it is
# only a little over the cell's room (review 30g #5: a capture diffed with
# itself, whose 26-character run name made the 402-character detail read
# "time per w…dow"); a far longer one is still cut, in the middle.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "gate detail" "python3 is needed"
    echo "1..$T_N"
    exit 0
fi

# mk NAME: a capture without ProfilerStep (one kernel), its summary NAME.json
mk() {
    python3 - "$T_DIR/$1.pt.trace.json" << 'PY'
import json, sys
ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
       "ts": 0, "dur": 50, "args": {"External id": 1}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
       "tid": 1, "ts": 10, "dur": 5, "args": {"correlation": 1}},
      {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7,
       "ts": 20, "dur": 100, "args": {"correlation": 1, "device": 0,
                                      "stream": 7}}]
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY
    "$PR_BIN" -q --input "$T_DIR/$1.pt.trace.json" --json "$T_DIR/$1.json" \
        2> "$T_DIR/err" || sed 's/^/# /' "$T_DIR/err"
}

for n in 1_h100_1000isl_10osl_32con run_with_a_name_of_about_ninety_characters_as_slurm_job_names_often_are_x_y_z; do
    mk "$n"
    "$PR_BIN" diff "$T_DIR/$n.json" "$T_DIR/$n.json" > "$T_DIR/$n.txt" 2>&1
done
long=run_with_a_name_of_about_ninety_characters_as_slurm_job_names_often_are_x_y_z
short=1_h100_1000isl_10osl_32con
check "a detail a little over the room: whole" \
    grep -q "figures, time per window, are not compared" "$T_DIR/$short.txt"
check "a detail a little over the room: no cut mark in the Gates table" \
    sh -c "! grep -q 'w…dow' '$T_DIR/$short.txt'"
check "a far longer detail is cut in the middle, its end kept" \
    sh -c "grep -q '…' '$T_DIR/$long.txt' && grep -q \"(per call)\" '$T_DIR/$long.txt'"
echo "1..$T_N"
