#!/bin/sh
# findings_csv_bound.sh - review 30g #9: the findings CSV carries the
# bound's share as a number (bound_pct), equal to bound_us over the mean
# step, which the text table shows as "<= 6.5%" or "5.5-6.5%" (of_step);
# a finding without a bound leaves it empty.  On HTA's trace_diff test
# rank (device_copies: a gain under a bound).
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared || ! command -v python3 > /dev/null 2>&1; then
    skip "findings CSV bound_pct" "needs ../shared/traces and python3"
    echo "1..$T_N"
    exit 0
fi
TR=$PR_SHARED/traces/hta/trace_diff/test/test.json.gz
"$PR_BIN" -q --input "$TR" --json "$T_DIR/s.json" 2> "$T_DIR/err" ||
    sed 's/^/# /' "$T_DIR/err"
"$PR_BIN" table --kind findings --csv --input "$T_DIR/s.json" > "$T_DIR/f.csv" \
    2> "$T_DIR/err"
check "bound_pct is a default column" \
    sh -c "head -1 '$T_DIR/f.csv' | grep -q ',bound_pct,'"
check "bound_pct = 100 * bound_us / the mean step, empty without a bound" \
    python3 -c "
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = json.load(open(sys.argv[2]))['runs'][0]
mean = r['step_summary']['mean_us']
n = 0
for x in rows:
    if x['bound_us'] == '':
        assert x['bound_pct'] == '', x
        continue
    n += 1
    want = 100.0 * float(x['bound_us']) / mean
    assert abs(float(x['bound_pct']) - want) < 0.01, (x, want)
assert n > 0, 'no finding with a bound'
" "$T_DIR/f.csv" "$T_DIR/s.json"
echo "1..$T_N"
