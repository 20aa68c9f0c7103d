#!/bin/sh
# record_launcher.sh - the torch.profiler launcher (data/profreport_torch.py)
# against fake torch and torch_npu packages (tests/record/test_launcher.py):
# the set-up an Ascend or CUDA user gets, which no machine here can run,
# and the run itself.  Needs only python3.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "record launcher" "no python3"
    echo "1..$T_N"
    exit 0
fi
exec python3 "$PR_SRCDIR/tests/record/test_launcher.py" "$PR_SRCDIR"
