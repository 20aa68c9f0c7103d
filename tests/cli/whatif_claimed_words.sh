#!/bin/sh
# whatif_claimed_words.sh - issue #30 #3 (second review, msprof_tv): the
# what-if table marked "binary kernels (torch_npu's jit_compile=False ...)
# (not claimed)" while the verdict's first finding (op_compile) claims
# exactly that replay's gain (its what_if is aclop_binary); and the launch
# replay's rule_misses said "CANN's online compilation is 84% of the
# runtime calls' time" beside the op_compile finding saying compilation is
# not the cost: the 84% is the aclop-path calls (compile and execute).
. "$PR_SRCDIR/tests/lib.sh"

D=$PR_SHARED/traces/msprof/torch_npu_ascend_profiler_output
if ! have_shared || ! command -v python3 > /dev/null 2>&1 || [ ! -d "$D" ]; then
    skip "claimed what-if rows" "no $PR_SHARED/traces or no python3"
    echo "1..$T_N"
    exit 0
fi
"$PR_BIN" -q --input "$D" --json "$T_DIR/s.json" --html "$T_DIR/s.html" \
    2> "$T_DIR/err"
check "report written (exit $?; $(head -c 200 "$T_DIR/err"))" \
    [ -s "$T_DIR/s.json" ] && [ -s "$T_DIR/s.html" ]
python3 - "$T_DIR/s.json" > "$T_DIR/r.txt" 2> "$T_DIR/err" << 'PY'
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    recs = r.get('recommendations') or []
    for w in (r.get('critical_path') or {}).get('what_if') or []:
        if w['id'] == 'aclop_binary':
            by = [x['id'] for x in recs if x.get('what_if') == 'aclop_binary']
            print('aclop_binary claimed_by=%s' % ','.join(by))
        if w.get('rule_misses'):
            print('misses %s' % w['rule_misses'])
PY
check "summary read ($(head -c 200 "$T_DIR/err"))" \
    grep -q "aclop_binary claimed_by=op_compile" "$T_DIR/r.txt"
check "the claimed aclop replay's row is not marked not claimed" \
    sh -c '! grep -q "the aclnn path) (not claimed)" "$1"' _ "$T_DIR/s.html"
check "the aclop replay's row is in the table" \
    grep -q "the aclnn path)<" "$T_DIR/s.html"
check "rule_misses names aclop-path calls, not online compilation" \
    grep -q "misses aclop-path calls (aclop\*: compile and execute) are [0-9]*% of the runtime calls' time" "$T_DIR/r.txt"
check "no rule_misses says online compilation is a share of the calls" \
    sh -c '! grep -q "online compilation is" "$1"' _ "$T_DIR/r.txt"
echo "1..$T_N"
