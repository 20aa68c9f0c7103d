#!/bin/sh
# observations.sh - issue #31: every recommendation carries a gain from the
# replay or a stated model; a finding no replay or model puts a gain on
# (HTA's cpu_only: gloo collectives 85% of the step that take as long
# whatever they move, and the trace records no wait inside them) is not a
# recommendation but an observation: its words, why no gain (gain_note) and
# the most a change could save (bound_us), shown in the verdict as "<= X"
# and under the Recommendations section's "Not estimated"; a saved summary
# keeps it and a damaged one is refused with its path.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "observations" "no python3"
    echo "1..$T_N"
    exit 0
fi

# every recommendation of FILE has a number for gain_us; every observation
# has none, a gain_note and no what_if
gains() {
    python3 - "$1" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for r in s["runs"]:
    for x in r["recommendations"]:
        assert isinstance(x.get("gain_us"), (int, float)), x["id"]
    for x in r.get("observations", []):
        assert x["gain_us"] is None and x["gain_pct"] is None, x["id"]
        assert x.get("gain_note"), x["id"]
        assert "what_if" not in x, x["id"]
PY
}

if shared_report cpu hta/cpu_only; then
    check "cpu_only: every recommendation has a gain" gains "$T_DIR/cpu.json"
    check "  communication is an observation, bounded by the gloo calls" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert 'communication' not in [x['id'] for x in r['recommendations']], r
k = list(r.keys())
assert k[k.index('observations') - 1] == 'recommendations', k
o = [x for x in r['observations'] if x['id'] == 'communication'][0]
assert abs(o['bound_us'] - 178777.427) < 0.01, o
assert o['evidence'][0]['name'] == 'gloo:all_reduce', o
f = [x for x in r['verdict']['findings'] if x['id'] == 'communication'][0]
assert f['saves'] == '\u2264 178.8 ms' and f['gain_us'] is None, f
" "$T_DIR/cpu.json"
    check "  the HTML shows it under Not estimated, with why" \
        python3 -c "
import re, sys
h = open(sys.argv[1]).read()
i = h.index('id=\"recommendations\"')
t = re.sub(r'<[^>]+>', ' ', h[i:h.index('id=\"data-quality\"')])
assert 'No ranked change' in t, t[:400]
assert 'Not estimated' in t and 'high time cost on communication' in t
assert 'Not claimed: overlapping the collectives saves nothing' in t
" "$T_DIR/cpu.html"
    "$PR_BIN" -q --input "$T_DIR/cpu.json" --html "$T_DIR/again.html" \
        2> /dev/null
    check "  a saved summary renders it again" \
        grep -q "Not estimated" "$T_DIR/again.html"
    python3 - "$T_DIR/cpu.json" "$T_DIR/bad.json" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["runs"][0]["observations"][0]["bound_us"] = "x"
json.dump(s, open(sys.argv[2], "w"))
PY
    "$PR_BIN" diff -q -b "$T_DIR/bad.json" -i "$T_DIR/cpu.json" \
        > /dev/null 2> "$T_DIR/err"
    rc=$?
    check "  a damaged observation is refused with its path (exit $rc)" \
        sh -c "[ $rc -eq 2 ] && grep -qF 'runs[0].observations[0].bound_us' \
            '$T_DIR/err'"
else
    skip "cpu_only observation" "../shared/traces/hta/cpu_only absent"
fi

# the other samples whose findings no replay or model can cost: a late
# rank the export cannot name (torch_npu old2023, text_level0), host time
# the trace does not record (HTA's trace_filter), MindSpore's step
# interval (fixtures) and embedding lookups (ascend_run1)
for c in "old torch_npu/old2023 communication" \
    "text0 torch_npu/text_level0 communication" \
    "filter hta/trace_filter host_ops" \
    "fixtures mindspore/fixtures step_interval" \
    "run1 mindspore/ascend_run1 embedding"; do
    set -- $c
    if shared_summary "$1" "$2"; then
        check "$2: every recommendation has a gain" gains "$T_DIR/$1.json"
        check "  $3 is an observation with a bound" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
o = [x for x in r['observations'] if x['id'] == sys.argv[2]][0]
assert o['bound_us'] > 0, o
" "$T_DIR/$1.json" "$3"
    else
        skip "$2 observations" "../shared/traces/$2 absent"
    fi
done
echo "1..$T_N"
