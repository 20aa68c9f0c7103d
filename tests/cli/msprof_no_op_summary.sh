#!/bin/sh
# msprof_no_op_summary.sh - a PROF_* folder without op_summary_*.csv (the
# CANN 6 timeline export of mindinsight's AlexNet sample) says what is
# missing and the msprof switches that record it (issue #30 #6), per
# CANN's msprof options: --task-time=on (the default) collects the
# operators' basic information (Input Shapes, Input Data Types), off does
# not; CANN 6.0.1's msprof takes on or off only (its --task-time: "on or
# off, default on"), CANN 7.0.RC1's adds l1 (the same as on) and l0 (no
# basic information), so the note names the version where they differ;
# --aic-metrics selects the AI Core metrics; msprof --export=on writes op_summary_*.csv.  The tensor-core note names
# op_summary's Task Type and --task-time the same way.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "msprof op_summary words" "no python3"
    echo "1..$T_N"
    exit 0
fi
if ! shared_summary c6 msprof/mindinsight_cann6_PROF; then
    skip "msprof op_summary words" "no msprof/mindinsight_cann6_PROF"
    echo "1..$T_N"
    exit 0
fi
set -- $(python3 - "$T_DIR/c6.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
d = " ".join(x["text"] for x in r["diagnostics"])
n = r["tensor_cores"].get("note") or ""
print("no op_summary_*.csv" in d and "Input Shapes and Input" in d,
      "--task-time=on, the default" in d and "CANN 6.0 takes on or off" in d
      and "CANN 7.0 adds l1, the same as on, and l0, which leaves them out" in d
      and "or l1 (the default" not in d,
      "--aic-metrics" in d and "--export=on" in d,
      "Task Type" in n and "--task-time" in n)
PY
)
check "the diagnostic says op_summary_*.csv and its shapes are missing" \
    test "$1" = True
check "it names --task-time=on, CANN 6.0's on/off and CANN 7.0's l0/l1" test "$2" = True
check "it names --aic-metrics and --export=on" test "$3" = True
check "the tensor-core note names Task Type and --task-time" test "$4" = True
echo "1..$T_N"
