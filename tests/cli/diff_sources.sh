#!/bin/sh
# diff_sources.sh - `profreport diff` by source location and by module
# (issue #16): the two spans of the tb_plugin ResNet-50 run, whose
# operators carry Call stacks, are matched line by line; a summary without
# stacks shows no source table.  Skipped without ../shared.
. "$PR_SRCDIR/tests/lib.sh"
T=$PR_SHARED/traces/tb_plugin/resnet50_num_workers_0

if ! have_shared || [ ! -d "$T" ]; then
    skip "diff by source location" "no ../shared/traces/tb_plugin"
    echo "1..$T_N"
    exit 0
fi
"$PR_BIN" --quiet --input "$T/worker0.1623143089861.pt.trace.json.gz" \
    --json "$T_DIR/a.json"
"$PR_BIN" --quiet --input "$T/worker0.1623143566756.pt.trace.json.gz" \
    --json "$T_DIR/b.json"
"$PR_BIN" diff -q -b "$T_DIR/a.json" -i "$T_DIR/b.json" \
    --json "$T_DIR/d.json" --markdown "$T_DIR/d.md" --html "$T_DIR/d.html"
check "diff of the two spans exits 0" [ $? -eq 0 ]
# the forward pass's line, present on both sides, per step
n=$(tr -d ' \t\n' < "$T_DIR/d.json" |
    grep -o '"name":"resnet50_profiler_api.py:46(<module>)","status":"both"' |
    wc -l)
check "  the forward line is matched on both sides" [ "$n" -eq 1 ]
check "  markdown has the source table" \
    grep -q "source locations (device self time per step)" "$T_DIR/d.md"
check "  html has the source table" grep -q 'id="sources"' "$T_DIR/d.html"
check "  no module table without module frames" \
    test "$(grep -c 'modules (device total' "$T_DIR/d.md")" -eq 0
echo "1..$T_N"
