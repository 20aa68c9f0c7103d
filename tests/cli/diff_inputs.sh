#!/bin/sh
# diff_inputs.sh - `profreport diff` on hostile or damaged summaries (issue
# #19): names of any length, summaries that break the contract, and large
# numbers of steps and runs.
. "$PR_SRCDIR/tests/lib.sh"
D=$PR_SRCDIR/tests/data/diff

# --- a 5,000-character kernel name in a tripped gate still exits 3
long=$(printf '%5000s' '' | tr ' ' 'k')
sed "s/ampere_sgemm_128x64_nn/$long/" "$D/base.json" > "$T_DIR/lb.json"
sed "s/ampere_sgemm_128x64_nn/$long/" "$D/slow.json" > "$T_DIR/ls.json"
"$PR_BIN" diff -q -b "$T_DIR/lb.json" -i "$T_DIR/ls.json" \
    --fail-on 'kernel:*>+10%' --json "$T_DIR/l.json" \
    --markdown "$T_DIR/l.md" --junit "$T_DIR/l.xml" 2> "$T_DIR/err"
rc=$?
check "a 5000-character kernel name in a tripped gate exits 3 (got $rc: $(head -c 200 "$T_DIR/err"))" [ "$rc" -eq 3 ]
check "  the gate detail names the kernel" grep -q "kkkkkkkkkkkkkkkkkkkk" "$T_DIR/l.json"

echo "1..$T_N"
