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

# --- summaries that break the contract: exit 2 naming the file and the key
# bad_summary NAME "what" PATTERN: diff, trend and the reports refuse it
bad_summary() {
    for cmd in diff trend report; do
        case $cmd in
        diff) "$PR_BIN" diff -q -b "$D/base.json" -i "$T_DIR/$1" ;;
        trend) "$PR_BIN" trend -q -i "$D/base.json" "$T_DIR/$1" ;;
        report) "$PR_BIN" -q --input "$T_DIR/$1" --json "$T_DIR/r.json" ;;
        esac > /dev/null 2> "$T_DIR/err"
        rc=$?
        if [ "$rc" -ne 2 ]; then
            not_ok "$cmd: $2: exit $rc, want 2 ($(head -c 200 "$T_DIR/err"))"
        elif ! grep -q "$1" "$T_DIR/err" || ! grep -q -- "$3" "$T_DIR/err"; then
            not_ok "$cmd: $2: message lacks the file or /$3/: $(cat "$T_DIR/err")"
        else
            ok "$cmd: $2 ($(cat "$T_DIR/err"))"
        fi
    done
}
printf '{"schema_version":1,"runs":[{}]}' > "$T_DIR/empty_run.json"
bad_summary empty_run.json "a run without keys" 'missing key'
sed '0,/"duration_us": [0-9.]*/s//"duration_us": "97806.2"/' "$D/base.json" \
    > "$T_DIR/string_dur.json"
bad_summary string_dur.json "a string for a number" \
    'runs\[0\]\.steps\[0\]\.duration_us: expected a number or null, got a string'
sed '0,/"calls": [0-9.]*/s//"calls": null/' "$D/base.json" \
    > "$T_DIR/null_calls.json"
bad_summary null_calls.json "null calls" 'calls: expected a number, got null'
sed 's/"name": "profreport"/"name": "other-tool"/' "$D/base.json" \
    > "$T_DIR/other_tool.json"
bad_summary other_tool.json "another tool's summary" 'not "profreport"'
printf '{"schema_version":1,"runs":[' > "$T_DIR/cut.json"
bad_summary cut.json "a cut summary" 'not valid JSON'
printf '{"schema_version":2,"tool":{"name":"profreport"},"runs":[]}' \
    > "$T_DIR/v2.json"
bad_summary v2.json "a newer schema" 'unsupported schema_version 2'

# --- many steps and many runs: bounded cost, with the method stated
# (bench/diff.sh times 100k and 1M steps; bench/RESULTS.md)
# jq-free reader of the diff JSON: py KEYPATH FILE
G=$PR_SRCDIR/bench/gen_summary.sh
sh "$G" 6000 1 1 1 > "$T_DIR/big_b.json"
sh "$G" 6000 1 1.05 2 > "$T_DIR/big_c.json"
(ulimit -t 60; "$PR_BIN" diff -q -b "$T_DIR/big_b.json" -i "$T_DIR/big_c.json" \
    --json "$T_DIR/big.json" 2> "$T_DIR/err")
rc=$?
check "6000 steps a side: diff exits 0 within 60 CPU s (got $rc: $(head -c 200 "$T_DIR/err"))" [ "$rc" -eq 0 ]
check "  a side over 5000 steps gets the normal-approximation interval" \
    grep -q '"ci_method":[[:space:]]*"normal"' "$T_DIR/big.json"
check "  and the method says so" \
    grep -q 'normal approximation for a side of more than max_samples' "$T_DIR/big.json"
check "  the +5% change is found, its interval holds it" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
m = [m for m in d['runs'][0]['metrics'] if m['metric'] == 'step.mean'][0]['noise']
sys.exit(not (m['significant'] and m['ci_lo_pct'] < 5.2 and m['ci_hi_pct'] > 4.8))
" "$T_DIR/big.json"
# 3000 runs of 3 steps: the runs pair by rank (pair.c, O(n log n)), and the
# bootstraps that decide (3 against 3 steps) share the draw budget
# (2e8 draws over 3000 pairs of 6 samples and 13 figures' worth: the
# median and p90 count two each, compare.c QUANTILE_COST)
sh "$G" 3 3000 1 1 > "$T_DIR/many_b.json"
sh "$G" 3 3000 1.05 2 > "$T_DIR/many_c.json"
(ulimit -t 120; "$PR_BIN" diff -q -b "$T_DIR/many_b.json" \
    -i "$T_DIR/many_c.json" --json "$T_DIR/many.json" 2> "$T_DIR/err")
rc=$?
check "3000 runs: diff exits 0 or 3 (got $rc: $(head -c 200 "$T_DIR/err"))" [ "$rc" -eq 0 -o "$rc" -eq 3 ]
check "  every run paired with its rank, none unmatched; resamples within the budget" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
ok = len(d['runs']) == 3000 and d['runs_unmatched'] == {'baseline': [], 'current': []}
ok = ok and all(r['baseline'] == r['current'] == 'worker%d' % i for i, r in enumerate(d['runs']))
b = d['method']['bootstrap']
ok = ok and b['resamples'] == int(2e8 / (3000 * 6 * 13)) and 'over the draw budget' in b['intervals']
sys.exit(not ok)
" "$T_DIR/many.json"

echo "1..$T_N"
