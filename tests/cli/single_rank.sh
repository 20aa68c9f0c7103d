#!/bin/sh
# single_rank.sh - one rank whose trace has collectives is distributed
# data (issue #15): the summary's "distributed" is an object and the HTML
# and PDF show its collectives instead of "no distributed data".  Checked
# on real single-rank traces (hta, torch_npu); a trace without collectives
# still says it has none.
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared; then
    skip "single rank with collectives" "no $PR_SHARED/traces"
    echo "1..$T_N"
    exit 0
fi
TR=$PR_SHARED/traces
for d in hta/rank_non_gpu hta/nccl_parser_config torch_npu/text_level0; do
    if [ ! -d "$TR/$d" ]; then
        skip "$d" "not in $TR"
        continue
    fi
    n=$(echo "$d" | tr / _)
    "$PR_BIN" -q --input "$TR/$d" --json "$T_DIR/$n.json" \
        --html "$T_DIR/$n.html" --pdf "$T_DIR/$n.pdf" 2> "$T_DIR/err"
    check "$d: exits 0 ($(head -c 200 "$T_DIR/err"))" [ $? -eq 0 ]
    check "$d: one run with collectives, distributed is an object" \
        python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
ok = len(s['runs']) == 1 and s['runs'][0].get('communication')
ok = ok and isinstance(s.get('distributed'), dict)
ok = ok and s['distributed'].get('ranks_present') == 1
sys.exit(0 if ok else 1)" "$T_DIR/$n.json"
    check "$d: the HTML does not say 'no distributed data'" \
        sh -c '! grep -q "no distributed data" "$1"' - "$T_DIR/$n.html"
    check "$d: the HTML shows the collectives" \
        grep -q "Collectives" "$T_DIR/$n.html"
    if command -v pdftotext > /dev/null 2>&1; then
        pdftotext "$T_DIR/$n.pdf" "$T_DIR/$n.txt"
        check "$d: nor does the PDF" \
            sh -c '! grep -q "no distributed data" "$1"' - "$T_DIR/$n.txt"
    fi
done
d=hta/critical_path/simple_add
if [ -d "$TR/$d" ]; then
    "$PR_BIN" -q --input "$TR/$d" --html "$T_DIR/plain.html" 2> /dev/null
    check "$d (no collectives) says so" \
        grep -q "no distributed data" "$T_DIR/plain.html"
fi
echo "1..$T_N"
