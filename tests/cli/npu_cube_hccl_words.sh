#!/bin/sh
# npu_cube_hccl_words.sh - issue #30 #3: the Cube cards (the Overview's
# "Cube share", "Task time on the Cube", "Cube-eligible ... time") said
# "(HCCL tasks left out)" on every NPU run, ms_run1's too: one device and
# no HCCL task at all, so the words told of tasks that are not there.
# Hand-made trace_view.json runs: with an HCCL task the cards say HCCL is
# left out; without one they do not name HCCL (HTML and PDF).
. "$PR_SRCDIR/tests/lib.sh"
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1; then
    skip "Cube cards' HCCL words" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import json, os, sys
from hccl_trace import A, proc, task
for mode in ("solo", "hccl"):
    ev = [proc(100, "Python"), proc(800, "CANN"), proc(900, "Ascend Hardware"),
          {"ph": "M", "name": "process_labels", "pid": 900, "tid": 0,
           "args": {"labels": "NPU 0"}},
          A("ProfilerStep#1", 100, 100, 0, 2000, "cpu_op"),
          task("MatMul1", 100, 300, 1, "AI_CORE"),
          task("Add1", 500, 100, 2, "AI_VECTOR_CORE")]
    if mode == "hccl":
        ev.append(task("hcom_allReduce__123_0_1", 700, 400, 3, "HCCL",
                       stream=5))
    d = os.path.join(sys.argv[1], mode, "r_ascend_pt", "ASCEND_PROFILER_OUTPUT")
    os.makedirs(d)
    json.dump(ev, open(os.path.join(d, "trace_view.json"), "w"))
PY

for m in solo hccl; do
    "$PR_BIN" -q --input "$T_DIR/$m/r_ascend_pt" --html "$T_DIR/$m.html" \
        --pdf "$T_DIR/$m.pdf" 2> "$T_DIR/$m.err"
    check "$m: read" [ $? -eq 0 ]
done

# the cards are there in both, so the absence below is of the words alone
for m in solo hccl; do
    check "$m: HTML has the Cube share and the task time on the Cube" sh -c \
        "grep -q 'of compute task time on the AI Core Cube' '$T_DIR/$m.html' &&
         grep -q 'Task time on the Cube' '$T_DIR/$m.html'"
done
check "no HCCL task: HTML never says HCCL is left out" sh -c \
    "! grep -q 'HCCL[^<]*left out' '$T_DIR/solo.html'"
check "an HCCL task: HTML says HCCL tasks are left out" sh -c \
    "grep -q 'of compute task time on the AI Core Cube (HCCL tasks left out)' '$T_DIR/hccl.html' &&
     grep -q 'of compute task time (HCCL tasks left out)' '$T_DIR/hccl.html' &&
     grep -q 'of compute task time (HCCL left out), in tasks' '$T_DIR/hccl.html'"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -layout "$T_DIR/solo.pdf" "$T_DIR/solo.txt"
    pdftotext -layout "$T_DIR/hccl.pdf" "$T_DIR/hccl.txt"
    check "no HCCL task: PDF has the card, never says HCCL is left out" sh -c \
        "grep -q 'of compute task time' '$T_DIR/solo.txt' &&
         ! grep -q 'HCCL.*left out' '$T_DIR/solo.txt'"
    check "an HCCL task: PDF says HCCL tasks are left out" \
        grep -q 'HCCL tasks left out' "$T_DIR/hccl.txt"
else
    skip "PDF words" "no pdftotext"
fi
echo "1..$T_N"
