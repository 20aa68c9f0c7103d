#!/bin/sh
# typed_top.sh - issue #34: the top of the summary, its tool, inputs[],
# jobs[] and runs[] are typed rows (rows.def: TOP, TOOL, INPUTS, JOBS,
# RUNS), written through the one writer in schema.def's row order (a run
# once, its parts moved into their slots: summary.c's run_write) and read
# back by the loader, which refuses a damaged value with its path (exit 2).
# tests/data/jobs/two_jobs (two 2-rank jobs in one folder) gives them all.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "typed top rows" "no python3"
    echo "1..$T_N"
    exit 0
fi
F=$PR_SRCDIR/tests/data/jobs/two_jobs
"$PR_BIN" -q --input "$F" --json "$T_DIR/s.json"
check "two jobs: summary written (exit $?)" [ -s "$T_DIR/s.json" ]

# rows, refused (FILE PATH KEY [VALUE]): tests/cli/lib/typed.sh
. "$PR_SRCDIR/tests/cli/lib/typed.sh"

for p in "tool" "inputs[]" "jobs[]"; do
    check "  $p: keys in schema order" rows "$T_DIR/s.json" "$p"
done
check "  runs[]: keys in schema order" rows "$T_DIR/s.json" --subset "runs[]"
check "  the top's keys in schema order" python3 -c "
import json, sys
import re
rows = [l for l in open(sys.argv[2] + '/src/summary/schema.def')]
want = [re.search(r'PR_SCHEMA_KEY\(TOP, (PR_K_\w+)', l).group(1) for l in rows
        if l.startswith('PR_SCHEMA_KEY(TOP,')]
keys = {}
for l in open(sys.argv[2] + '/include/profreport/keys.h'):
    m = re.match(r'#define (PR_K_\w+) \"([^\"]*)\"', l)
    if m:
        keys[m.group(1)] = m.group(2)
order = [keys[k] for k in want]
got = list(json.load(open(sys.argv[1])).keys())
assert got == [k for k in order if k in got], (got, order)
assert got[:5] == ['schema_version', 'tool', 'inputs', 'runs', 'distributed'], got
" "$T_DIR/s.json" "$PR_SRCDIR"
"$PR_BIN" diff -q -b "$T_DIR/s.json" -i "$T_DIR/s.json" > /dev/null 2>&1
rc=$?
check "  the saved summary loads as a diff's baseline (exit $rc)" [ "$rc" -eq 0 ]

# top KEY VALUE: the loader refuses the summary with the top's KEY set to
# VALUE (JSON), naming the key
top() {
    python3 - "$T_DIR/s.json" "$T_DIR/bad.json" "$1" "$2" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s[sys.argv[3]] = json.loads(sys.argv[4])
json.dump(s, open(sys.argv[2], "w"))
PY
    "$PR_BIN" diff -q -b "$T_DIR/bad.json" -i "$T_DIR/s.json" > /dev/null \
        2> "$T_DIR/err"
    rc=$?
    [ $rc -eq 2 ] && grep -qF "$1: expected" "$T_DIR/err"
}

check "  the top's job as a number is refused" top job 3
check "  the top's jobs as an object is refused" top jobs '{}'
check "  the top's rank_form as text is refused" top rank_form '"x"'
check "  the tool's version as a number is refused" \
    refused "$T_DIR/s.json" "tool" version 3
check "  an input's bytes as text is refused" \
    refused "$T_DIR/s.json" "inputs[]" bytes
check "  an input's events as 0.5 is refused" \
    refused "$T_DIR/s.json" "inputs[]" events 0.5
check "  an input's worker as a number is refused" \
    refused "$T_DIR/s.json" "inputs[]" worker 3
check "  a job's world size as text is refused" \
    refused "$T_DIR/s.json" "jobs[]" world_size
check "  a job's name as a number is refused" \
    refused "$T_DIR/s.json" "jobs[]" name 3
check "  a job's runs as an object is refused" \
    refused "$T_DIR/s.json" "jobs[]" runs '{}'
check "  a run's framework as a number is refused" \
    refused "$T_DIR/s.json" "runs[]" framework 3
check "  a run's host_only as text is refused" \
    refused "$T_DIR/s.json" "runs[]" host_only
check "  a run's world_size as text is refused" \
    refused "$T_DIR/s.json" "runs[]" world_size
check "  a run's critical_path as a number is refused" \
    refused "$T_DIR/s.json" "runs[]" critical_path 3
check "  a run's operators_source as a number is refused" \
    refused "$T_DIR/s.json" "runs[]" operators_source 3
echo "1..$T_N"
