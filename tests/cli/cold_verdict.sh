#!/bin/sh
# cold_verdict.sh - the second review's finding 16 (issue #31): on HTA's
# critical_path/alexnet and simple_add the critical path is context
# creation and first allocations (cudaDeviceGetStreamPriorityRange 29.9 s,
# cudaFree 6.6 s on alexnet): the verdict calls those runtime calls a cold
# start, with the cold_step what-if's share, never "launches"; a warm run
# whose path holds launches (nsys mock.sqlite, cold_step under a quarter of the
# step) still says "launches".  These captures hold no ProfilerStep: the
# share is of the capture (review 20 #8).
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared || ! command -v python3 >/dev/null 2>&1; then
    skip "cold captures' verdict" "no $PR_SHARED/traces or no python3"
    echo "1..$T_N"
    exit 0
fi

cat > "$T_DIR/cold.py" <<'PY'
import json, sys

r = json.load(open(sys.argv[1]))['runs'][0]
cold = sys.argv[2] == 'cold'
t = r['verdict']['text']
w = {x['id']: x for x in r['critical_path']['what_if'] or []}
g = w.get('cold_step', {}).get('gain_pct') or 0
fail = []
if cold:
    if g < 25 or 'A cold start' not in t or 'launches' in t or \
            ('the capture would be %.0f%% shorter' % g) not in t or 'runtime calls' not in t:
        fail.append('cold_step %.1f%%: %r' % (g, t))
elif 'A cold start' in t or 'launches' not in t or g >= 25:
    fail.append('cold_step %.1f%%: %r' % (g, t))
print('\n'.join(fail) if fail else 'ok')
PY

for c in "hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz cold" \
         "hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz cold" \
         "nsys/mock.sqlite warm"; do
    set -- $c
    if "$PR_BIN" -q -i "$PR_SHARED/traces/$1" --json "$T_DIR/s.json" 2>"$T_DIR/err"; then
        res=$(python3 "$T_DIR/cold.py" "$T_DIR/s.json" "$2")
        [ "$res" = ok ] || echo "# $res"
        check "$1: a $2 capture's verdict" [ "$res" = ok ]
    else
        sed 's/^/# /' "$T_DIR/err"
        check "$1: a $2 capture's verdict" false
    fi
done
echo "1..$T_N"
