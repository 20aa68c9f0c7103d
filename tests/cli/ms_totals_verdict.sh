#!/bin/sh
# ms_totals_verdict.sh - review-2 finding 15: mindspore/fixtures rank 1
# has only aicore_intermediate / framework_raw / flops files: operator
# totals, which the reader lays end to end, no timeline and no steps.  Its
# verdict read "Bound by device compute in 1 of 1 step (... kernels 100%)"
# from that layout.  Now no critical path is built from it and the
# verdict says what the tables allow, with no bound.
. "$PR_SRCDIR/tests/lib.sh"

S=${PR_SHARED:-}/traces/mindspore/fixtures
if ! have_shared || [ ! -f "$S/aicore_intermediate_1_detail.csv" ] ||
    ! command -v python3 > /dev/null 2>&1; then
    skip "MindSpore totals verdict" "no $S or no python3"
    echo "1..$T_N"
    exit 0
fi
"$PR_BIN" -q --detail-ranks all --input "$S" --json "$T_DIR/f.json" 2> /dev/null
check "fixtures: exit 0" [ $? -eq 0 ]
check "fixtures rank1: no critical path, no bound, the tables' words" \
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = [x for x in d["runs"] if x["worker"] == "rank1"]
ok = len(r) == 1
if ok:
    v = r[0]["verdict"]
    ok = (r[0]["critical_path"] is None and v["bound"] is None and
          v["bound_steps"] == 0 and "Bound by" not in v["text"] and
          v["text"].startswith("No step or timeline: this rank"))
sys.exit(0 if ok else 1)
' "$T_DIR/f.json"
check "fixtures: the other ranks keep their paths" \
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if all(x["critical_path"] is not None for x in d["runs"]
                  if x["worker"] != "rank1") else 1)
' "$T_DIR/f.json"
echo "1..$T_N"
